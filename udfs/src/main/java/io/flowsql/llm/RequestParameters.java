package io.flowsql.llm;

import java.io.Serializable;

/**
 * The sampling a stage's requests are sent with (temperature, and top_p where the paper's authors set one), as the
 * stage registry declares it and configuration ({@code llm.stage.<stage>.temperature}, {@code .top-p}) overrides it;
 * a null field is not set by this layer.
 */
public record RequestParameters(Double temperature, Double topP) implements Serializable {

    public RequestParameters {
        if (temperature != null && (temperature < 0 || temperature > 2)) {
            throw new IllegalArgumentException("temperature must be between 0 and 2, got " + temperature);
        }
        if (topP != null && (topP <= 0 || topP > 1)) {
            throw new IllegalArgumentException("top_p must be in (0, 1], got " + topP);
        }
    }

    public static RequestParameters temperature(double temperature) {
        return new RequestParameters(temperature, null);
    }

    /** These parameters where set, else {@code under}'s. */
    public RequestParameters over(RequestParameters under) {
        if (under == null) {
            return this;
        }
        return new RequestParameters(temperature != null ? temperature : under.temperature,
                topP != null ? topP : under.topP);
    }
}
