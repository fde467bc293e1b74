package io.flowsql.benchmarks.soak;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The soak's model server on one loopback port: the simulated LLM or llama.cpp's own server. The llm-restart fault
 * stops it and starts it again on the same port.
 */
interface SoakModelServer extends AutoCloseable {
    /** What the fault lines call it. */
    String name();

    int port();

    void stop();

    void restart() throws IOException;

    /** The job options this server needs beside its address (model name, structured output, reply bounds). */
    Map<String, String> jobOptions();

    /** Its processes for the resource figures; none when it runs in this JVM. */
    List<ProcessFigures> processes();

    @Override
    void close();
}
