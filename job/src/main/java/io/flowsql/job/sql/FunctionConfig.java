package io.flowsql.job.sql;

import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import org.apache.flink.configuration.ConfigOption;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The job's options as a SQL function sees them: the values the job was given, read back from its job parameters
 * ({@code pipeline.global-job-parameters}, written by {@link ScriptValues}) and read through the same
 * {@link JobConfig} (the same rooms, checks and defaults) as the DataStream job's {@code -c}/{@code -D}. Flink hands a
 * function its job parameters one key at a time, so the keys given are listed under {@link #OPTION_KEYS}: every key
 * there reaches the functions, whatever its room or family, and a new option needs no edit here. A hand-written
 * script without that list is read for every declared option ({@link JobOptions#all()}), family members aside.
 */
final class FunctionConfig {
    /** The job parameter listing the keys of the options given (ScriptValues writes it), families included. */
    static final String OPTION_KEYS = "flowsql.option-keys";

    private FunctionConfig() {}

    /** @param parameter a job parameter by key, null when it is not set */
    static JobConfig from(UnaryOperator<String> parameter) {
        Map<String, String> given = new TreeMap<>();
        String listed = parameter.apply(OPTION_KEYS);
        Stream<String> keys = Stream.concat(listed == null ? Stream.empty() : Arrays.stream(listed.split(",")),
                JobOptions.all().stream().map(ConfigOption::key));
        keys.map(String::strip).filter(key -> !key.isEmpty()).forEach(key -> {
            String value = parameter.apply(key);
            if (value != null) {
                given.put(key, value);
            }
        });
        return JobConfig.of(given);
    }
}
