package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClients;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionParse;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Sends questions to the questions topic, checked against the schema first, keyed by dialogue id. */
@Command(name = "ask", mixinStandardHelpOptions = true, description = "Send questions to the questions topic.")
final class AskCommand implements Callable<Integer> {

    @Mixin
    KafkaConnection kafka;

    @Option(names = {"-t", "--topic"}, defaultValue = "questions", description = "Questions topic (default ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--db", description = "db_id of questions that do not name one (e.g. concert_singer).")
    String db;

    @Option(names = "--dialogue", description = "Send every question in this one dialogue (follow-ups); default: one dialogue each.")
    String dialogue;

    @Option(names = "--file", description = "JSONL file, one question object per line (ids and db_id filled in when missing).")
    Path file;

    @Option(names = "--spider-dev", description = "Spider dev.json: send its first --count questions about --db.")
    Path spiderDev;

    @Option(names = "--count", defaultValue = "5", description = "How many --spider-dev questions (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--ids-file", description = "Also write the request ids sent, one a line, to this file.")
    Path idsFile;

    @Parameters(description = "Questions in plain text.")
    List<String> questions = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        QuestionSource source = new QuestionSource(db, dialogue);
        List<ObjectNode> events = new ArrayList<>();
        if (spiderDev != null) {
            if (db == null) {
                throw new IllegalArgumentException("--spider-dev needs --db");
            }
            events.addAll(source.fromSpiderDev(spiderDev, db, count));
        }
        if (file != null) {
            events.addAll(source.fromJsonl(file));
        }
        questions.forEach(q -> events.add(source.fromText(q)));
        List<String> ids = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(kafka.factory())) {
            for (ObjectNode event : events) {
                byte[] value = EventJson.toBytes(event);
                QuestionParse check = EventJson.parseQuestion(value);
                if (!check.isValid()) {
                    System.err.println("not sent (" + check.reason() + "): " + event);
                    continue;
                }
                String key = check.question().dialogueId;
                producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)).get();
                ids.add(check.question().requestId);
                System.out.println("sent " + check.question().requestId + " [" + check.question().dbId + "] "
                        + check.question().question);
            }
        }
        if (idsFile != null) {
            java.nio.file.Files.write(idsFile, ids, StandardCharsets.UTF_8);
        }
        return ids.size() == events.size() ? 0 : 2;
    }
}
