package io.flowsql.agents.common;

import io.flowsql.llm.ByStage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.RequestParameters;
import java.util.Map;

/**
 * The temperature and top_p every model call is sent with, so no call falls back to a server's default (1.0 on
 * OpenAI): configuration's value for the request's stage ({@code llm.stage.<stage>.temperature}, {@code .top-p}),
 * else what the agent set itself (a schedule such as OpenSearch-SQL's correction, 0.2 + round/5), else the stage
 * registry's declaration (exact task name or longest prefix), else temperature {@value #FALLBACK_TEMPERATURE}.
 */
public final class StageSampling {
    /** The temperature of a request no layer sets: greedy, the most repeatable choice. */
    public static final double FALLBACK_TEMPERATURE = 0.0;
    private static final StageSampling NONE = new StageSampling(Map.of(), Map.of());

    private final Map<String, RequestParameters> declared;
    private final Map<String, RequestParameters> configured;

    private StageSampling(Map<String, RequestParameters> declared, Map<String, RequestParameters> configured) {
        this.declared = Map.copyOf(declared);
        this.configured = Map.copyOf(configured);
    }

    /** Nothing declared nor configured: the agent's own values, else the fallback temperature. */
    public static StageSampling none() {
        return NONE;
    }

    public static StageSampling of(Map<String, RequestParameters> declared, Map<String, RequestParameters> configured) {
        return new StageSampling(declared, configured == null ? Map.of() : configured);
    }

    /** The request with its temperature (never null) and top_p as the layers above decide. */
    public ChatRequest apply(ChatRequest request) {
        RequestParameters fromConfig = ByStage.lookup(configured, request.stage());
        RequestParameters fromDeclaration = ByStage.lookup(declared, request.stage());
        Double temperature = first(fromConfig == null ? null : fromConfig.temperature(), request.temperature(),
                fromDeclaration == null ? null : fromDeclaration.temperature());
        Double topP = first(fromConfig == null ? null : fromConfig.topP(), request.topP(),
                fromDeclaration == null ? null : fromDeclaration.topP());
        return request.withSampling(temperature == null ? FALLBACK_TEMPERATURE : temperature, request.n())
                .withTopP(topP);
    }

    private static Double first(Double a, Double b, Double c) {
        return a != null ? a : b != null ? b : c;
    }
}
