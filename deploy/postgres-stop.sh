#!/usr/bin/env bash
# Stops the PostgreSQL deploy/postgres-start.sh started.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
stop_pid_file "$WORK_DIR/postgres/pid" 20
rm -f "$WORK_DIR/postgres/ready"
