package io.flowsql.job;

import io.flowsql.job.pacing.IdleSignalSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The job's options for a longer checkpoint interval while idle: on when job.checkpoint-interval-idle is longer than
 * job.checkpoint-interval; the signal watches every topic the job reads or writes (questions, answers, dead letters,
 * feedback when set).
 */
final class IdlePacing {
    /** How often the enumerator reads the topics' end offsets: the longest an answer waits for the short interval. */
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

    private IdlePacing() {}

    static boolean enabled(JobConfig config) {
        return config.get(JobOptions.CHECKPOINT_INTERVAL_IDLE).compareTo(config.get(JobOptions.CHECKPOINT_INTERVAL)) > 0;
    }

    static IdleSignalSource signal(JobConfig config) {
        List<String> topics = new ArrayList<>(List.of(config.get(JobOptions.QUESTIONS_TOPIC),
                config.get(JobOptions.ANSWERS_TOPIC), config.get(JobOptions.DEAD_LETTERS_TOPIC)));
        String feedback = config.get(JobOptions.FEEDBACK_TOPIC).trim();
        if (!feedback.isEmpty()) {
            topics.add(feedback);
        }
        return new IdleSignalSource(config.kafkaClients(), topics,
                POLL_INTERVAL, config.get(JobOptions.IDLE_AFTER));
    }
}
