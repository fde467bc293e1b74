package io.flowsql.console;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.FeedbackParse;
import io.flowsql.config.kafka.KafkaClients;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The console as a person uses it, in Debian's headless chromium, over the real job (broker in-process, the job on a
 * MiniCluster, the simulated LLM over HTTP in oracle mode): ask, see the answer's SQL, table and chart appear as the
 * answer commits, look at why, edit the SQL and run it, send it as the corrected SQL and a verdict on the next turn
 * (records on the feedback topic that the feedback schema accepts), follow a two-turn dialogue; a second browser session sees
 * nothing of the first's, and a write typed into the editor is refused with the database unchanged. Screenshots are
 * kept in target/console-screenshots.
 */
class ConsoleInChromiumITCase {
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 2),
            new TopicSpec("answers", 2), new TopicSpec("dead-letters", 1), new TopicSpec("feedback", 1),
            new TopicSpec("knowledge", 1));

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static ConsoleStack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = ConsoleStack.start(KAFKA.bootstrapServers(), "full",
                java.util.Map.of(io.flowsql.config.kafka.KafkaOptions.KNOWLEDGE_TOPIC.key(), "knowledge"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void askSeeTheAnswerEditAndRunItAndFollowATwoTurnDialogue() throws Exception {
        try (Browser person = new Browser()) {
            person.open(stack.console.url());
            person.until(Duration.ofSeconds(15), d -> "following".equals(person.body("data-follower")) ? true : null);
            person.ask("concert_singer", "How many singers are from each country?");
            WebElement turn = person.answeredTurn(1, ANSWER_WAIT);
            assertThat(turn.findElement(By.cssSelector("[data-testid=status]")).getText())
                    .as(turn.getText()).isEqualTo("answered");
            String sql = turn.findElement(By.cssSelector("[data-testid=answer-sql]")).getText();
            assertThat(sql).containsIgnoringCase("GROUP BY").containsIgnoringCase("country");
            assertThat(turn.findElements(By.cssSelector("[data-testid=answer-sql] span.kw"))).as("keywords highlighted").isNotEmpty();
            List<List<String>> rows = Browser.rows(turn.findElement(By.cssSelector("[data-testid=result-table]")));
            assertThat(rows).containsExactlyInAnyOrderElementsOf(query("concert_singer",
                    "SELECT country, count(*) FROM singer GROUP BY country"));
            assertThat(turn.findElements(By.cssSelector("svg[data-testid=chart] rect"))).as("one bar per row").hasSize(rows.size());
            assertThat(turn.findElement(By.cssSelector("[data-testid=summary]")).getText())
                    .as("the console asks for a summary, written from the answer's rows").contains(rows.get(0).get(0));

            turn.findElement(By.cssSelector("[data-testid=why] summary")).click();
            List<WebElement> stages = turn.findElements(By.cssSelector("[data-testid=why-stages] tbody tr"));
            assertThat(stages).as("a row per traced stage and a total").hasSizeGreaterThan(2);
            assertThat(turn.findElement(By.cssSelector("[data-testid=why-stages]")).getText()).contains("answer.finalize");
            assertThat(turn.findElements(By.cssSelector("[data-testid=why-candidates] tr.winner"))).as("the chosen candidate").isNotEmpty();
            person.screenshot("01-answer");

            String edited = "SELECT country, count(*) AS singers FROM singer WHERE age > 30 GROUP BY country";
            turn.findElement(By.cssSelector("[data-testid=edit-sql]")).click();
            WebElement editor = turn.findElement(By.cssSelector("[data-testid=sql-editor]"));
            assertThat(editor.getAttribute("value")).isEqualTo(sql);
            editor.clear();
            editor.sendKeys(edited);
            turn.findElement(By.cssSelector("[data-testid=run-sql]")).click();
            WebElement runTable = person.until(Duration.ofSeconds(20),
                    d -> turn.findElements(By.cssSelector("[data-testid=run-table]")).stream().findFirst().orElse(null));
            assertThat(Browser.rows(runTable)).containsExactlyInAnyOrderElementsOf(query("concert_singer", edited));
            assertThat(turn.findElements(By.cssSelector("[data-testid=run-result] svg[data-testid=chart] rect"))).isNotEmpty();
            person.screenshot("02-edited-and-run");

            // an id-like column is no amount: no chart of Singer_ID, but a chart of Age beside it
            runInEditor(person, turn, "SELECT Singer_ID, Name FROM singer");
            assertThat(turn.findElements(By.cssSelector("[data-testid=run-result] svg[data-testid=chart]"))).as("no chart of ids").isEmpty();
            runInEditor(person, turn, "SELECT Singer_ID, Age FROM singer");
            assertThat(turn.findElement(By.cssSelector("[data-testid=run-result] svg[data-testid=chart] text")).getText())
                    .as("the chart is of the amount").startsWith("Age");
            WebElement staleNote = turn.findElement(By.cssSelector("[data-testid=run-stale]"));
            assertThat(staleNote.isDisplayed()).as("a fresh result is not stale").isFalse();
            turn.findElement(By.cssSelector("[data-testid=sql-editor]")).sendKeys(" WHERE Age > 30");
            assertThat(staleNote.isDisplayed()).as("edited SQL marks the result above as not its own").isTrue();
            assertThat(turn.findElement(By.cssSelector("[data-testid=run-result]")).getAttribute("class")).contains("stale");
            runInEditor(person, turn, edited);
            assertThat(staleNote.isDisplayed()).as("run again: the result is the edited SQL's").isFalse();

            String firstRequest = turn.getAttribute("data-request-id");
            turn.findElement(By.cssSelector("[data-testid=send-correction]")).click();
            person.until(Duration.ofSeconds(30), d -> turn.findElement(By.cssSelector("[data-testid=correction-status]"))
                    .getText().startsWith("correction sent as console-fb-"));

            person.ask(null, "What is the average, minimum, and maximum age of all singers from France?");
            WebElement second = person.answeredTurn(2, ANSWER_WAIT);
            assertThat(second.findElement(By.cssSelector("[data-testid=status]")).getText()).as(second.getText()).isEqualTo("answered");
            assertThat(second.findElement(By.cssSelector("[data-testid=answer-sql]")).getText()).contains("France");
            assertThat(person.turns().get(0).getText()).contains("How many singers are from each country?");
            assertThat(person.driver.findElements(By.cssSelector("[data-testid=dialogue]"))).as("one dialogue, two turns").hasSize(1);
            assertThat(Browser.rows(second.findElement(By.cssSelector("[data-testid=result-table]"))))
                    .isEqualTo(query("concert_singer", "SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'"));
            person.screenshot("03-two-turn-dialogue");

            second.findElement(By.cssSelector("[data-testid=feedback-correct]")).click();
            person.until(Duration.ofSeconds(30), d -> second.findElement(By.cssSelector("[data-testid=feedback-status]"))
                    .getText().startsWith("correct sent as console-fb-"));
            List<FeedbackEvent> feedback = feedbackRecords(2, Duration.ofSeconds(30));
            assertThat(feedback).extracting(f -> f.kind, f -> f.requestId, f -> f.verdict, f -> f.correctedSql).containsExactly(
                    tuple("verdict", firstRequest, "wrong", edited),
                    tuple("verdict", second.getAttribute("data-request-id"), "correct", null));
            person.assertNoConsoleProblems();
        }
    }

    @Test
    void aDefinitionAddedInThePageIsNamedOnTheAnswersThatUsedIt() throws Exception {
        try (Browser person = new Browser()) {
            person.open(stack.console.url());
            new org.openqa.selenium.support.ui.Select(person.driver.findElement(By.id("db"))).selectByValue("concert_singer");
            String entry = person.addDefinition("stadium capacity", "the most people a stadium holds (stadium.Capacity)");
            // the entry reaches the job's definitions within about 2 s: ask until an answer used it (at most 5 times)
            List<WebElement> used = List.of();
            for (int asked = 1; asked <= 5 && used.isEmpty(); asked++) {
                person.ask(null, "What is the maximum capacity and the average of all stadiums ?");
                WebElement turn = person.answeredTurn(asked, ANSWER_WAIT);
                assertThat(turn.findElement(By.cssSelector("[data-testid=status]")).getText()).as(turn.getText()).isEqualTo("answered");
                used = turn.findElements(By.cssSelector("[data-testid=knowledge-used]"));
            }
            assertThat(used).as("an answer names the definition its prompts carried").hasSize(1);
            assertThat(used.get(0).getText()).isEqualTo("definitions used: " + entry);
            person.screenshot("06-definition-used");
            person.assertNoConsoleProblems();
        }
    }

    @Test
    void aSecondSessionSeesNothingOfTheFirstAndAWriteTypedInTheEditorIsRefused() throws Exception {
        try (Browser first = new Browser(); Browser second = new Browser()) {
            first.open(stack.console.url());
            second.open(stack.console.url());
            first.ask("concert_singer", "How many singers do we have?");
            WebElement turn = first.answeredTurn(1, ANSWER_WAIT);
            String dialogueId = first.until(Duration.ofSeconds(20), d -> d.findElements(By.cssSelector("[data-testid=dialogue]"))
                    .stream().findFirst().orElse(null)).getAttribute("data-dialogue-id");
            List<List<String>> before = query("concert_singer", "SELECT count(*) FROM singer");

            turn.findElement(By.cssSelector("[data-testid=edit-sql]")).click();
            WebElement editor = turn.findElement(By.cssSelector("[data-testid=sql-editor]"));
            editor.clear();
            editor.sendKeys("DELETE FROM singer");
            turn.findElement(By.cssSelector("[data-testid=run-sql]")).click();
            WebElement error = first.until(Duration.ofSeconds(20),
                    d -> turn.findElements(By.cssSelector("[data-testid=run-error]")).stream().findFirst().orElse(null));
            assertThat(error.getText()).startsWith("refused");
            assertThat(query("concert_singer", "SELECT count(*) FROM singer")).as("the database is unchanged").isEqualTo(before);
            first.screenshot("04-write-refused");

            // the second person had the page open all along: no dialogue, no turn, and the first's dialogue is not theirs
            assertThat(second.turns()).isEmpty();
            assertThat(second.driver.findElements(By.cssSelector("[data-testid=dialogue]"))).isEmpty();
            assertThat(second.fetchFromPage("/api/ask", "{\"dialogue_id\":\"" + dialogueId + "\",\"question\":\"And their names?\"}"))
                    .startsWith("404");
            second.driver.navigate().refresh();
            second.open(stack.console.url());
            assertThat(second.turns()).as("not after a reload either").isEmpty();
            second.screenshot("05-second-session-empty");
            first.driver.navigate().refresh();
            first.open(stack.console.url());
            // the dialogue list comes from the page's own request after the reload: wait for it
            first.until(Duration.ofSeconds(20),
                    d -> d.findElements(By.cssSelector("[data-testid=dialogue]")).stream().findFirst().orElse(null)).click();
            assertThat(first.answeredTurn(1, Duration.ofSeconds(10)).getText()).as("the first still has its own after a reload")
                    .contains("How many singers do we have?");
        }
    }

    /** The records of the feedback topic, each checked against the feedback schema as the job reads it. */
    private static List<FeedbackEvent> feedbackRecords(int count, Duration within) {
        List<FeedbackEvent> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(KAFKA.bootstrapServers(), "console-test", false)) {
            consumer.subscribe(List.of("feedback"));
            long deadline = System.nanoTime() + within.toNanos();
            while (out.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    FeedbackParse parsed = EventJson.parseFeedback(r.value());
                    assertThat(parsed.isValid()).as(parsed.reason()).isTrue();
                    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(parsed.feedback().feedbackId);
                    out.add(parsed.feedback());
                }
            }
        }
        return out;
    }

    /** The rows of a query run directly on the database file, read-only, as the page shows them (text). */
    static List<List<String>> query(String db, String sql) throws Exception {
        Path file = ConsoleStack.SHARED_DATA.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file.toAbsolutePath() + "?mode=ro");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    row.add(v == null ? "NULL" : String.valueOf(v));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** Types {@code sql} into the turn's editor, runs it and waits until the run's table shows its rows. */
    private static void runInEditor(Browser person, WebElement turn, String sql) throws Exception {
        WebElement editor = turn.findElement(By.cssSelector("[data-testid=sql-editor]"));
        editor.clear();
        editor.sendKeys(sql);
        turn.findElement(By.cssSelector("[data-testid=run-sql]")).click();
        java.util.Set<List<String>> expected = new java.util.HashSet<>(query("concert_singer", sql));
        person.until(Duration.ofSeconds(20), d -> turn.findElements(By.cssSelector("[data-testid=run-table]")).stream()
                .filter(t -> new java.util.HashSet<>(Browser.rows(t)).equals(expected)).findFirst().orElse(null));
    }
}
