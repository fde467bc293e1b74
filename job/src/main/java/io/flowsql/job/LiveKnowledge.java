package io.flowsql.job;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.flink.KnowledgeFunction;
import io.flowsql.job.kafka.ParseKnowledge;
import io.flowsql.job.topology.TopologyConfig;
import io.flowsql.knowledge.KnowledgeEntry;
import io.flowsql.knowledge.KnowledgeLimits;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Knowledge entries, wired between the live library and the stages (only when {@code kafka.topic.knowledge} is set):
 * the topic is read at parallelism 1 ({@code knowledge-source}), each record parsed ({@code parse-knowledge}, refusals
 * dead-lettered) and broadcast to every instance of {@code knowledge}, which puts the definitions a question mentions
 * into its evidence, so every preset's prompts carry them.
 */
final class LiveKnowledge {
    static final String SOURCE_UID = "knowledge-source";
    static final String PARSE_UID = "parse-knowledge";
    static final String KNOWLEDGE_UID = "knowledge";

    private LiveKnowledge() {}

    static LiveLearning.Wired attach(StreamExecutionEnvironment env, LiveLearning.Wired learned, JobConfig config,
                                     TopologyConfig topology) {
        if (config.get(JobOptions.KNOWLEDGE_TOPIC).isBlank()) {
            return learned;
        }
        SingleOutputStreamOperator<KnowledgeEntry> entries = env
                .fromSource(KafkaSources.knowledge(config), WatermarkStrategy.noWatermarks(), "knowledge")
                .uid(SOURCE_UID).setParallelism(1)
                .process(new ParseKnowledge(JobDatabases.locator(config), config.get(JobOptions.MAX_RECORD_BYTES),
                        config.get(JobOptions.DEAD_LETTER_EXCERPT_BYTES)))
                .uid(PARSE_UID).name("parse knowledge").setParallelism(1);
        SingleOutputStreamOperator<RequestContext> withKnowledge = learned.questions()
                .connect(entries.broadcast(KnowledgeFunction.STATE))
                .process(new KnowledgeFunction(new KnowledgeLimits(config.get(JobOptions.KNOWLEDGE_MAX_PER_DATABASE),
                        KnowledgeLimits.defaults().maxBytesPerDatabase(), config.get(JobOptions.KNOWLEDGE_PER_QUESTION)),
                        config.get(JobOptions.KNOWLEDGE_SIMILARITY) > 0 ? config.get(JobOptions.KNOWLEDGE_SIMILARITY_CANDIDATES) : 0))
                .uid(KNOWLEDGE_UID).name("knowledge");
        if (topology.parallelism > 0) {
            withKnowledge.setParallelism(topology.parallelism);
        }
        DataStream<DeadLetterEvent> refused = entries.getSideOutput(ParseKnowledge.DEAD_LETTERS);
        return new LiveLearning.Wired(withKnowledge,
                learned.deadLetters() == null ? refused : learned.deadLetters().union(refused));
    }
}
