package io.flowsql.job;

import io.flowsql.events.AnswerEvent;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.api.datastream.DataStream;

/** The answering part of the job between parse-and-validate and the answers sink (the topology in production). */
@FunctionalInterface
public interface Answering {

    DataStream<AnswerEvent> attach(DataStream<RequestContext> questions, DataStream<AnswerEvent> answersFeedback);
}
