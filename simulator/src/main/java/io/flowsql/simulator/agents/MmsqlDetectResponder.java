package io.flowsql.simulator.agents;

import io.flowsql.simulator.Responder;
import io.flowsql.simulator.SimulatedRequest;
import io.flowsql.simulator.SimulationContext;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Simulates MMSQL's question detector: a turn a typed dialogue file (CoSQL) labels gets that label; other turns
 * get rules a reader can predict: pleasantries are improper, questions the oracle has gold SQL for are
 * answerable, questions that name something in the schema are answerable unless they use a vague word
 * ("best", "popular", "top"...), which makes them ambiguous (two readings: distinct items or all rows), the rest
 * unanswerable. Answers in the detector's JSON (the paper's answerable / type / answer / rewrite).
 */
public final class MmsqlDetectResponder implements Responder {
    private static final Pattern PLEASANTRY = Pattern.compile(
            "(?i)^\\W*(thanks?( you)?( so much| very much)?|thank you|ok(ay)?|great|cool|perfect|bye|goodbye|hello|hi"
                    + "|that'?s (all|it|great)|awesome|nice)\\b[^?]*$");
    private static final Pattern VAGUE = Pattern.compile(
            "(?i)\\b(best|popular|top|good|recent|famous|important|big|large|small|old|young)\\b");
    private static final Set<String> STOPWORDS = Set.of("the", "a", "an", "of", "in", "on", "for", "and", "or", "is",
            "are", "what", "which", "who", "how", "many", "much", "show", "list", "me", "all", "this", "that", "these",
            "those", "table", "tables", "can", "you", "tell", "give", "do", "does", "there", "their", "its", "it",
            "with", "to", "by", "from", "each", "please", "number", "total", "name", "names", "id", "ids");

    @Override
    public Optional<List<String>> respond(SimulatedRequest request, SimulationContext context) {
        Optional<String> question = request.field("Question");
        if (question.isEmpty()) {
            return Optional.empty();
        }
        String q = question.get();
        String db = request.field("Database").orElse("");
        String schema = PromptText.schema(request.lastUserMessage()).toLowerCase(Locale.ROOT);
        String type = context.oracle().flatMap(o -> o.questionType(db, q))
                .orElseGet(() -> guessedType(q, db, schema, context));
        String json = switch (type) {
            case "improper" -> detection("improper", "a remark, not a question about the data", "You are welcome! Goodbye.", List.of());
            case "answerable" -> detection("answerable", "the schema holds what it asks", "", List.of());
            case "ambiguous" -> {
                String base = q.strip().replaceAll("[?.!\\s]+$", "");
                yield detection("ambiguous", "it can be counted over distinct items or over all rows",
                        "Do you mean distinct items only, or every row?",
                        List.of(base + ", counting each distinct item once?", base + ", counting every row?"));
            }
            default -> detection("unanswerable", "the schema does not hold it",
                    "Sorry, I cannot answer this question from this database.", List.of());
        };
        return Optional.of(List.of("```json\n" + json + "\n```"));
    }

    /** The rules for turns the oracle has no type for. */
    private static String guessedType(String q, String db, String schema, SimulationContext context) {
        if (PLEASANTRY.matcher(q.strip()).matches()) {
            return "improper";
        }
        if (context.oracle().flatMap(o -> o.goldSql(db, q)).isPresent()) {
            return "answerable";
        }
        if (!namesSchema(q, schema)) {
            return "unanswerable";
        }
        return VAGUE.matcher(q).find() ? "ambiguous" : "answerable";
    }

    private static boolean namesSchema(String question, String schema) {
        return Arrays.stream(question.toLowerCase(Locale.ROOT).split("[^a-z0-9_]+"))
                .filter(w -> w.length() > 2 && !STOPWORDS.contains(w))
                .map(PromptText::singular)
                .anyMatch(schema::contains);
    }

    /** The paper's reply after a short chain of thought (no column matches: the simulator does not reason). */
    private static String detection(String type, String reason, String response, List<String> readings) {
        boolean answerable = type.equals("answerable");
        return "{\"improper\": " + PromptText.quote(type.equals("improper") ? reason : "not improper")
                + ", \"unanswerable\": " + PromptText.quote(type.equals("unanswerable") ? reason : "not unanswerable")
                + ", \"entities\": [], \"conditions\": [], \"answerable\": \"" + (answerable ? "yes" : "no")
                + "\", \"type\": \"" + type + "\", \"answer\": " + PromptText.quote(response) + ", \"rewrite\": ["
                + readings.stream().map(PromptText::quote).collect(Collectors.joining(", ")) + "]}";
    }
}
