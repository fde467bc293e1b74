package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import org.apache.flink.api.connector.sink2.Sink;

/** The job's outputs, passed in so tests can use their own sinks; {@link #kafka} gives the exactly-once Kafka ones. */
public record JobSinks(Sink<AnswerEvent> answers, Sink<DeadLetterEvent> deadLetters) {

    public static JobSinks kafka(JobConfig config) {
        return new JobSinks(KafkaSinks.answers(config), KafkaSinks.deadLetters(config));
    }
}
