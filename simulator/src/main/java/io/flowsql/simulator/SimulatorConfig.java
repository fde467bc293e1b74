package io.flowsql.simulator;

import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Everything that shapes the simulated server's behaviour, fixed at start so a run is repeatable. */
public final class SimulatorConfig {
    /** Default size of the modelled prefix cache, in tokens (about what one GPU's spare KV cache holds for a 7B model). */
    public static final int DEFAULT_PREFIX_CACHE_TOKENS = 1 << 20;
    private final int port;
    private final LatencyModel latency;
    private final int slots;
    private final Map<Fault, Double> faultRates;
    private final List<Fault> scriptedFaults;
    private final int retryAfterSeconds;
    private final long hangMillis;
    private final Dialect dialect;
    private final long seed;
    private final Map<String, Responder> responders;
    private final GoldSqlOracle oracle;
    private final SqlErrorInjector errorInjector;
    private final String requiredApiKey;
    private final boolean recordRequests;
    private final boolean freshDraws;
    private final int prefixCacheTokens;

    private SimulatorConfig(Builder b) {
        this.port = b.port;
        this.latency = b.latency;
        this.slots = b.slots;
        this.faultRates = Map.copyOf(b.faultRates);
        this.scriptedFaults = List.copyOf(b.scriptedFaults);
        this.retryAfterSeconds = b.retryAfterSeconds;
        this.hangMillis = b.hangMillis;
        this.dialect = b.dialect;
        this.seed = b.seed;
        this.responders = Map.copyOf(b.responders);
        this.oracle = b.oracle;
        this.errorInjector = b.errorInjector;
        this.requiredApiKey = b.requiredApiKey;
        this.recordRequests = b.recordRequests;
        this.freshDraws = b.freshDraws;
        this.prefixCacheTokens = b.prefixCacheTokens;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int port() { return port; }
    public LatencyModel latency() { return latency; }
    public int slots() { return slots; }
    public Map<Fault, Double> faultRates() { return faultRates; }
    public List<Fault> scriptedFaults() { return scriptedFaults; }
    public int retryAfterSeconds() { return retryAfterSeconds; }
    public long hangMillis() { return hangMillis; }
    public Dialect dialect() { return dialect; }
    public long seed() { return seed; }
    public Map<String, Responder> responders() { return responders; }
    public Optional<GoldSqlOracle> oracle() { return Optional.ofNullable(oracle); }
    public SqlErrorInjector errorInjector() { return errorInjector; }
    public Optional<String> requiredApiKey() { return Optional.ofNullable(requiredApiKey); }
    public boolean recordRequests() { return recordRequests; }
    public boolean freshDraws() { return freshDraws; }
    public int prefixCacheTokens() { return prefixCacheTokens; }

    /**
     * Builds a configuration; defaults: ephemeral port, zero latency, 64 slots, no faults, OpenAI dialect, a prefix
     * cache of {@value #DEFAULT_PREFIX_CACHE_TOKENS} tokens.
     */
    public static final class Builder {
        private int prefixCacheTokens = DEFAULT_PREFIX_CACHE_TOKENS;
        private int port;
        private LatencyModel latency = LatencyModel.ZERO;
        private int slots = 64;
        private final Map<Fault, Double> faultRates = new EnumMap<>(Fault.class);
        private final List<Fault> scriptedFaults = new ArrayList<>();
        private int retryAfterSeconds = 1;
        private long hangMillis = 60_000;
        private Dialect dialect = Dialect.OPENAI;
        private long seed = 42;
        private final Map<String, Responder> responders = new HashMap<>();
        private GoldSqlOracle oracle;
        private SqlErrorInjector errorInjector = SqlErrorInjector.none();
        private String requiredApiKey;
        private boolean recordRequests = true;
        private boolean freshDraws;

        private Builder() {}

        /** 0 picks a free port. The server always binds 127.0.0.1. */
        public Builder port(int value) { this.port = value; return this; }
        public Builder latency(LatencyModel value) { this.latency = Objects.requireNonNull(value); return this; }
        public Builder slots(int value) { this.slots = value; return this; }
        /** Probability per request of a fault; the rates together must not exceed 1. */
        public Builder faultRate(Fault fault, double rate) { this.faultRates.put(fault, rate); return this; }
        /** Faults given to the first requests, in order, before the rates apply (NONE for a normal answer). */
        public Builder scriptedFaults(Fault... faults) { this.scriptedFaults.addAll(List.of(faults)); return this; }
        public Builder retryAfterSeconds(int value) { this.retryAfterSeconds = value; return this; }
        /** How long a hanging request holds its connection before the server drops it. */
        public Builder hangMillis(long value) { this.hangMillis = value; return this; }
        public Builder dialect(Dialect value) { this.dialect = Objects.requireNonNull(value); return this; }
        public Builder seed(long value) { this.seed = value; return this; }
        /** Responders by task name (the first line of the system prompt, "### Task: name"). */
        public Builder responders(Map<String, Responder> value) { this.responders.putAll(value); return this; }
        public Builder responder(String task, Responder responder) { this.responders.put(task, responder); return this; }
        public Builder oracle(GoldSqlOracle value) { this.oracle = value; return this; }
        public Builder errorInjector(SqlErrorInjector value) { this.errorInjector = Objects.requireNonNull(value); return this; }
        /** When set, requests without "Authorization: Bearer key" get a 401. */
        public Builder requiredApiKey(String value) { this.requiredApiKey = value; return this; }
        /** Keep every request for tests (on by default; long benchmark runs turn it off). */
        public Builder recordRequests(boolean value) { this.recordRequests = value; return this; }
        /** Every SQL answer gets a new draw number ({@link FreshDraws}): asking the same prompt twice never gives the same SQL. */
        public Builder freshDraws(boolean value) { this.freshDraws = value; return this; }

        /** Tokens the modelled prefix cache holds (cached prompt tokens cost no prefill latency); 0 turns it off. */
        public Builder prefixCacheTokens(int value) { this.prefixCacheTokens = value; return this; }

        public SimulatorConfig build() {
            if (prefixCacheTokens < 0) {
                throw new IllegalArgumentException("prefixCacheTokens must be >= 0");
            }
            if (slots < 1) {
                throw new IllegalArgumentException("slots must be >= 1");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            new FaultPlan(faultRates, List.of(), seed);
            return new SimulatorConfig(this);
        }
    }
}
