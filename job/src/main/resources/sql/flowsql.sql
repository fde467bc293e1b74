-- FlowSQL in Flink SQL: every record of the questions topic becomes exactly one answer on the answers topic or one
-- dead letter on the dead-letters topic, in the same formats as the DataStream job's, exactly once (Kafka transactions
-- committed at each checkpoint; read the outputs with isolation.level=read_committed).
-- The placeholders (a dollar sign, a name in capitals in braces) are filled in from the job's options by FlowSqlScript
-- (deploy/flowsql-sql.sh); `deploy/flowsql-sql.sh --print` prints the filled-in script for Flink's SQL client.

SET 'execution.checkpointing.interval' = '${CHECKPOINT_INTERVAL}';
SET 'table.exec.async-table.buffer-capacity' = '${ASYNC_CAPACITY}';
SET 'table.exec.async-table.timeout' = '${ASYNC_TIMEOUT}';
SET 'pipeline.global-job-parameters' = '${JOB_PARAMETERS}';

CREATE TEMPORARY FUNCTION FLOWSQL_ANSWER AS 'io.flowsql.job.sql.AnswerQuestionRecordFunction';
CREATE TEMPORARY FUNCTION TEXT_TO_SQL AS 'io.flowsql.job.sql.TextToSqlFunction';

-- Question records as raw bytes, so the function checks them exactly as the DataStream job does (a record that is not
-- a valid question becomes a dead letter, never a parse error that fails the job).
CREATE TEMPORARY TABLE questions (
  record_key BYTES,
  record_value BYTES,
  source_topic STRING METADATA FROM 'topic' VIRTUAL,
  source_partition INT METADATA FROM 'partition' VIRTUAL,
  source_offset BIGINT METADATA FROM 'offset' VIRTUAL
) WITH (
  'connector' = 'kafka',
  'topic' = '${QUESTIONS_TOPIC}',
  'properties.bootstrap.servers' = '${BOOTSTRAP}',
${KAFKA_PROPERTIES}  'properties.group.id' = '${GROUP_ID}',
  'properties.isolation.level' = 'read_committed',
  'scan.startup.mode' = 'group-offsets',
  'properties.auto.offset.reset' = 'earliest',
  'key.format' = 'raw',
  'key.fields' = 'record_key',
  'value.format' = 'raw',
  'value.fields-include' = 'EXCEPT_KEY'
);

-- Answers and dead letters, each record keyed by its dialogue id, to the topic its row names.
CREATE TEMPORARY TABLE outputs (
  `topic` STRING METADATA,
  record_key STRING,
  record_value STRING
) WITH (
  'connector' = 'kafka',
  'topic' = '${ANSWERS_TOPIC};${DEAD_LETTERS_TOPIC}',
  'properties.bootstrap.servers' = '${BOOTSTRAP}',
${KAFKA_PROPERTIES}  'properties.transaction.timeout.ms' = '${TRANSACTION_TIMEOUT_MS}',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${TRANSACTIONAL_ID_PREFIX}',
  'key.format' = 'raw',
  'key.fields' = 'record_key',
  'value.format' = 'raw',
  'value.fields-include' = 'EXCEPT_KEY'
);

INSERT INTO outputs
SELECT
  CASE WHEN a.status = 'rejected' THEN '${DEAD_LETTERS_TOPIC}' ELSE '${ANSWERS_TOPIC}' END,
  a.dialogue_id,
  COALESCE(a.answer, a.dead_letter)
FROM questions AS q,
  LATERAL TABLE(FLOWSQL_ANSWER(q.record_key, q.record_value, q.source_topic, q.source_partition, q.source_offset)) AS a;
