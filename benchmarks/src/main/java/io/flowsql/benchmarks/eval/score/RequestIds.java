package io.flowsql.benchmarks.eval.score;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * The request and dialogue ids an evaluation run sends ({@code eval:<run id>:<benchmark>:<item id>}), so
 * answers can be matched back to their questions, a resumed run (same run id) knows what is done, and two
 * runs against one job (another preset, a re-run) never see each other's answers or dialogue history.
 */
public final class RequestIds {
    private static final String PREFIX = "eval:";
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final SecureRandom RANDOM = new SecureRandom();

    private RequestIds() {}

    public static String requestId(String runId, String benchmark, String itemId) {
        return PREFIX + checkRunId(runId) + ":" + benchmark + ":" + itemId;
    }

    public static String dialogueId(String runId, String benchmark, String dialogueId) {
        return PREFIX + checkRunId(runId) + ":" + benchmark + ":" + dialogueId;
    }

    /** A fresh run id: UTC time of the start plus 4 random hex digits, e.g. {@code 20261123-150102-3fa9}. */
    public static String newRunId() {
        return ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-" + String.format("%04x", RANDOM.nextInt(0x10000));
    }

    /** The run id if it can be used in ids (letters, digits, '.', '_', '-'; at most 64), else IllegalArgumentException. */
    public static String checkRunId(String runId) {
        if (runId == null || !RUN_ID.matcher(runId).matches()) {
            throw new IllegalArgumentException("run id '" + runId + "' must be 1-64 letters, digits, '.', '_' or '-'");
        }
        return runId;
    }

    /** The run id inside a request id made by {@link #requestId}, or null for any other id. */
    public static String runId(String requestId) {
        if (requestId == null || !requestId.startsWith(PREFIX)) {
            return null;
        }
        String rest = requestId.substring(PREFIX.length());
        int colon = rest.indexOf(':');
        // a run id is followed by the benchmark and the item: two more colons at least
        return colon > 0 && rest.indexOf(':', colon + 1) > colon ? rest.substring(0, colon) : null;
    }

    /** The item id inside a request id made by {@link #requestId}; any other id is returned unchanged. */
    public static String itemId(String requestId) {
        if (requestId == null) {
            return null;
        }
        int last = requestId.lastIndexOf(':');
        return requestId.startsWith(PREFIX) && last >= 0 ? requestId.substring(last + 1) : requestId;
    }
}
