package io.flowsql.benchmarks;

import io.flowsql.benchmarks.eval.run.KafkaBenchmarkRunner;
import io.flowsql.job.KafkaClientConstructionTest;
import org.junit.jupiter.api.Test;

/** The benchmarks make no Kafka client of their own: every one comes from the job's KafkaClientFactory (issue 37). */
class BenchmarkKafkaClientsTest {
    @Test
    void onlyTheFactoryMakesTheBenchmarksKafkaClients() {
        KafkaClientConstructionTest.RULE.check(KafkaClientConstructionTest.mainClassesOf(KafkaBenchmarkRunner.class));
    }
}
