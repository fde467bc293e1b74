package io.flowsql.benchmarks.eval.rqs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.LlmClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * MMSQL's response-quality score (RQS): an LLM judge scores a reply to a turn that owes no single SQL (unanswerable,
 * ambiguous, improper) from 0 to 10 on the paper's rubric (relevance, clarity, completeness, accuracy, utility, 2 points
 * each), with the database schema, the question, its gold type and the gold reply as reference. The prompt lives in
 * {@code prompts/eval/rqs.txt}; a reply that is not the asked JSON with a score in 0..10 is asked again, up to
 * {@link #ATTEMPTS} times, as the authors' script does (it tries 10 times), then counted as an error.
 */
public final class RqsJudge {
    public static final String STAGE = "eval.rqs";
    static final int ATTEMPTS = 3;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final LlmClient client;
    private final String model;
    private final String system;
    private final String user;
    private final long timeoutSeconds;

    /** What the judge said about one reply; {@code score} is -1 when it never answered in the asked form. */
    public record Judgement(String answerType, int score, String rationale) {
        public boolean ok() {
            return score >= 0;
        }
    }

    public RqsJudge(LlmClient client, String model, long timeoutSeconds) {
        this.client = client;
        this.model = model;
        this.timeoutSeconds = timeoutSeconds;
        String template = template();
        int split = template.indexOf("\n---\n");
        this.system = template.substring(0, split).strip();
        this.user = template.substring(split + 5).strip();
    }

    public Judgement judge(String database, String schema, String question, String goldType, String response, String reference) {
        String prompt = user.replace("{database}", database).replace("{schema}", schema).replace("{question}", question)
                .replace("{gold_type}", goldType).replace("{response}", response == null ? "" : response)
                .replace("{reference}", reference == null ? "" : reference);
        ChatRequest request = ChatRequest.of(STAGE, List.of(ChatMessage.system(system), ChatMessage.user(prompt)))
                .withModel(model).withSampling(0.0, 1);
        String last = "";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                last = client.chat(request).get(timeoutSeconds, TimeUnit.SECONDS).text();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Judgement("error", -1, "interrupted");
            } catch (Exception e) {
                Throwable cause = e instanceof CompletionException || e instanceof java.util.concurrent.ExecutionException
                        ? e.getCause() : e;
                last = "judge call failed: " + cause;
                continue;
            }
            Judgement parsed = parse(last);
            if (parsed != null) {
                return parsed;
            }
        }
        return new Judgement("error", -1, "no score in the judge's reply: " + last);
    }

    /** The JSON between the first '{' and the last '}' of the reply, with an integer Score in 0..10; null otherwise. */
    static Judgement parse(String reply) {
        int open = reply.indexOf('{');
        int close = reply.lastIndexOf('}');
        if (open < 0 || close <= open) {
            return null;
        }
        try {
            JsonNode json = MAPPER.readTree(reply.substring(open, close + 1).replace('\n', ' '));
            int score = Integer.parseInt(json.path("Score").asText("").strip());
            if (score < 0 || score > 10) {
                return null;
            }
            return new Judgement(json.path("AnswerType").asText(""), score, json.path("Rationale").asText(""));
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    private static String template() {
        try (InputStream in = RqsJudge.class.getResourceAsStream("/prompts/eval/rqs.txt")) {
            if (in == null) {
                throw new IllegalStateException("prompts/eval/rqs.txt is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
