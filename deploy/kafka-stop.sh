#!/usr/bin/env bash
# Stops the local Kafka broker(s) started by kafka-start.sh (one node or three); does nothing when none runs.
# --clean also deletes their data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

stopped=0
for f in "$WORK_DIR"/kafka.pid "$WORK_DIR"/kafka-[0-9].pid; do
  [[ -f "$f" ]] || continue
  if pid_alive "$f"; then
    log "stopping Kafka (pid $(cat "$f")) ..."
    stop_pid_file "$f" 30
    stopped=1
  fi
  rm -f "$f"
done
if [[ $stopped == 1 ]]; then log "Kafka stopped"; else log "Kafka is not running"; fi
rm -f "$WORK_DIR/kafka.ready" "$WORK_DIR/kafka-cluster/ready" "$WORK_DIR"/kafka-cluster/node-*.ready
if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$WORK_DIR/kafka" "$WORK_DIR/kafka-cluster"
  log "Kafka data removed"
fi
