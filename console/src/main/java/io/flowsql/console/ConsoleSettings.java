package io.flowsql.console;

import io.flowsql.job.kafka.KafkaClientFactory;
import io.flowsql.job.EngineWiring;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobDatabases;
import io.flowsql.job.JobOptions;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.exec.SqlExecutorConfig;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * What the console runs with: where it listens, the bearer token (required when it listens beyond loopback), and
 * from the job's own options (the same {@code -c}/{@code -D} as the job) the broker, the topics (feedback included), the database catalog
 * and the safe executor's budgets, so the console sees what the job sees and runs SQL under the job's limits.
 */
public record ConsoleSettings(InetSocketAddress address, String token, KafkaClientFactory kafka, String questionsTopic,
                              String answersTopic, String deadLettersTopic, String feedbackTopic, DatabaseRegistry databases,
                              SqlExecutorConfig sql) {

    public ConsoleSettings {
        if (token != null && token.isBlank()) {
            token = null;
        }
        if (token == null && !address.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("the console listens on " + address.getAddress().getHostAddress()
                    + ", beyond loopback: give it a bearer token (--token-file or FLOWSQL_CONSOLE_TOKEN)");
        }
        if (token != null && !token.matches("[A-Za-z0-9._~+/=-]{16,512}")) {
            throw new IllegalArgumentException("the console's token must be 16-512 characters of A-Z a-z 0-9 . _ ~ + / = -");
        }
    }

    /** The settings of a console at {@code host:port} over the job whose options are {@code job}. */
    public static ConsoleSettings of(String host, int port, String token, JobConfig job) {
        InetAddress bind;
        try {
            bind = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot bind the console to " + host + ": " + e.getMessage(), e);
        }
        SqlExecutorConfig sql = EngineWiring.sqlExecutorConfig(job);
        return new ConsoleSettings(new InetSocketAddress(bind, port), token, job.kafkaClients(),
                job.get(JobOptions.QUESTIONS_TOPIC), job.get(JobOptions.ANSWERS_TOPIC),
                job.get(JobOptions.DEAD_LETTERS_TOPIC), job.get(JobOptions.FEEDBACK_TOPIC).trim(), JobDatabases.registry(job), sql);
    }

    /** False when the job learns from no feedback topic (kafka.topic.feedback blank): the page shows no verdict buttons. */
    public boolean feedback() {
        return !feedbackTopic.isEmpty();
    }

    public boolean loopbackOnly() {
        return address.getAddress().isLoopbackAddress();
    }
}
