package io.flowsql.flink;

import java.io.Serializable;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The answers committed before a job started without state, as the request-id check needs them: for the dialogue keys
 * one subtask owns, the keys {@link #key(String, String)} of (dialogue key, request id). Read once, when that subtask
 * opens, so that a question an earlier run answered (its job stopped after the answers' commit but before its consumer
 * offsets') is known before the first question is read again. Bounded by its implementation.
 */
@FunctionalInterface
public interface EarlierAnswers extends Serializable {
    /** The answered (dialogue key, request id) pairs whose dialogue key {@code owned} accepts. */
    Set<String> load(Predicate<String> owned) throws Exception;

    /** One answered request in the set {@link #load} returns. */
    static String key(String dialogueKey, String requestId) {
        return dialogueKey + '\u0000' + requestId;
    }
}
