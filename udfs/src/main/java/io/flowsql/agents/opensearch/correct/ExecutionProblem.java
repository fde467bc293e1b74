package io.flowsql.agents.opensearch.correct;

import io.flowsql.pipeline.Candidate;
import io.flowsql.sql.engine.DatabaseEngine;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Classifies what an executed candidate's result says is wrong with it: its recorded error (syntax, schema,
 * other failure), no rows, NULL in the shown rows, or a shape that does not fit the question. The shape
 * checks are deliberately narrow (a count question without a numeric column; a single-item superlative
 * question answered with several rows by a query that has no LIMIT) so a right answer is rarely sent back.
 */
public record ExecutionProblem(ErrorClass kind, String detail) {
    private static final Pattern COUNT_QUESTION = Pattern.compile("^\\s*(how many|what is the (total )?number of|count)\\b");
    private static final Pattern SINGLE_SUPERLATIVE = Pattern.compile(
            "\\bthe (oldest|youngest|highest|lowest|largest|smallest|most|least|longest|shortest|first|last|latest|earliest)\\b");
    private static final Pattern PLURAL_ASK = Pattern.compile("\\b(each|every|all|list|top \\d+|\\d+ (most|least))\\b");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    /**
     * The problem of an executed candidate, or empty when its result looks fine (or it has not run); an error is read in
     * the wording of {@code engine}, the engine it ran on.
     */
    public static Optional<ExecutionProblem> of(Candidate c, String question, DatabaseEngine engine) {
        return of(c, question, true, engine);
    }

    /**
     * As above; with {@code resultChecks} false only an error or no rows is a problem (OpenSearch-SQL's code corrects
     * on those only), so a right answer holding NULL or of an unusual shape is never sent back.
     */
    public static Optional<ExecutionProblem> of(Candidate c, String question, boolean resultChecks, DatabaseEngine engine) {
        if (!c.executed) {
            return Optional.empty();
        }
        if (c.error != null) {
            return Optional.of(new ExecutionProblem(errorClass(c.errorState, c.error, engine), "the query failed: " + c.error));
        }
        if (c.rowCount == 0) {
            return Optional.of(new ExecutionProblem(ErrorClass.EMPTY, "the query returned no rows"));
        }
        if (!resultChecks) {
            return Optional.empty();
        }
        for (List<String> row : c.previewRows()) {
            for (int col = 0; col < row.size(); col++) {
                if ("NULL".equals(row.get(col))) {
                    String name = col < c.previewColumns.size() ? c.previewColumns.get(col) : "#" + (col + 1);
                    return Optional.of(new ExecutionProblem(ErrorClass.NULLS, "the result contains NULL in column " + name));
                }
            }
        }
        return shape(c, question == null ? "" : question.toLowerCase(Locale.ROOT));
    }

    private static Optional<ExecutionProblem> shape(Candidate c, String question) {
        if (COUNT_QUESTION.matcher(question).find() && !c.preview.isEmpty()
                && c.preview.get(0).cells.stream().noneMatch(cell -> NUMBER.matcher(cell.strip()).matches())) {
            return Optional.of(new ExecutionProblem(ErrorClass.SHAPE,
                    "the question asks how many, but no column of the result is a number"));
        }
        boolean oneItem = SINGLE_SUPERLATIVE.matcher(question).find() && !PLURAL_ASK.matcher(question).find();
        if (oneItem && c.rowCount > 1 && !c.sql.toUpperCase(Locale.ROOT).contains("LIMIT")
                && !c.sql.toUpperCase(Locale.ROOT).contains("GROUP BY")) {
            return Optional.of(new ExecutionProblem(ErrorClass.SHAPE,
                    "the question asks for one item, but the query returned " + c.rowCount + " rows"));
        }
        return Optional.empty();
    }

    /**
     * The class of a recorded error ({@code KIND: message} and the engine's SQLState, null when it gave none) as the
     * engine's profile reads it, the state first, then the wording
     * ({@link io.flowsql.sql.engine.EngineProfile#fault(String, String)}): the statement's form is {@link ErrorClass#SYNTAX} (its prompt
     * carries the engine's rules), a name the schema lacks {@link ErrorClass#SCHEMA}, anything else
     * {@link ErrorClass#FAILED}.
     */
    static ErrorClass errorClass(String sqlState, String error, DatabaseEngine engine) {
        return switch (engine.profile().fault(sqlState, error)) {
            case FORM -> ErrorClass.SYNTAX;
            case UNKNOWN_COLUMN, UNKNOWN_NAME -> ErrorClass.SCHEMA;
            case OTHER -> ErrorClass.FAILED;
        };
    }
}
