package io.flowsql.job.sql;

import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The values of the SQL script's placeholders, from the job's options. */
final class ScriptValues {
    /** The planner's own async timeout is this much longer than the function's, so the function always answers first. */
    static final Duration PLANNER_TIMEOUT_MARGIN = Duration.ofMinutes(1);

    private ScriptValues() {}

    static Map<String, String> of(JobConfig config) {
        Map<String, String> values = new TreeMap<>();
        values.put("BOOTSTRAP", config.get(JobOptions.BOOTSTRAP_SERVERS));
        values.put("KAFKA_PROPERTIES", kafkaProperties(config));
        values.put("QUESTIONS_TOPIC", config.get(JobOptions.QUESTIONS_TOPIC));
        values.put("ANSWERS_TOPIC", config.get(JobOptions.ANSWERS_TOPIC));
        values.put("DEAD_LETTERS_TOPIC", config.get(JobOptions.DEAD_LETTERS_TOPIC));
        // the DataStream job's group: one position on the questions topic whichever path ran last (run one at a time)
        values.put("GROUP_ID", config.get(JobOptions.GROUP_ID));
        values.put("TRANSACTIONAL_ID_PREFIX", config.get(JobOptions.TRANSACTIONAL_ID_PREFIX) + "-sql");
        values.put("TRANSACTION_TIMEOUT_MS", Long.toString(config.get(JobOptions.TRANSACTION_TIMEOUT).toMillis()));
        values.put("CHECKPOINT_INTERVAL", config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis() + " ms");
        values.put("ASYNC_CAPACITY", Integer.toString(config.get(JobOptions.STAGE_CAPACITY)));
        values.put("ASYNC_TIMEOUT", config.get(JobOptions.SQL_FUNCTION_TIMEOUT).plus(PLANNER_TIMEOUT_MARGIN).toMillis() + " ms");
        values.put("JOB_PARAMETERS", sqlLiteral(jobParameters(functionParameters(config))));
        return values;
    }

    /**
     * What the functions get as job parameters: every explicit option, plus the list of their keys (option families such
     * as {@code databases.<id>.*} cannot be enumerated by a function). Job parameters are shown in Flink's web UI and in
     * the printed script, so a secret option is refused here: the endpoint's key goes by {@code llm.api-key-env} or
     * {@code llm.api-key-file}, read on the TaskManagers.
     */
    static Map<String, String> functionParameters(JobConfig config) {
        Map<String, String> parameters = new TreeMap<>(config.explicitValues());
        List<String> masked = config.maskedKeys();
        if (!masked.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", masked) + (masked.size() == 1 ? " is" : " are")
                    + " not known to be safe to show, and the Flink SQL path would show it in the job's configuration "
                    + "(Flink's web UI, --print): give credentials by reference, read where they are used: the endpoint's "
                    + "key by " + JobOptions.LLM_API_KEY_ENV.key() + " or " + JobOptions.LLM_API_KEY_FILE.key()
                    + ", a database's password by databases.<id>.password-env or -file, Kafka's by "
                    + JobOptions.KAFKA_CLIENT_FILE.key());
        }
        parameters.put(FunctionConfig.OPTION_KEYS, String.join(",", parameters.keySet()));
        return parameters;
    }

    /**
     * The Kafka tables' {@code properties.*} lines (each ending in a comma) from the job's client factory: kafka.client.*
     * as given (only shown ones reach here, see {@link #functionParameters}) and kafka.client-file's keys as references
     * that the Kafka clients resolve where they run, so the printed script holds no credential.
     */
    static String kafkaProperties(JobConfig config) {
        return config.kafkaClients().passThrough().entrySet().stream()
                .map(e -> "  " + sqlString("properties." + e.getKey()) + " = " + sqlString(e.getValue()) + ",\n")
                .collect(Collectors.joining());
    }

    private static String sqlString(String s) {
        return "'" + sqlLiteral(s) + "'";
    }

    /**
     * Flink's map syntax for {@code pipeline.global-job-parameters}, quoted so URLs, paths and lists survive: entries
     * separated by commas, each entry in single quotes, inside it the key and the value each in double quotes (Flink
     * splits the entries first, then each entry at its colon; a quote inside a quoted token is doubled).
     */
    static String jobParameters(Map<String, String> explicit) {
        return explicit.entrySet().stream()
                .map(e -> quote('\'', quote('"', e.getKey()) + ":" + quote('"', e.getValue())))
                .collect(Collectors.joining(","));
    }

    private static String quote(char quote, String s) {
        String q = String.valueOf(quote);
        return q + s.replace(q, q + q) + q;
    }

    /** Inside a single-quoted SQL string literal a single quote is doubled. */
    private static String sqlLiteral(String s) {
        return s.replace("'", "''");
    }
}
