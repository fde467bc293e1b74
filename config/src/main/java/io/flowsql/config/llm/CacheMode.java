package io.flowsql.config.llm;

/** How the response cache is used: record and replay, replay only (a miss is an error), or not at all. */
public enum CacheMode {
    READ_WRITE,
    READ_ONLY,
    OFF
}
