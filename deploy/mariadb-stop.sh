#!/usr/bin/env bash
# Stops the MariaDB server deploy/mariadb-start.sh started in DIR (default work/mariadb); the data directory stays.
#   deploy/mariadb-stop.sh [DIR]
set -euo pipefail
PROJECT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
source "$PROJECT_DIR/deploy/lib.sh"
DIR="${1:-$PROJECT_DIR/work/mariadb}"
# only the server the PID file was written for is signalled (pid_alive): a stale file's number may name another process
stop_pid_file "$DIR/mysqld.pid" 20
