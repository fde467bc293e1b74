package io.flowsql.console;

import io.flowsql.config.Settings;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's {@code behind} banner, in Debian's headless chromium, reached on a real broker the way it happens: the
 * console's answer follower reads slower than answers commit. Made slow and deterministic through the clients' own
 * settings ({@code kafka.client.*}): each fetch waits its full {@code fetch.max.wait.ms} (3 s) for bytes that never
 * come ({@code fetch.min.bytes}) and returns one record batch ({@code max.partition.fetch.bytes}), while 3,000 answers
 * of other dialogues commit in batches of a few records: more than {@link FollowerHealth#BEHIND_RECORDS} stay unread
 * for minutes. The page must say so, with the count, and its connection label must stop claiming to follow answers.
 */
class ConsoleBehindInChromiumITCase {
    private static final int ANSWERS = 3_000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("questions", 1),
            new TopicSpec("answers", 1), new TopicSpec("dead-letters", 1));

    @Test
    void aFollowerBehindTheAnswersIsShownToThePerson() throws Exception {
        Settings job = ConsoleSettings.load(null, Map.of(KafkaOptions.BOOTSTRAP_SERVERS.key(), KAFKA.bootstrapServers(),
                DatabaseOptions.SHARED_DATA.key(), ConsoleStack.SHARED_DATA.toString(),
                "kafka.client.fetch.min.bytes", "10000000", "kafka.client.fetch.max.wait.ms", "3000",
                "kafka.client.max.partition.fetch.bytes", "1"));
        ConsoleServer console = ConsoleServer.start(ConsoleSettings.of("127.0.0.1", 0, null, job));
        try (Browser person = new Browser();
             KafkaProducer<String, String> producer = KafkaClientFactory.plain(KAFKA.bootstrapServers()).producer(
                     Map.of(ProducerConfig.BATCH_SIZE_CONFIG, "512", ProducerConfig.LINGER_MS_CONFIG, "0"),
                     new StringSerializer(), new StringSerializer())) {
            person.open(console.url());
            person.until(Duration.ofSeconds(20), d -> "following".equals(person.body("data-follower")) ? true : null);
            assertThat(banner(person)).isEmpty();
            assertThat(connection(person)).isEqualTo("following answers (read_committed)");

            for (int i = 0; i < ANSWERS; i++) {
                String dialogue = "elsewhere-" + i;
                producer.send(new ProducerRecord<>("answers", dialogue, "{\"dialogue_id\":\"" + dialogue
                        + "\",\"request_id\":\"r-" + i + "\",\"status\":\"answered\"}"));
            }
            producer.flush();
            long sent = System.nanoTime();

            String behind = person.until(Duration.ofSeconds(30),
                    d -> "behind".equals(person.body("data-follower")) ? banner(person) : null);
            assertThat(behind).matches("answers are not followed: behind \\((\\d+) records not read yet\\)");
            long unread = Long.parseLong(behind.replaceAll("\\D+", " ").strip().split(" ")[0]);
            assertThat(unread).isGreaterThan(FollowerHealth.BEHIND_RECORDS).isLessThanOrEqualTo(ANSWERS);
            assertThat(connection(person)).as("the page's own stream is open, but it must not claim to follow answers")
                    .isEqualTo("connected; answers not followed");
            System.out.printf("behind banner shown %d ms after %d answers were sent (%d unread)%n",
                    (System.nanoTime() - sent) / 1_000_000, ANSWERS, unread);
            person.screenshot("follower-behind-banner");
        } finally {
            console.close();
        }
    }

    private static String connection(Browser person) {
        return person.driver.findElement(By.id("connection")).getText();
    }

    private static String banner(Browser person) {
        return person.driver.findElement(By.cssSelector("[data-testid=follower-health]")).getText();
    }
}
