package io.flowsql.agents.sqlfix;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ExecutionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * SQLFixAgent's SQLReviewer (Cen et al., §3.1): a failed or empty execution flags the SQL at once
 * (syntax check); otherwise the model explains the SQL clause by clause against the question, evidence
 * and schema, rubber-duck style, and gives a verdict (semantic check).
 */
public final class SqlReviewer {
    /** How a reason for an SQL that did not run starts. */
    public static final String FAILED_PREFIX = "the SQL failed: ";
    private final AgentCall call;
    private final PromptPair prompt;

    public SqlReviewer(AgentCall call) {
        this.call = call;
        this.prompt = PromptPair.load("sqlfix/review");
    }

    public CompletableFuture<ReviewVerdict> review(PromptFields frame, String sql, ExecutionResult outcome,
                                                   StageTrace trace) {
        if (!outcome.ok()) {
            return CompletableFuture.completedFuture(
                    ReviewVerdict.flaggedByExecution(FAILED_PREFIX + outcome.error()));
        }
        if (outcome.isEmpty()) {
            return CompletableFuture.completedFuture(ReviewVerdict.flaggedByExecution("the SQL returned no rows"));
        }
        PromptFields vars = frame
                .with("sql", sql)
                .with("execution", ExecutionSummary.of(outcome));
        ChatRequest request = prompt.request(vars);
        return call.ask(request, SqlReviewer::parse, trace);
    }

    /** Reads the reviewer's JSON; a verdict other than correct/flagged, or a flag without a reason, is unreadable. */
    static Optional<ReviewVerdict> parse(String text) {
        Optional<JsonNode> json = ModelOutput.json(text).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JsonNode node = json.get();
        String verdict = node.path("verdict").asText("").strip().toLowerCase(Locale.ROOT);
        List<String> reasons = new ArrayList<>();
        node.path("reasons").forEach(r -> {
            if (!r.asText("").isBlank()) {
                reasons.add(r.asText().strip());
            }
        });
        String explanation = explanation(node.path("explanation"));
        return switch (verdict) {
            case "correct" -> Optional.of(ReviewVerdict.correct(explanation));
            case "flagged" -> reasons.isEmpty() ? Optional.empty()
                    : Optional.of(new ReviewVerdict(true, reasons, explanation, false));
            default -> Optional.empty();
        };
    }

    private static String explanation(JsonNode steps) {
        StringBuilder out = new StringBuilder();
        steps.forEach(step -> out.append(step.path("clause").asText("")).append(": ")
                .append(step.path("meaning").asText("")).append(step.path("consistent").asBoolean(true) ? "" : " (!)")
                .append('\n'));
        return out.toString().strip();
    }
}
