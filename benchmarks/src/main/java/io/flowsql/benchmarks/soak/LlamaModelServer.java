package io.flowsql.benchmarks.soak;

import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.devstack.llama.TinyGguf;
import io.flowsql.job.JobOptions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * llama.cpp's own server (deploy/llama-server-build.sh) on the project's tiny random-weight model, as the soak's model
 * server: a real third-party server killed (SIGKILL) and started again by the llm-restart fault. The tiny model writes
 * noise, so its answers mostly fail; what the soak checks with it is that none is lost or doubled across its restarts.
 */
final class LlamaModelServer implements SoakModelServer {
    /** Server slots: the job sends at most this many calls at once ({@code llm.server-slots}). */
    static final int SLOTS = 4;
    /** Tokens of context per slot ({@code llm.context-tokens}); the server gets SLOTS times this. */
    static final int CONTEXT_TOKENS = 4096;

    private final LlamaServer server;

    private LlamaModelServer(LlamaServer server) {
        this.server = server;
    }

    /** Starts the server; the model and its log go under {@code folder}. Fails with a clear message without a binary. */
    static LlamaModelServer start(Path folder) throws IOException {
        Path binary = LlamaServer.findBinary().orElseThrow(() -> new IllegalStateException(
                "--llm llama-server, but llama-server is not built: run deploy/llama-server-build.sh (about 5 minutes"
                        + " on 2 cores, cached in ~/.cache/flowsql) or set LLAMA_SERVER"));
        TinyGguf.Model model = TinyGguf.forPrompts(folder.resolve("flowsql-tiny.gguf"));
        List<String> args = new ArrayList<>(model.serverArgs());
        args.addAll(List.of("-c", String.valueOf(SLOTS * CONTEXT_TOKENS), "--parallel", String.valueOf(SLOTS)));
        Path log = folder.resolve("llama-server.log");
        System.out.println("soak: llama-server " + binary + " on the tiny model, log " + log);
        return new LlamaModelServer(LlamaServer.start(binary, model.file(), log, args));
    }

    @Override
    public String name() {
        return "llama-server";
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public void stop() {
        server.stop();
    }

    @Override
    public void restart() throws IOException {
        server.start();
    }

    @Override
    public Map<String, String> jobOptions() {
        return Map.of(
                JobOptions.LLM_MODEL.key(), "tiny-random",
                JobOptions.LLM_STRUCTURED_OUTPUT.key(), "json-schema",
                JobOptions.LLM_REPLY_OVERLAY.key(), TinyGguf.replyOverlay(),
                JobOptions.LLM_CONTEXT_TOKENS.key(), String.valueOf(CONTEXT_TOKENS),
                JobOptions.LLM_SERVER_SLOTS.key(), String.valueOf(SLOTS));
    }

    @Override
    public List<ProcessFigures> processes() {
        return server.pid().stream().mapToObj(pid -> ProcessFigures.ofProcess("llama-server", pid)).toList();
    }

    @Override
    public void close() {
        server.close();
    }
}
