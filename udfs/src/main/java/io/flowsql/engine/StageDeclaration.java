package io.flowsql.engine;

import io.flowsql.llm.RequestParameters;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageKind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One stage as the registry declares it: its name (also its operator uid, metric scope, trace entry and ablation
 * flag), its kind (where the job places it), the prompt pairs it asks the model with ({@code prompts/<base>.system.txt},
 * {@code .user.txt} and the reply schema {@code .reply.json}), the presets it belongs to besides {@code full}, and how
 * it is built from the engine's parts; {@code sends}: the sampling its model calls are sent with, by task name (the
 * stage's name or a request stage under it, such as {@code opensearch.correct}; the longest prefix applies), as the
 * paper's authors send it (docs/AGENTS.md "Request parameters"; {@code llm.stage.<stage>.temperature} overrides).
 */
public record StageDeclaration(String name, StageKind kind, List<String> prompts, Set<String> presets,
                               Function<StageParts, Stage> factory, Map<String, RequestParameters> sends) {

    public StageDeclaration {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        prompts = List.copyOf(prompts);
        presets = Set.copyOf(presets);
        Objects.requireNonNull(factory, "factory");
        sends = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sends));
        for (String task : sends.keySet()) {
            if (!task.equals(name) && !task.startsWith(name + ".")) {
                throw new IllegalArgumentException("stage " + name + " declares parameters of another stage's task " + task);
            }
        }
    }

    public StageDeclaration(String name, StageKind kind, List<String> prompts, Set<String> presets,
                            Function<StageParts, Stage> factory) {
        this(name, kind, prompts, presets, factory, Map.of());
    }

    static StageDeclaration of(String name, StageKind kind, Function<StageParts, Stage> factory) {
        return new StageDeclaration(name, kind, List.of(), Set.of(), factory);
    }

    /** The same stage asking the model with these prompt pairs (bases such as {@code opensearch/generate}). */
    StageDeclaration prompts(String... bases) {
        return new StageDeclaration(name, kind, List.of(bases), presets, factory, sends);
    }

    /** The same stage as a member of these presets (every stage is a member of {@code full}). */
    StageDeclaration in(String... presetNames) {
        return new StageDeclaration(name, kind, prompts, Set.of(presetNames), factory, sends);
    }

    /** The same stage sending every model call at this temperature (no top_p). */
    StageDeclaration sends(double temperature) {
        return sends(name, temperature, null);
    }

    /** The same stage sending the calls of {@code task} (this stage's name or a task under it) with these values. */
    StageDeclaration sends(String task, double temperature, Double topP) {
        Map<String, RequestParameters> more = new LinkedHashMap<>(sends);
        more.put(task, new RequestParameters(temperature, topP));
        return new StageDeclaration(name, kind, prompts, presets, factory, more);
    }

    /** Whether preset {@code preset} runs this stage ({@code full} runs every stage). */
    public boolean belongsTo(String preset) {
        return StageRegistry.FULL.equals(preset) || presets.contains(preset);
    }

    /** The operator uid of this stage in the job's graph of {@code preset} (see docs/ARCHITECTURE.md#uids). */
    public String uid(String preset) {
        // full keeps the uids of the releases that had one chain for every preset, so their savepoints restore
        return StageRegistry.FULL.equals(preset) ? "stage-" + name : preset + "/stage-" + name;
    }
}
