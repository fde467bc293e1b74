package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClients;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.knowledge.KnowledgeBook;
import io.flowsql.knowledge.KnowledgeEntry;
import io.flowsql.knowledge.KnowledgeLimits;
import io.flowsql.knowledge.KnowledgeRecords;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * {@code knowledge add|list|retract}: business definitions on the knowledge topic (schemas/knowledge.schema.json).
 * {@code add} and {@code retract} send one record keyed by its id and print the id; {@code list} reads the topic from
 * its beginning (committed records only) and prints the definitions in force, as the job's book holds them.
 */
@Command(name = "knowledge", mixinStandardHelpOptions = true,
        subcommands = {KnowledgeCommand.Add.class, KnowledgeCommand.Retract.class, KnowledgeCommand.ListEntries.class},
        description = "Add, list or retract business definitions (knowledge entries) the job puts into prompts as evidence.")
public final class KnowledgeCommand implements Runnable {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = {"-b", "--bootstrap-servers"}, defaultValue = "127.0.0.1:9092", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Kafka (default ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = {"-t", "--topic"}, defaultValue = "knowledge", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Knowledge topic (default ${DEFAULT-VALUE}; the job's kafka.topic.knowledge).")
    String topic;

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Send a definition: a term and what it means for a database.")
    static final class Add implements Callable<Integer> {
        @picocli.CommandLine.ParentCommand
        KnowledgeCommand parent;
        @Option(names = "--id", description = "The knowledge id (default: a new kn-<uuid>).")
        String id;
        @Option(names = "--db", required = true, description = "The database (db_id).")
        String db;
        @Option(names = "--term", required = true, description = "The term, as questions say it (\"active customer\").")
        String term;
        @Option(names = "--definition", required = true, description = "What it means.")
        String definition;
        @Option(names = "--schema", description = "Only for this schema (namespace) of the database.")
        String schema;
        @Option(names = "--tenant", description = "Only for this tenant's questions.")
        String tenant;

        @Override
        public Integer call() throws Exception {
            return parent.send(KnowledgeRecords.addition(id != null ? id : "kn-" + UUID.randomUUID(), db, term, definition,
                    schema, tenant));
        }
    }

    @Command(name = "retract", mixinStandardHelpOptions = true, description = "Forget a definition by its knowledge id.")
    static final class Retract implements Callable<Integer> {
        @picocli.CommandLine.ParentCommand
        KnowledgeCommand parent;
        @picocli.CommandLine.Parameters(index = "0", description = "The knowledge id to forget.")
        String target;

        @Override
        public Integer call() throws Exception {
            return parent.send(JSON.createObjectNode().put("action", KnowledgeEntry.RETRACT)
                    .put("knowledge_id", "rt-" + UUID.randomUUID()).put("retracts", target).put("sent_at", Instant.now().toString()));
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Print the definitions in force (read from the topic).")
    static final class ListEntries implements Callable<Integer> {
        @picocli.CommandLine.ParentCommand
        KnowledgeCommand parent;
        @Option(names = "--db", description = "Only this database's.")
        String db;

        @Override
        public Integer call() {
            KnowledgeBook book = new KnowledgeBook(new KnowledgeLimits(Integer.MAX_VALUE, Long.MAX_VALUE, 0));
            KnowledgeRecords records = new KnowledgeRecords(anyDb -> true, Integer.MAX_VALUE);
            try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(parent.bootstrapServers, "flowsql-knowledge-list", false)) {
                List<TopicPartition> partitions = consumer.partitionsFor(parent.topic).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
                while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        KnowledgeRecords.Read read = records.read(r.value(), r.timestamp());
                        if (read.isValid()) {
                            book.apply(read.entry());
                        }
                    }
                }
            }
            for (KnowledgeEntry e : book.definitions()) {
                if (db == null || db.equals(e.dbId)) {
                    System.out.println(e.knowledgeId + "\t" + e.dbId + (e.schema == null ? "" : "." + e.schema)
                            + (e.tenant == null ? "" : "\ttenant=" + e.tenant) + "\t\"" + e.term + "\" = " + e.definition);
                }
            }
            return 0;
        }
    }

    /** Sends one record keyed by its knowledge id, after checking it against the schema; prints "action id". */
    int send(ObjectNode record) throws Exception {
        List<String> violations = KnowledgeRecords.violations(record);
        if (!violations.isEmpty()) {
            System.err.println("not a valid knowledge record: " + String.join("; ", violations));
            return 2;
        }
        String id = record.get("knowledge_id").asText();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(bootstrapServers)) {
            producer.send(new ProducerRecord<>(topic, id.getBytes(StandardCharsets.UTF_8),
                    JSON.writeValueAsBytes(record))).get();
        }
        System.out.println(record.get("action").asText() + " " + id);
        return 0;
    }
}
