package io.flowsql.job.cli;

import java.util.HashSet;
import java.util.Set;

/**
 * Which answers {@code watch} prints and when it is done: every answer (no end), the first {@code count}, or exactly
 * one answer per request id of a given set (others are skipped however they interleave, and a second answer to an id
 * already shown is skipped too).
 */
final class AnswerSelection {
    private final Set<String> wanted;
    private final Set<String> shownIds = new HashSet<>();
    private final int target;
    private int shown;

    private AnswerSelection(Set<String> wanted, int target) {
        this.wanted = wanted;
        this.target = target;
    }

    /** Every answer; with {@code count > 0}, the first {@code count}. */
    static AnswerSelection firstOf(int count) {
        return new AnswerSelection(null, Math.max(0, count));
    }

    /** One answer per id in {@code ids} (blank ids ignored); done when each has one. */
    static AnswerSelection ofIds(Set<String> ids) {
        Set<String> wanted = new HashSet<>();
        ids.stream().map(String::strip).filter(s -> !s.isEmpty()).forEach(wanted::add);
        return new AnswerSelection(wanted, wanted.size());
    }

    /** True (and counted) when the answer to {@code requestId} is to be shown; false once done. */
    boolean take(String requestId) {
        if (done()) {
            return false;
        }
        if (wanted != null && (!wanted.contains(requestId) || !shownIds.add(requestId))) {
            return false;
        }
        shown++;
        return true;
    }

    /** True once the count or every id is reached; never for an unbounded watch. */
    boolean done() {
        return bounded() && shown >= target;
    }

    /** True when the watch has an end (a count or ids); only then is a timeout a failure. */
    boolean bounded() {
        return target > 0 || wanted != null;
    }

    int shown() {
        return shown;
    }

    /** "3 of 5 answers" when bounded, else "3 answers". */
    String progress() {
        String answers = shown + " answer" + (shown == 1 && !bounded() ? "" : "s");
        return bounded() ? shown + " of " + target + " answers" : answers;
    }
}
