package io.flowsql.console;

import io.flowsql.job.KafkaClientConstructionTest;
import org.junit.jupiter.api.Test;

/** The console makes no Kafka client of its own: every one comes from the job's KafkaClientFactory (issue 37). */
class ConsoleKafkaClientsTest {
    @Test
    void onlyTheFactoryMakesTheConsolesKafkaClients() {
        KafkaClientConstructionTest.RULE.check(KafkaClientConstructionTest.mainClassesOf(ConsoleServer.class));
    }
}
