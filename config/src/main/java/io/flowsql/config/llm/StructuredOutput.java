package io.flowsql.config.llm;

import java.util.Locale;

/**
 * How a request's reply schema (io.flowsql.llm.ReplySchema) reaches the server. {@link #AUTO} sends {@code json_schema} and
 * falls back to plain text for the rest of the client's life when the server refuses it (HTTP 400
 * naming response_format, json_schema or grammar).
 */
public enum StructuredOutput {
    /** json_schema, plain text after a refusal. */
    AUTO,
    /** {@code response_format: {type: json_schema, json_schema: {name, schema, strict}}} (vLLM, llama.cpp, OpenAI). */
    JSON_SCHEMA,
    /** A GBNF {@code grammar} field made from the schema (llama.cpp and servers of its family). */
    GRAMMAR,
    /** {@code response_format: {type: json_object}}: any JSON object (Ollama, older servers). */
    JSON_OBJECT,
    /** Nothing: the prompt's text format only. */
    NONE;

    public static StructuredOutput parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("llm.structured-output must be one of auto, json-schema, grammar, "
                    + "json-object, none; got: " + text);
        }
    }
}
