package io.flowsql.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.events.QuestionEvent;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SoakQuestionsTest {
    private static final List<String> PRESETS = List.of("opensearch", "mag-sql", "sqlfix", "mmsql", "full");

    private static Map<String, List<SoakQuestions.Item>> pools() {
        Map<String, List<SoakQuestions.Item>> pools = new LinkedHashMap<>();
        pools.put("sqlite", List.of(new SoakQuestions.Item("world_1", "w0"), new SoakQuestions.Item("car_1", "c0"),
                new SoakQuestions.Item("world_1", "w1")));
        pools.put("postgresql", List.of(new SoakQuestions.Item("concert_singer", "s0"), new SoakQuestions.Item("concert_singer", "s1")));
        pools.put("duckdb", List.of(new SoakQuestions.Item("pets_1", "p0")));
        return pools;
    }

    @Test
    void everyFifteenConsecutiveQuestionsAskEveryPresetOnEveryEngine() {
        Map<String, String> engineOfDb = Map.of("world_1", "sqlite", "car_1", "sqlite", "concert_singer", "postgresql",
                "pets_1", "duckdb");
        List<QuestionEvent> questions = SoakQuestions.mix(pools(), PRESETS, 100);
        assertThat(questions).hasSize(100);
        for (int from = 0; from + 15 <= questions.size(); from++) {
            Set<String> pairs = questions.subList(from, from + 15).stream()
                    .map(q -> q.options.strategy + "@" + engineOfDb.get(q.dbId)).collect(Collectors.toSet());
            assertThat(pairs).as("questions " + from + " to " + (from + 14)).hasSize(15);
        }
    }

    @Test
    void eachEngineTakesItsQuestionsInTurnAndEveryQuestionIsItsOwnDialogue() {
        List<QuestionEvent> questions = SoakQuestions.mix(pools(), PRESETS, 45);
        assertThat(questions.stream().filter(q -> q.dbId.equals("concert_singer")).map(q -> q.question))
                .containsExactly("s0", "s1", "s0", "s1", "s0", "s1", "s0", "s1", "s0", "s1", "s0", "s1", "s0", "s1", "s0");
        assertThat(questions.stream().filter(q -> !q.dbId.equals("concert_singer") && !q.dbId.equals("pets_1")).map(q -> q.question).limit(4))
                .containsExactly("w0", "c0", "w1", "w0");
        assertThat(new HashSet<>(questions.stream().map(q -> q.requestId).toList())).hasSize(45);
        assertThat(new HashSet<>(questions.stream().map(q -> q.dialogueId).toList())).hasSize(45);
    }

    @Test
    void withMariaDbEveryTwentyConsecutiveQuestionsAskEveryPresetOnEachOfTheFourEngines() {
        Map<String, List<SoakQuestions.Item>> pools = pools();
        pools.put("mariadb", List.of(new SoakQuestions.Item("employee_hire_evaluation", "e0")));
        Map<String, String> engineOfDb = Map.of("world_1", "sqlite", "car_1", "sqlite", "concert_singer", "postgresql",
                "pets_1", "duckdb", "employee_hire_evaluation", "mariadb");
        List<QuestionEvent> questions = SoakQuestions.mix(pools, PRESETS, 100);
        for (int from = 0; from + 20 <= questions.size(); from++) {
            Set<String> pairs = questions.subList(from, from + 20).stream()
                    .map(q -> q.options.strategy + "@" + engineOfDb.get(q.dbId)).collect(Collectors.toSet());
            assertThat(pairs).as("questions " + from + " to " + (from + 19)).hasSize(20);
        }
        assertThat(questions).filteredOn(q -> q.dbId.equals("employee_hire_evaluation")).hasSize(25);
    }

    @Test
    void theSoakDatabasesGetTheirOwnEnginesQuestionsAndEveryOtherDatabaseIsEmbedded() throws Exception {
        Path shared = Path.of("../../shared/data").toAbsolutePath().normalize();
        if (!shared.resolve("spider/dev.json").toFile().isFile()) {
            shared = Path.of("../shared/data").toAbsolutePath().normalize();
        }
        Map<String, String> byEngine = SoakDatabases.byEngine(true);
        assertThat(SoakDatabases.byEngine(false)).hasSize(2).doesNotContainValue(SoakDatabases.MARIADB_DB);
        Map<String, List<SoakQuestions.Item>> pools = SoakQuestions.pools(shared, byEngine, 7);
        assertThat(pools).hasSize(4);
        byEngine.forEach((engine, db) -> assertThat(pools.get(engine)).isNotEmpty()
                .allSatisfy(item -> assertThat(item.db()).isEqualTo(db)));
        List<SoakQuestions.Item> embedded = pools.entrySet().stream().filter(e -> !byEngine.containsKey(e.getKey()))
                .findFirst().orElseThrow().getValue();
        assertThat(embedded).extracting(SoakQuestions.Item::db).doesNotContainAnyElementsOf(byEngine.values()).hasSizeGreaterThan(100);
    }
}
