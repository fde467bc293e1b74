package io.flowsql.simulator;

/** One chat message as the simulated server received it. */
public record SimulatedMessage(String role, String content) {}
