package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.job.kafka.RawRecord;
import org.apache.flink.api.connector.source.Source;

/** The job's inputs, passed in so tests can use their own sources; {@link #kafka} gives the production ones. */
public record JobSources(Source<RawRecord, ?, ?> questions, Source<AnswerEvent, ?, ?> answersFeedback) {

    public static JobSources kafka(JobConfig config) {
        return new JobSources(KafkaSources.questions(config), KafkaSources.answersFeedback(config));
    }
}
