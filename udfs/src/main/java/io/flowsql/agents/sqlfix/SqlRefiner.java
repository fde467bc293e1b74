package io.flowsql.agents.sqlfix;

import io.flowsql.agents.common.SqlOneLine;
import io.flowsql.access.DataDoor;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.llm.ChatRequest;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ExecutionResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * SQLFixAgent's SQLRefiner (Cen et al., §3.3): chooses among the crafted candidates or repairs the SQL,
 * shown the request's failed attempts and similar past repairs; each answer is executed (through the safe
 * executor) and a failing one becomes a failed attempt for the next round, up to a set number of attempts.
 * A successful repair is remembered for later requests.
 */
public final class SqlRefiner {
    /** The source of the refiner's own attempts in the failure memory: this prefix and the attempt's number. */
    public static final String ATTEMPT_SOURCE = "sqlfix.refine#";

    private static final List<String> TAGS = List.of("choice", "wrong");
    private static final int SIMILAR_REPAIRS = 3;

    private final AgentCall call;
    private final StageSql database;
    private final int maxAttempts;
    private final PromptPair prompt;
    private final boolean seedsOfOtherDatabasesOnly;
    private final AttemptCrafting perAttempt;

    /**
     * @param database the stage's SQL and, through each question's door, the repair memory its room holds (none held:
     *                 only a request's live repairs are shown and nothing is remembered)
     */
    public SqlRefiner(AgentCall call, StageSql database, int maxAttempts) {
        this(call, database, maxAttempts, false);
    }

    /**
     * @param seedsOfOtherDatabasesOnly the memory's seeded repairs of the question's own database are never shown (seeds
     *                                  built from an evaluation set's predictions hold its gold SQL)
     */
    public SqlRefiner(AgentCall call, StageSql database, int maxAttempts, boolean seedsOfOtherDatabasesOnly) {
        this(call, database, maxAttempts, seedsOfOtherDatabasesOnly, null);
    }

    /**
     * @param perAttempt fresh paraphrases and their SQL before every attempt after the first (the paper); null: the
     *                   first round's candidates only, for every attempt
     */
    public SqlRefiner(AgentCall call, StageSql database, int maxAttempts, boolean seedsOfOtherDatabasesOnly,
                      AttemptCrafting perAttempt) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("the refiner needs at least one attempt, got " + maxAttempts);
        }
        this.call = call;
        this.database = database;
        this.maxAttempts = maxAttempts;
        this.prompt = PromptPair.load("sqlfix/refine");
        this.seedsOfOtherDatabasesOnly = seedsOfOtherDatabasesOnly;
        this.perAttempt = perAttempt;
    }

    /**
     * The refined SQL, or empty when every attempt failed or returned nothing. Each attempt runs on the frame's database
     * for a question of {@code tenant} (null: none), under its access policy ({@link StageSql}).
     */
    public CompletableFuture<Optional<Refinement>> refine(PromptFields frame, String tenant, String flaggedSql,
                                                          List<String> reasons, List<Candidate> candidates,
                                                          FailureMemory failures, StageTrace trace) {
        return refine(frame, tenant, flaggedSql, reasons, candidates, failures, List.of(), trace);
    }

    /**
     * As above, with the request's live repairs (from the feedback topic) ranked together with the remembered ones;
     * the trace names the live repairs shown by their feedback ids.
     */
    public CompletableFuture<Optional<Refinement>> refine(PromptFields frame, String tenant, String flaggedSql,
                                                          List<String> reasons, List<Candidate> candidates,
                                                          FailureMemory failures, List<LiveFeedback.Repair> live,
                                                          StageTrace trace) {
        Map<RepairRecord, String> liveIds = new java.util.IdentityHashMap<>();
        List<RepairRecord> liveRecords = new java.util.ArrayList<>();
        for (LiveFeedback.Repair r : live) {
            RepairRecord record = new RepairRecord(r.dbId(), r.question(), r.wrongSql(), r.fixedSql(), r.whatWasWrong());
            liveRecords.add(record);
            liveIds.put(record, r.feedbackId());
        }
        List<RepairRecord> shown = repairs(frame, tenant).similar(frame.question(), flaggedSql, SIMILAR_REPAIRS,
                liveRecords, seedsOfOtherDatabasesOnly);
        LiveFeedback.used(trace, shown.stream().filter(liveIds::containsKey).map(liveIds::get).toList());
        String similar = renderRepairs(shown);
        return attempt(1, new Attempts(frame, tenant, flaggedSql, reasons, new java.util.ArrayList<>(candidates), similar,
                failures), trace);
    }

    /** What every attempt of one refinement shares; {@code candidates} grows by each attempt's crafted ones. */
    private record Attempts(PromptFields frame, String tenant, String flaggedSql, List<String> reasons,
                            List<Candidate> candidates, String similar, FailureMemory failures) {}

    private CompletableFuture<Optional<Refinement>> attempt(int number, Attempts a, StageTrace trace) {
        if (number == 1 || perAttempt == null) {
            return ask(number, a, trace);
        }
        List<String> why = new java.util.ArrayList<>(a.reasons());
        a.failures().attempts().stream().filter(f -> f.source().startsWith(ATTEMPT_SOURCE))
                .forEach(f -> why.add("the repair " + SchemaContext.oneLine(f.sql()) + " failed: " + SchemaContext.oneLine(f.error())));
        return perAttempt.craft(a.frame(), a.tenant(), a.flaggedSql(), why, number, trace).thenCompose(fresh -> {
            a.candidates().addAll(fresh);
            return ask(number, a, trace);
        });
    }

    private CompletableFuture<Optional<Refinement>> ask(int number, Attempts a, StageTrace trace) {
        PromptFields vars = a.frame()
                .with("sql", a.flaggedSql() == null ? "(no SQL was produced)" : a.flaggedSql())
                .with("reasons", String.join("; ", a.reasons()))
                .with("candidates", renderCandidates(a.candidates()))
                .with("failures", a.failures().render())
                .with("repairs", a.similar());
        ChatRequest request = prompt.request(vars);
        return call.ask(request, SqlRefiner::parse, trace).thenCompose(answer -> StageSql.offload(trace, () -> {
            ExecutionResult result = database.execute(StageSql.Scope.of(a.frame().dbId(), a.tenant(), trace), answer.sql());
            if (result.ok() && !result.isEmpty()) {
                Refinement done = new Refinement(answer.sql(), answer.choice(), answer.wrong(), number);
                remember(a.frame(), a.tenant(), a.flaggedSql(), done);
                return CompletableFuture.completedFuture(Optional.of(done));
            }
            String why = result.ok() ? "no rows" : result.error().toString();
            a.failures().add(new FailedAttempt(ATTEMPT_SOURCE + number, answer.sql(), why));
            trace.note = "attempt " + number + " failed: " + SchemaContext.oneLine(why);
            return number < maxAttempts
                    ? attempt(number + 1, a, trace)
                    : CompletableFuture.completedFuture(Optional.<Refinement>empty());
        }));
    }

    /** The repair memory as the question's tenant may see it, through its door. */
    private RepairMemory.Shown repairs(PromptFields frame, String tenant) {
        DataDoor door = database.door(new StageSql.Scope(frame.dbId(), tenant, null));
        return door.learned(RepairMemory.class).orElseGet(() -> RepairMemory.Shown.none(door));
    }

    private void remember(PromptFields frame, String tenant, String flaggedSql, Refinement done) {
        if (flaggedSql != null && !normalized(flaggedSql).equals(normalized(done.sql()))) {
            repairs(frame, tenant).add(new RepairRecord(frame.dbId(), frame.question(), flaggedSql, done.sql(), done.whatWasWrong()));
        }
    }

    private static String normalized(String sql) {
        return SqlOneLine.of(sql).toLowerCase(java.util.Locale.ROOT);
    }

    record Answer(String choice, String wrong, String sql) {}

    /** Reads the tagged choice and reason and the SQL; an answer without SQL is unreadable. */
    static Optional<Answer> parse(String text) {
        Optional<String> sql = ModelOutput.sql(text);
        if (sql.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> tags = ModelOutput.tagged(text, TAGS);
        String choice = firstLine(tags.getOrDefault("choice", "repair"));
        String wrong = firstLine(tags.getOrDefault("wrong", ""));
        return Optional.of(new Answer(choice.isEmpty() ? "repair" : choice, wrong, sql.get()));
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("").strip();
    }

    static String renderCandidates(List<Candidate> candidates) {
        if (candidates.isEmpty()) {
            return "(none)";
        }
        return candidates.stream().map(c -> "- " + c.source + ": " + SchemaContext.oneLine(c.sql) + " -> " + outcome(c))
                .collect(Collectors.joining("\n"));
    }

    private static String outcome(Candidate c) {
        if (!c.executed) {
            return "not executed";
        }
        if (c.error != null) {
            return "error: " + SchemaContext.oneLine(c.error);
        }
        String rows = c.preview.stream().limit(3).map(r -> String.join(", ", r.cells)).collect(Collectors.joining(") (", "(", ")"));
        return c.rowCount + (c.rowCount == 1 ? " row: " : " rows, first: ") + SchemaContext.oneLine(rows);
    }

    private static String renderRepairs(List<RepairRecord> similar) {
        if (similar.isEmpty()) {
            return "(none)";
        }
        return similar.stream().map(r -> "- question: " + SchemaContext.oneLine(r.question())
                        + "\n  wrong: " + SchemaContext.oneLine(r.wrongSql())
                        + "\n  fixed: " + SchemaContext.oneLine(r.fixedSql())
                        + "\n  what was wrong: " + SchemaContext.oneLine(r.whatWasWrong()))
                .collect(Collectors.joining("\n"));
    }
}
