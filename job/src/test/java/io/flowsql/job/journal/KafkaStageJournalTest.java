package io.flowsql.job.journal;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.journal.JournalEntry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** The Kafka stage journal on a real broker: what one TaskManager journals, another finds; released entries go. */
class KafkaStageJournalTest {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static JournalEntry entry(String id, String sql) {
        return new JournalEntry(id, "opensearch.generate", List.of("```sql\n" + sql + "\n```"), List.of("length"),
                120, 30, false, "m", true, System.currentTimeMillis());
    }

    private static KafkaJournalSource source(String topic) {
        return new KafkaJournalSource(KAFKA.bootstrapServers(), topic, Duration.ofDays(2));
    }

    @Test
    void whatOneTaskManagerJournalsAnotherFindsAndReleasedEntriesAreGone() throws Exception {
        KafkaJournalSource source = source("journal-share");
        try (KafkaStageJournal first = KafkaStageJournal.open(source);
             KafkaStageJournal second = KafkaStageJournal.open(source)) {
            first.record("r-1|s|f|0", entry("r-1", "SELECT 1")).get();
            first.record("r-1|s|f|1", entry("r-1", "SELECT 2")).get();
            first.record("r-2|s|f|0", entry("r-2", "SELECT 3")).get();
            assertThat(first.find("r-1|s|f|0")).as("the writer sees its entry at once").isPresent();

            second.catchUp();
            assertThat(second.find("r-1|s|f|1")).as("an instance already running catches up")
                    .hasValueSatisfying(e -> {
                    assertThat(e.choices()).containsExactly("```sql\nSELECT 2\n```");
                    assertThat(e.toResponse().truncated(0)).as("the finish reason is kept").isTrue();
                });
            try (KafkaStageJournal restarted = KafkaStageJournal.open(source)) {
                assertThat(restarted.size()).as("a new instance reads the whole topic before it is used").isEqualTo(3);
                assertThat(restarted.find("r-2|s|f|0").map(JournalEntry::tokens)).contains(150);
            }

            second.release("r-1");
            assertThat(second.find("r-1|s|f|0")).isEmpty();
            try (KafkaStageJournal afterRelease = KafkaStageJournal.open(source)) {
                assertThat(afterRelease.find("r-1|s|f|0")).as("tombstoned").isEmpty();
                assertThat(afterRelease.find("r-1|s|f|1")).as("tombstoned").isEmpty();
                assertThat(afterRelease.find("r-2|s|f|0")).as("another request's entry stays").isPresent();
            }
            first.catchUp();
            assertThat(first.find("r-1|s|f|1")).as("the tombstones reach every instance").isEmpty();
            assertThat(first.size()).isEqualTo(1);
        }
    }

    @Test
    void theKeptReplyIsTheLastWrittenInEveryCacheAsOnTheCompactedTopic() throws Exception {
        KafkaJournalSource source = source("journal-last-write");
        try (KafkaStageJournal first = KafkaStageJournal.open(source);
             KafkaStageJournal second = KafkaStageJournal.open(source)) {
            first.record("r-1|s|f|0", entry("r-1", "SELECT 1")).get();
            second.catchUp();
            second.record("r-1|s|f|0", entry("r-1", "SELECT 2")).get();
            first.catchUp();
            assertThat(first.find("r-1|s|f|0").map(e -> e.choices().get(0))).as("the first writer sees the later reply")
                    .contains("```sql\nSELECT 2\n```");
            try (KafkaStageJournal restarted = KafkaStageJournal.open(source)) {
                assertThat(restarted.find("r-1|s|f|0").map(e -> e.choices().get(0))).as("a new instance: the last record")
                        .contains("```sql\nSELECT 2\n```");
            }
        }
    }

    @Test
    void theCacheKeepsItsBoundsWhileTheTopicKeepsEverything() throws Exception {
        KafkaJournalSource bounded = new KafkaJournalSource(KAFKA.bootstrapServers(), "journal-bounded", Duration.ofDays(2), 3,
                1 << 20);
        try (KafkaStageJournal writer = KafkaStageJournal.open(bounded)) {
            for (int i = 0; i < 5; i++) {
                writer.record("r-" + i + "|s|f|0", entry("r-" + i, "SELECT " + i)).get();
            }
            // the background reader puts each record it reads back into the cache again: under load it may read r-0
            // back after r-4 was written, making r-0 the newest; once it has caught up the newest are r-2..r-4
            writer.catchUp();
            assertThat(writer.size()).isEqualTo(3);
            assertThat(writer.find("r-0|s|f|0")).as("the oldest left the cache").isEmpty();
            try (KafkaStageJournal unbounded = KafkaStageJournal.open(source("journal-bounded"))) {
                assertThat(unbounded.size()).as("not the topic").isEqualTo(5);
            }
        }
    }

    @Test
    void theTopicIsCreatedCompactedWithTheRetention() throws Exception {
        try (KafkaStageJournal ignored = KafkaStageJournal.open(source("journal-config"))) {
            Properties p = new Properties();
            p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
            try (Admin admin = Admin.create(p)) {
                ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "journal-config");
                Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(topic)).all().get();
                assertThat(configs.get(topic).get("cleanup.policy").value()).isEqualTo("compact,delete");
                assertThat(configs.get(topic).get("retention.ms").value())
                        .isEqualTo(Long.toString(Duration.ofDays(2).toMillis()));
            }
        }
        // Opening again on the existing topic is fine.
        try (KafkaStageJournal again = KafkaStageJournal.open(source("journal-config"))) {
            assertThat(again.size()).isZero();
        }
    }
}
