#!/usr/bin/env bash
# Starts the local single-node Kafka broker (KRaft) on 127.0.0.1 as its own process; data and PID under work/.
# Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), QUESTIONS_TOPIC / ANSWERS_TOPIC / DEAD_LETTERS_TOPIC
# (questions / answers / dead-letters), QUESTIONS_PARTITIONS / ANSWERS_PARTITIONS / DEAD_LETTERS_PARTITIONS (2 / 2 / 1).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
PID_FILE="$WORK_DIR/kafka.pid"
READY_FILE="$WORK_DIR/kafka.ready"

if pid_alive "$PID_FILE"; then
  log "Kafka already running (pid $(cat "$PID_FILE")) on $(cat "$READY_FILE" 2>/dev/null || echo "127.0.0.1:$PORT")"
  exit 0
fi
ensure_built
CP="$(project_classpath)" || exit 1
rm -f "$READY_FILE"
nohup java -Xmx512m $LOG_CONFIG -cp "$CP" io.flowsql.devstack.KafkaBrokerMain \
  --data-dir "$WORK_DIR/kafka" --port "$PORT" --controller-port "$CONTROLLER_PORT" \
  --topic "${QUESTIONS_TOPIC:-questions}:${QUESTIONS_PARTITIONS:-2}" \
  --topic "${ANSWERS_TOPIC:-answers}:${ANSWERS_PARTITIONS:-2}" \
  --topic "${DEAD_LETTERS_TOPIC:-dead-letters}:${DEAD_LETTERS_PARTITIONS:-1}" \
  --ready-file "$READY_FILE" > "$WORK_DIR/kafka.log" 2>&1 < /dev/null &
echo $! > "$PID_FILE"
for _ in $(seq 1 300); do
  [[ -s "$READY_FILE" ]] && break
  if ! pid_alive "$PID_FILE"; then
    log "Kafka failed to start; see $WORK_DIR/kafka.log:"; tail -20 "$WORK_DIR/kafka.log" >&2; rm -f "$PID_FILE"; exit 1
  fi
  sleep 0.2
done
if [[ ! -s "$READY_FILE" ]]; then
  log "Kafka not ready after 60 s; see $WORK_DIR/kafka.log"; "$(dirname "$0")/kafka-stop.sh"; exit 1
fi
log "Kafka ready on $(cat "$READY_FILE") (pid $(cat "$PID_FILE"), data in work/kafka, log in work/kafka.log)"
