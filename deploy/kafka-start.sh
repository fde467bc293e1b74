#!/usr/bin/env bash
# Starts the local Kafka broker (KRaft) on 127.0.0.1 as its own process; data and PID under work/.
#   deploy/kafka-start.sh              one node (broker and controller), replication 1
#   deploy/kafka-start.sh --brokers 3  three nodes, each its own JVM (PIDs in work/kafka-<n>.pid, so `kill -9` is real),
#                                      replication 3, min.insync.replicas 2, transaction log replicated (docs/FAULTS.md)
# Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093) — with --brokers 3, node n uses KAFKA_PORT+2(n-1) and
# KAFKA_CONTROLLER_PORT+2(n-1); QUESTIONS_TOPIC / ANSWERS_TOPIC / DEAD_LETTERS_TOPIC (questions / answers /
# dead-letters), QUESTIONS_PARTITIONS / ANSWERS_PARTITIONS / DEAD_LETTERS_PARTITIONS (2 / 2 / 1); KAFKA_RETAIN_MB (32:
# one node keeps about that many MiB per partition, deleting its oldest records; 0 = Kafka's 7 days, no size limit).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

BROKERS=1
if [[ "${1:-}" == "--brokers" ]]; then
  BROKERS="${2:?--brokers needs 1 or 3}"
fi
if [[ "$BROKERS" != 1 && "$BROKERS" != 3 ]]; then
  log "--brokers takes 1 or 3, not $BROKERS"; exit 2
fi
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
READY_FILE="$WORK_DIR/kafka.ready"
TOPICS=(--topic "${QUESTIONS_TOPIC:-questions}:${QUESTIONS_PARTITIONS:-2}"
  --topic "${ANSWERS_TOPIC:-answers}:${ANSWERS_PARTITIONS:-2}"
  --topic "${DEAD_LETTERS_TOPIC:-dead-letters}:${DEAD_LETTERS_PARTITIONS:-1}"
  --topic "${KNOWLEDGE_TOPIC:-knowledge}:1"
  --topic "${FEEDBACK_TOPIC:-feedback}:1")   # made here so that a job started before the first feedback reads it at once

for f in "$WORK_DIR"/kafka.pid "$WORK_DIR"/kafka-[0-9].pid; do
  if [[ -f "$f" ]] && pid_alive "$f"; then
    log "Kafka already running (pid $(cat "$f")) on $(cat "$READY_FILE" 2>/dev/null || echo "127.0.0.1:$PORT")"
    exit 0
  fi
done
ensure_built
CP="$(project_classpath)" || exit 1
rm -f "$READY_FILE"

# start_node PID_FILE LOG_FILE READY ARGS...: one broker JVM in the background.
start_node() {
  local pid_file="$1" log_file="$2" ready="$3"; shift 3
  nohup java -Xmx512m $LOG_CONFIG -cp "$CP" io.flowsql.devstack.KafkaBrokerMain "$@" --ready-file "$ready" \
    > "$log_file" 2>&1 < /dev/null &
  echo $! > "$pid_file"
}

if [[ "$BROKERS" == 1 ]]; then
  # each partition keeps about KAFKA_RETAIN_MB (32) MiB, oldest records deleted first, so work/kafka stays bounded
  start_node "$WORK_DIR/kafka.pid" "$WORK_DIR/kafka.log" "$READY_FILE" --data-dir "$WORK_DIR/kafka" \
    --port "$PORT" --controller-port "$CONTROLLER_PORT" --retain-mb "${KAFKA_RETAIN_MB:-32}" "${TOPICS[@]}"
  PID_FILES=("$WORK_DIR/kafka.pid")
else
  mkdir -p "$WORK_DIR/kafka-cluster"
  ID_FILE="$WORK_DIR/kafka-cluster/cluster-id"
  # a KRaft cluster id is 16 random bytes in URL-safe base64 without padding; kept so restarts reuse the data
  [[ -s "$ID_FILE" ]] || head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22 > "$ID_FILE"
  VOTERS="1@127.0.0.1:$CONTROLLER_PORT,2@127.0.0.1:$((CONTROLLER_PORT + 2)),3@127.0.0.1:$((CONTROLLER_PORT + 4))"
  PID_FILES=()
  for n in 1 2 3; do
    node_args=(--data-dir "$WORK_DIR/kafka-cluster/node-$n" --node-id "$n" --voters "$VOTERS" --cluster-id "$(cat "$ID_FILE")"
      --port "$((PORT + 2 * (n - 1)))" --controller-port "$((CONTROLLER_PORT + 2 * (n - 1)))")
    # node 1 creates the topics once all three brokers registered, then writes the ready file
    if [[ $n == 1 ]]; then node_args+=("${TOPICS[@]}"); ready="$WORK_DIR/kafka-cluster/ready"; else ready="$WORK_DIR/kafka-cluster/node-$n.ready"; fi
    rm -f "$ready"
    start_node "$WORK_DIR/kafka-$n.pid" "$WORK_DIR/kafka-$n.log" "$ready" "${node_args[@]}"
    PID_FILES+=("$WORK_DIR/kafka-$n.pid")
  done
fi

NODE_READY="$WORK_DIR/kafka-cluster/ready"
[[ "$BROKERS" == 1 ]] && NODE_READY="$READY_FILE"
for _ in $(seq 1 600); do
  [[ -s "$NODE_READY" ]] && break
  for f in "${PID_FILES[@]}"; do
    if ! pid_alive "$f"; then
      log "Kafka failed to start; see ${f%.pid}.log:"; tail -20 "${f%.pid}.log" >&2
      "$(dirname "$0")/kafka-stop.sh"; exit 1
    fi
  done
  sleep 0.2
done
if [[ ! -s "$NODE_READY" ]]; then
  log "Kafka not ready after 120 s; see $WORK_DIR/kafka*.log"; "$(dirname "$0")/kafka-stop.sh"; exit 1
fi
if [[ "$BROKERS" == 3 ]]; then
  echo "127.0.0.1:$PORT,127.0.0.1:$((PORT + 2)),127.0.0.1:$((PORT + 4))" > "$READY_FILE"
fi
log "Kafka ready on $(cat "$READY_FILE") ($BROKERS node(s), pid(s) $(cat "${PID_FILES[@]}" | tr '\n' ' ')log(s) in work/kafka*.log)"
