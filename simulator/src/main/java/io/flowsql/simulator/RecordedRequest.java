package io.flowsql.simulator;

/** A request the server received, when it arrived (System.nanoTime) and which fault it was given. */
public record RecordedRequest(long receivedAtNanos, SimulatedRequest request, Fault fault, String authorization) {}
