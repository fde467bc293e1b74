package io.flowsql.benchmarks.retrieval;

import io.flowsql.benchmarks.engine.postgresql.PostgresWarehouse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.flowsql.benchmarks.eval.run.LocalStack;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.JobOptions;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The simulated pipeline on the warehouse: the job on a local MiniCluster with an in-process broker, the warehouse
 * declared as one PostgreSQL database ({@code databases.warehouse.*}) under a schema token budget, and the simulator in
 * oracle mode answering from a gold file written here whose questions belong to database {@code warehouse} and whose
 * SQL is qualified by schema (the oracle finds gold by database and question). Each question is sent once; the
 * answers come back in question order.
 */
final class WarehousePipeline {

    /** One question for the pipeline: its id, question text and schema-qualified gold SQL. */
    record Item(String id, String question, String goldSql) {}

    private WarehousePipeline() {}

    static Map<String, AnswerEvent> run(Path sharedData, Path work, Map<String, String> warehouseOptions, int budget,
            List<Item> items, String preset, Duration deadline) throws Exception {
        Files.createDirectories(work);
        Path gold = work.resolve("warehouse-gold.json");
        ObjectMapper json = new ObjectMapper();
        ArrayNode list = json.createArrayNode();
        items.forEach(i -> list.addObject().put("db_id", PostgresWarehouse.ID).put("question", i.question()).put("query", i.goldSql()));
        json.writeValue(gold.toFile(), list);
        Map<String, String> options = new LinkedHashMap<>(warehouseOptions);
        options.put(JobOptions.SCHEMA_TOKEN_BUDGET.key(), String.valueOf(budget));
        if (preset != null) {
            options.put(JobOptions.STRATEGY.key(), preset);
        }
        Map<String, AnswerEvent> answers = new LinkedHashMap<>();
        try (LocalStack stack = LocalStack.start(sharedData, sharedData.resolve("spider/database"), null, "simulated-oracle",
                List.of(gold), SqlErrorInjector.uniform(0, 42), 2, options)) {
            try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(stack.bootstrapServers(), "warehouse", false);
                    KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(stack.bootstrapServers())) {
                consumer.subscribe(List.of(LocalStack.ANSWERS));
                for (Item i : items) {
                    QuestionEvent q = new QuestionEvent(i.id(), "warehouse/" + i.id(), PostgresWarehouse.ID, i.question());
                    q.sentAt = Instant.now().toString();
                    producer.send(new ProducerRecord<>(LocalStack.QUESTIONS, q.dialogueId.getBytes(StandardCharsets.UTF_8),
                            EventJson.toBytes(q)));
                }
                producer.flush();
                Instant end = Instant.now().plus(deadline);
                while (answers.size() < items.size() && Instant.now().isBefore(end)) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        AnswerEvent a = EventJson.parseAnswer(r.value());
                        answers.put(a.requestId, a);
                    }
                }
            }
        }
        return answers;
    }
}
