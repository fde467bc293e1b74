package io.flowsql.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The LLM endpoint's key: {@code llm.api-key} itself, else the environment variable {@code llm.api-key-env} names, else
 * the first line of the file {@code llm.api-key-file} names; blank when none is set. Errors name the option and the
 * variable or file, never the key.
 */
public final class EndpointKey {
    private EndpointKey() {}

    public static String resolve(JobConfig config) {
        return resolve(config, System::getenv);
    }

    static String resolve(JobConfig config, UnaryOperator<String> environment) {
        String literal = config.get(JobOptions.LLM_API_KEY);
        if (!literal.isBlank()) {
            return literal;
        }
        String variable = config.get(JobOptions.LLM_API_KEY_ENV);
        if (!variable.isBlank()) {
            String value = environment.apply(variable);
            if (value == null || value.isBlank()) {
                throw new IllegalStateException(JobOptions.LLM_API_KEY_ENV.key() + " names the environment variable "
                        + variable + ", which is not set where the engine starts");
            }
            return value.strip();
        }
        String file = config.get(JobOptions.LLM_API_KEY_FILE);
        if (!file.isBlank()) {
            try {
                List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
                if (lines.isEmpty() || lines.get(0).isBlank()) {
                    throw new IllegalStateException(JobOptions.LLM_API_KEY_FILE.key() + ": " + file + " holds no key on its first line");
                }
                return lines.get(0).strip();
            } catch (IOException e) {
                throw new UncheckedIOException(JobOptions.LLM_API_KEY_FILE.key() + ": cannot read " + file, e);
            }
        }
        return "";
    }
}
