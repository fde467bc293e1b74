package io.flowsql.simulator;

/** The failures a real inference endpoint shows, injected so that the client's handling is tested. */
public enum Fault {
    NONE,
    /** 429 with a Retry-After header in seconds. */
    RATE_LIMITED,
    /** 500. */
    SERVER_ERROR,
    /** 503. */
    UNAVAILABLE,
    /** No answer until the client gives up (or the configured hang time passes). */
    HANG,
    /** 200 with a body that is not valid JSON. */
    MALFORMED_JSON,
    /** 200 with content cut short and finish_reason "length". */
    TRUNCATED_CONTENT,
    /** 200 with an empty choices list. */
    EMPTY_CHOICES
}
