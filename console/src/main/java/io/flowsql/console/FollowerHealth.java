package io.flowsql.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.events.EventJson;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * How the answer follower is doing: following (with its lag in records), behind (more than {@link #BEHIND_RECORDS}
 * records to read), broker unreachable (the topics' ends could not be read), or down (the follower stopped). Taken on
 * the follower's own thread from the broker's answer, never guessed from the page's connection.
 */
record FollowerHealth(State state, long lag, String detail) {
    /** Records left to read past which the follower is called behind. */
    static final long BEHIND_RECORDS = 1_000;
    private static final Duration ASK_BROKER = Duration.ofSeconds(2);

    enum State { STARTING, FOLLOWING, BEHIND, BROKER_UNREACHABLE, DOWN }

    static FollowerHealth starting() {
        return new FollowerHealth(State.STARTING, 0, "waiting for the topics' partitions");
    }

    static FollowerHealth down(String why) {
        return new FollowerHealth(State.DOWN, -1, why);
    }

    /** Asks the broker for the ends of the assigned partitions and compares them with the consumer's positions. */
    static FollowerHealth check(Consumer<?, ?> consumer) {
        Set<TopicPartition> assigned = consumer.assignment();
        try {
            Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, ASK_BROKER);
            long lag = 0;
            for (TopicPartition p : assigned) {
                lag += Math.max(0, ends.getOrDefault(p, 0L) - consumer.position(p, ASK_BROKER));
            }
            return lag > BEHIND_RECORDS
                    ? new FollowerHealth(State.BEHIND, lag, lag + " records not read yet")
                    : new FollowerHealth(State.FOLLOWING, lag, "following " + assigned.size() + " partitions");
        } catch (KafkaException e) {
            return new FollowerHealth(State.BROKER_UNREACHABLE, -1, "the broker did not answer within "
                    + ASK_BROKER.toSeconds() + " s: " + e.getClass().getSimpleName());
        }
    }

    /** True when answers reach the page as they commit. */
    boolean ok() {
        return state == State.FOLLOWING;
    }

    ObjectNode json() {
        ObjectNode out = EventJson.mapper().createObjectNode();
        out.put("state", state.name().toLowerCase()).put("lag", lag).put("detail", detail);
        return out;
    }
}
