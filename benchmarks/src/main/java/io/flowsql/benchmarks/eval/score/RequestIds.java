package io.flowsql.benchmarks.eval.score;

/**
 * The request and dialogue ids an evaluation run sends ({@code eval:<benchmark>:<item id>}), so answers
 * can be matched back to their questions and a resumed run knows what is done.
 */
public final class RequestIds {
    private static final String PREFIX = "eval:";

    private RequestIds() {}

    public static String requestId(String benchmark, String itemId) {
        return PREFIX + benchmark + ":" + itemId;
    }

    public static String dialogueId(String benchmark, String dialogueId) {
        return PREFIX + benchmark + ":" + dialogueId;
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
