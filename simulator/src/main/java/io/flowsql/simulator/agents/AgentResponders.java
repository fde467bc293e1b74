package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import java.util.Map;

/** The registry of per-agent responders by stage name: the simulator answers each agent stage in that agent's own format. */
public final class AgentResponders {
    private AgentResponders() {}

    /** Every agent responder, keyed by the stage name on the first line of its system prompt. */
    public static Map<String, Responder> all() {
        return Map.ofEntries(
                // MAG-SQL and OpenSearch-SQL
                Map.entry("magsql.link.summarize", new MagSqlSummarizeResponder()),
                Map.entry("magsql.link", new MagSqlLinkResponder()),
                Map.entry("magsql.decompose", new MagSqlDecomposeResponder()),
                Map.entry("magsql.generate.first", new OriginalQuestionSqlResponder()),
                Map.entry("magsql.generate.next", new OriginalQuestionSqlResponder()),
                Map.entry("magsql.generate.refine", new OriginalQuestionSqlResponder()),
                Map.entry("magsql.generate.refine.nested", new OriginalQuestionSqlResponder()),
                Map.entry("opensearch.extract", new OpenSearchExtractResponder()),
                Map.entry("opensearch.extract.order", new OpenSearchOrderResponder()),
                Map.entry("opensearch.generate", new OpenSearchGenerateResponder()),
                Map.entry("opensearch.adherence", new OpenSearchGenerateResponder()),
                Map.entry("opensearch.align.style", new OpenSearchAlignResponder()),
                Map.entry("opensearch.align.function", new OpenSearchAlignResponder()),
                Map.entry("opensearch.align.agent", new OpenSearchAlignResponder()),
                Map.entry("opensearch.correct.syntax", new OriginalQuestionSqlResponder()),
                Map.entry("opensearch.correct.schema", new OriginalQuestionSqlResponder()),
                Map.entry("opensearch.correct.failed", new OriginalQuestionSqlResponder()),
                Map.entry("opensearch.correct.empty", new OriginalQuestionSqlResponder()),
                Map.entry("opensearch.correct.nulls", new OriginalQuestionSqlResponder()),
                Map.entry("opensearch.correct.shape", new OriginalQuestionSqlResponder()),
                // SQLFixAgent and MMSQL
                Map.entry("sqlfix.review", new SqlFixReviewResponder()),
                Map.entry("sqlfix.craft.paraphrase", new SqlFixParaphraseResponder()),
                Map.entry("sqlfix.craft.generate", new OriginalQuestionSqlResponder()),
                Map.entry("sqlfix.refine", new SqlFixRefineResponder()),
                Map.entry("mmsql.rewrite", new MmsqlRewriteResponder()),
                Map.entry("mmsql.select", new MmsqlSelectResponder()),
                Map.entry("mmsql.detect", new MmsqlDetectResponder()),
                Map.entry("mmsql.decompose", new MmsqlDecomposeResponder()),
                Map.entry("mmsql.refine.generate", new OriginalQuestionSqlResponder()),
                Map.entry("mmsql.readings", new OriginalQuestionSqlResponder()),
                // the plain-language answer
                Map.entry("answer.summarize", new AnswerSummarizeResponder()),
                // evaluation: MMSQL's RQS judge
                Map.entry("eval.rqs", new EvalRqsResponder()),
                // evaluation: the reasoning of the few-shot library's examples (eval.sh fewshot-library --reasoning-simulated)
                Map.entry("eval.fewshot.reasoning", new FewShotReasoningResponder()));
    }
}
