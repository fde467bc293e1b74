#!/usr/bin/env bash
# Stops the MariaDB server deploy/mariadb-start.sh started in DIR (default work/mariadb); the data directory stays.
#   deploy/mariadb-stop.sh [DIR]
set -euo pipefail
PROJECT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${1:-$PROJECT_DIR/work/mariadb}"
[[ -f "$DIR/mysqld.pid" ]] || exit 0
PID="$(cat "$DIR/mysqld.pid")"
if kill -0 "$PID" 2>/dev/null; then
  kill "$PID"
  for _ in $(seq 1 200); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$PID" 2>/dev/null && kill -9 "$PID"
fi
rm -f "$DIR/mysqld.pid"
