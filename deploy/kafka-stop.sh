#!/usr/bin/env bash
# Stops the local Kafka broker started by kafka-start.sh; does nothing when none runs. --clean also deletes its data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if pid_alive "$WORK_DIR/kafka.pid"; then
  log "stopping Kafka (pid $(cat "$WORK_DIR/kafka.pid")) ..."
  stop_pid_file "$WORK_DIR/kafka.pid" 30
  log "Kafka stopped"
else
  rm -f "$WORK_DIR/kafka.pid"
  log "Kafka is not running"
fi
rm -f "$WORK_DIR/kafka.ready"
if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$WORK_DIR/kafka"
  log "Kafka data removed"
fi
