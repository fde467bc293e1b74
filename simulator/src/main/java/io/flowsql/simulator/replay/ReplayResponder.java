package io.flowsql.simulator.replay;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import io.flowsql.simulator.agents.OpenSearchGenerateResponder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers a SQL-generation stage with real model output from a {@link PredictionReplay}: choice k of a request
 * is sample k of its question, written in the stage's own answer format. A question the replay does not know
 * goes to the stage's usual responder.
 */
public final class ReplayResponder implements Responder {
    private final PredictionReplay replay;
    private final Function<String, String> format;
    private final Responder otherwise;

    ReplayResponder(PredictionReplay replay, Function<String, String> format, Responder otherwise) {
        this.replay = replay;
        this.format = format;
        this.otherwise = otherwise;
    }

    /**
     * The responders to lay over the usual ones: {@code opensearch.generate} answers n samples in the
     * progressive format, the single-query generators (MAG-SQL's steps, SQLFixAgent's crafter, MMSQL's
     * readings) answer sample 0 as reasoning plus a fenced query.
     */
    public static Map<String, Responder> over(Map<String, Responder> usual, PredictionReplay replay) {
        Map<String, Responder> out = new java.util.HashMap<>(usual);
        out.put("opensearch.generate", new ReplayResponder(replay, OpenSearchGenerateResponder::progressive,
                usual.get("opensearch.generate")));
        for (String single : List.of("magsql.generate.first", "magsql.generate.next", "sqlfix.craft.generate",
                "mmsql.readings", "mmsql.refine.generate")) {
            out.put(single, new ReplayResponder(replay,
                    sql -> "#reason: the query the replayed system wrote.\n```sql\n" + sql + "\n```", usual.get(single)));
        }
        return Map.copyOf(out);
    }

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        String db = request.field("Database").orElse("");
        String question = request.field("Original question").orElse(request.field("Question").orElse(""));
        if (replay.indexOf(db, question).isEmpty()) {
            return otherwise == null ? Optional.empty() : otherwise.respond(request, context);
        }
        List<String> choices = new ArrayList<>();
        for (int k = 0; k < Math.max(1, request.n()); k++) {
            // An empty entry (the system gave no SQL) is answered as prose, which the agent cannot read: a lost sample.
            choices.add(replay.sample(db, question, k).map(format).orElse("I cannot write this query."));
        }
        return Optional.of(choices);
    }
}
