package io.flowsql.sql.render;

/** A schema as prompt text, with its size in cl100k_base tokens so strategies can budget prompts. */
public record RenderedSchema(String text, int tokens) {}
