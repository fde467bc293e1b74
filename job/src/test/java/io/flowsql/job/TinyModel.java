package io.flowsql.job;

import static org.junit.jupiter.api.Assertions.fail;

import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.devstack.llama.TinyGguf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * What the tests against llama.cpp's server share: the binary (built by deploy/llama-server-build.sh; a
 * missing one skips the tests with a message, or fails them where FLOWSQL_REQUIRE_LLAMA_SERVER=1, as in CI)
 * and the tiny random-weight model, written once per build under target/ from the project's prompts.
 */
final class TinyModel {
    private TinyModel() {}

    /** The llama-server binary; skips (or, in CI, fails) the calling test when it is not built. */
    static Path binary() {
        return LlamaServer.findBinary().orElseGet(() -> {
            String message = "llama-server is not built: run deploy/llama-server-build.sh (about 5 minutes on 2 cores, "
                    + "cached in ~/.cache/flowsql) or set LLAMA_SERVER; .ci/run builds it";
            if (LlamaServer.required()) {
                fail(message + " (" + LlamaServer.REQUIRED_ENV + " is set, so this is a failure)");
            }
            Assumptions.abort(message);
            return null;
        });
    }

    /** The tiny model, written on first use (per build: it lives under target/), and its server arguments. */
    static synchronized TinyGguf.Model model() {
        try {
            return TinyGguf.forPrompts(Path.of(System.getProperty("flowsql.project.dir"), "job/target/llama/flowsql-tiny.gguf"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the tiny model", e);
        }
    }

    /** Starts llama-server on the tiny model; the log goes under target/llama/. */
    static LlamaServer start(String name, String... args) throws IOException {
        Path log = Path.of(System.getProperty("flowsql.project.dir"), "job/target/llama/" + name + ".log");
        TinyGguf.Model model = model();
        List<String> all = new ArrayList<>(model.serverArgs());
        all.addAll(List.of(args));
        return LlamaServer.start(binary(), model.file(), log, all);
    }
}
