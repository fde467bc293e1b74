package io.flowsql.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.agents.sqlfix.RepairRecord;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code flowsql-eval repair-memory} on three Spider dev databases: every seed's wrong SQL, run again here, fails or
 * returns another result than its fix, and its fix returns the gold result; the seeds name their prediction file.
 */
class RepairMemoryCommandTest {
    private static final Set<String> DBS = Set.of("concert_singer", "pets_1", "car_1");

    @Test
    void everySeedIsAVerifiedRepairOfAPublishedPrediction(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("seeds.jsonl");
        int code = new CommandLine(new EvalCli()).execute("repair-memory", "--data", SharedData.root().toString(),
                "--databases", String.join(",", DBS), "--out", out.toString());
        assertThat(code).isZero();
        RepairMemory memory = RepairMemory.frozen(null).seededWith(out);
        List<RepairRecord> seeds = memory.similar(null, "", "", Integer.MAX_VALUE, List.of());
        assertThat(Files.readAllLines(out)).hasSizeGreaterThan(10);

        ResultComparator comparator = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        int failed = 0;
        int differed = 0;
        try (SqliteSafeExecutor executor = new SqliteSafeExecutor(DatabaseLocator.forSharedData(SharedData.root()),
                SqlExecutorConfig.defaults())) {
            for (String line : Files.readAllLines(out)) {
                RepairRecord r = new com.fasterxml.jackson.databind.ObjectMapper().readValue(line, RepairRecord.class);
                assertThat(DBS).contains(r.dbId());
                assertThat(r.seededFrom()).matches("(DAIL-SQL\\+GPT-4\\.txt|C3-ChatGPT\\.txt|DIN-SQL-GPT-4\\.csv)#\\d+");
                ExecutionResult fixed = executor.execute(r.dbId(), r.fixedSql());
                ExecutionResult wrong = executor.execute(r.dbId(), r.wrongSql());
                assertThat(fixed.ok()).as(r.fixedSql()).isTrue();
                if (wrong.ok()) {
                    assertThat(comparator.equal(fixed, r.fixedSql(), wrong)).as(r.wrongSql()).isFalse();
                    assertThat(r.whatWasWrong()).isEqualTo(RepairSeeds.DIFFERENT_RESULT);
                    differed++;
                } else {
                    assertThat(r.whatWasWrong()).startsWith("it failed: ");
                    failed++;
                }
            }
        }
        System.out.printf("repair seeds on %s: %d (%d different results, %d errors)%n", DBS, differed + failed, differed, failed);
        assertThat(differed).isPositive();
        // the rule that keeps them honest in an evaluation: none of a question's own database is shown
        assertThat(memory.similar("car_1", "How many car makers are there?", "SELECT count(*) FROM car_makers", 50, List.of()))
                .isNotEmpty().noneMatch(r -> r.dbId().equals("car_1"));
    }
}
