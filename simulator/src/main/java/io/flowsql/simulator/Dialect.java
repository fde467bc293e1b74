package io.flowsql.simulator;

/**
 * The wire quirks of the OpenAI-compatible servers FlowSQL is deployed against, so the client is
 * tested on each: whether a server reports {@code usage}, serves {@code n} choices and honours
 * {@code response_format}. The combinations are chosen to exercise the client, as the servers have
 * differed across versions.
 */
public enum Dialect {
    /** OpenAI: usage reported, n served, JSON mode honoured. */
    OPENAI(true, true, true),
    /** vLLM's OpenAI server: usage reported, n served, guided JSON honoured. */
    VLLM(true, true, true),
    /** Ollama's /v1 layer: usage reported, n ignored (one choice), response_format ignored. */
    OLLAMA(true, false, false),
    /**
     * llama.cpp server as older builds behaved: no usage object, n ignored (one choice), response_format honoured.
     * Current llama.cpp sends usage and serves n up to --parallel (HTTP 400 above): the tests against the real
     * server (LlamaServerProtocolITCase) cover that.
     */
    LLAMA_CPP(false, false, true);

    /** llama.cpp's server reports its own {@code timings} (cache_n, prompt_n, predicted_n) instead of usage. */
    public boolean reportsTimings() {
        return this == LLAMA_CPP;
    }

    private final boolean reportsUsage;
    private final boolean servesN;
    private final boolean honoursResponseFormat;

    Dialect(boolean reportsUsage, boolean servesN, boolean honoursResponseFormat) {
        this.reportsUsage = reportsUsage;
        this.servesN = servesN;
        this.honoursResponseFormat = honoursResponseFormat;
    }

    public boolean reportsUsage() {
        return reportsUsage;
    }

    public boolean servesN() {
        return servesN;
    }

    public boolean honoursResponseFormat() {
        return honoursResponseFormat;
    }
}
