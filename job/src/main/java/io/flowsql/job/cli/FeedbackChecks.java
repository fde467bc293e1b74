package io.flowsql.job.cli;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.FeedbackParse;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code feedback} refuses before it sends: a verdict on a request id with no answer on the answers topic, a
 * retraction of a feedback id the feedback topic does not hold, and a verdict that contradicts an earlier verdict on
 * the same answer that was not retracted (the user retracts the earlier one first, so which verdict stands is never a
 * race between two records).
 */
final class FeedbackChecks {
    private static final Duration SCAN_LIMIT = Duration.ofSeconds(30);

    private final String bootstrapServers;
    private final String feedbackTopic;
    private final String answersTopic;

    FeedbackChecks(String bootstrapServers, String feedbackTopic, String answersTopic) {
        this.bootstrapServers = bootstrapServers;
        this.feedbackTopic = feedbackTopic;
        this.answersTopic = answersTopic;
    }

    /** Why the event is not to be sent, or empty when it may be. */
    Optional<String> refusal(FeedbackEvent event) {
        if (FeedbackEvent.VERDICT.equals(event.kind)) {
            boolean[] answered = {false};
            if (!TopicScan.all(bootstrapServers, answersTopic, SCAN_LIMIT, r -> answered[0] |= answers(r.value(), event.requestId))) {
                return Optional.of("could not read the " + answersTopic + " topic to its end within " + SCAN_LIMIT.toSeconds() + " s");
            }
            if (!answered[0]) {
                return Optional.of("no answer with request_id " + event.requestId + " on the " + answersTopic + " topic");
            }
            return standing(event.requestId).entrySet().stream()
                    .filter(e -> !e.getValue().equals(event.verdict) && !e.getKey().equals(event.feedbackId))
                    .findFirst()
                    .map(e -> "answer " + event.requestId + " already has the verdict '" + e.getValue() + "' (feedback "
                            + e.getKey() + "); retract it first: feedback --retract " + e.getKey());
        }
        if (FeedbackEvent.RETRACTION.equals(event.kind)) {
            boolean[] known = {false};
            if (!TopicScan.all(bootstrapServers, feedbackTopic, SCAN_LIMIT, r -> {
                FeedbackEvent f = feedback(r.value());
                known[0] |= f != null && !FeedbackEvent.RETRACTION.equals(f.kind) && event.retracts.equals(f.feedbackId);
            })) {
                return Optional.of("could not read the " + feedbackTopic + " topic to its end within " + SCAN_LIMIT.toSeconds() + " s");
            }
            if (!known[0]) {
                return Optional.of("no feedback with id " + event.retracts + " on the " + feedbackTopic + " topic");
            }
        }
        return Optional.empty();
    }

    /** The verdicts on {@code requestId} that stand (feedback id → verdict), in the order sent, retracted ones removed. */
    private Map<String, String> standing(String requestId) {
        Map<String, String> verdicts = new LinkedHashMap<>();
        Set<String> retracted = new HashSet<>();
        TopicScan.all(bootstrapServers, feedbackTopic, SCAN_LIMIT, r -> {
            FeedbackEvent f = feedback(r.value());
            if (f == null) {
                return;
            }
            if (FeedbackEvent.RETRACTION.equals(f.kind)) {
                retracted.add(f.retracts);
            } else if (FeedbackEvent.VERDICT.equals(f.kind) && requestId.equals(f.requestId)) {
                verdicts.put(f.feedbackId, f.verdict);
            }
        });
        verdicts.keySet().removeAll(retracted);
        return verdicts;
    }

    private static boolean answers(byte[] value, String requestId) {
        try {
            AnswerEvent a = EventJson.parseAnswer(value);
            return requestId.equals(a.requestId);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return false;
        }
    }

    private static FeedbackEvent feedback(byte[] value) {
        FeedbackParse parsed = EventJson.parseFeedback(value);
        return parsed.isValid() ? parsed.feedback() : null;
    }
}
