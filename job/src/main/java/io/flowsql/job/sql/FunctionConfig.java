package io.flowsql.job.sql;

import io.flowsql.config.OptionFamily;

import io.flowsql.engine.StageRegistry;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import org.apache.flink.configuration.ConfigOption;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The job's options as a SQL function sees them: Flink hands a function only its job parameters
 * ({@code pipeline.global-job-parameters}), one key at a time, so every key the job knows is looked up there — the same
 * keys and values as {@code -D} on the DataStream job ({@code llm.base-url}, {@code data.shared}, {@code engine.strategy},
 * {@code llm.model.<stage>}, ...), validated the same way. Families whose keys cannot be enumerated
 * ({@code databases.<id>.*}, {@code tenants.<tenant>.*}) are found through the list of keys under {@link #OPTION_KEYS}.
 */
final class FunctionConfig {
    /** The job parameter listing the keys of the options given (ScriptValues writes it), families included. */
    static final String OPTION_KEYS = "flowsql.option-keys";

    private FunctionConfig() {}

    /** @param parameter a job parameter by key, null when it is not set */
    static JobConfig from(UnaryOperator<String> parameter) {
        Map<String, String> given = new TreeMap<>();
        String listed = parameter.apply(OPTION_KEYS);
        if (listed != null) {
            for (String key : listed.split(",")) {
                if (!key.isBlank()) {
                    put(given, key.strip(), parameter);
                }
            }
        }
        for (ConfigOption<?> option : JobOptions.all()) {
            put(given, option.key(), parameter);
        }
        for (OptionFamily<?> family : JobOptions.families()) {
            if (family == JobOptions.KAFKA_CLIENT) {
                continue; // Kafka client settings belong to the tables' connector options in SQL
            }
            for (String stage : StageRegistry.names()) {
                put(given, family.prefix() + stage, parameter);
            }
        }
        return JobConfig.of(given);
    }

    private static void put(Map<String, String> given, String key, UnaryOperator<String> parameter) {
        String value = parameter.apply(key);
        if (value != null) {
            given.put(key, value);
        }
    }
}
