package io.flowsql.job;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

/**
 * One way to make a Kafka client: no main class of the project but {@link KafkaClientFactory} constructs a producer, a
 * consumer or an admin client, or starts a Flink Kafka source or sink builder, or sets a builder's brokers or
 * properties. Exempt: devstack's broker ({@code io.flowsql.devstack}, the broker itself and its own admin) and test
 * code (not imported). This module's rule covers job, config, udfs and simulator; console and benchmarks check theirs with
 * {@link #RULE} too.
 */
public class KafkaClientConstructionTest {
    /** The rule; other modules' tests check their own classes with it. */
    public static final ArchRule RULE = noClasses()
            .that().doNotBelongToAnyOf(KafkaClientFactory.class)
            .and().resideOutsideOfPackage("io.flowsql.devstack..")
            .should().callConstructor(KafkaProducer.class, java.util.Properties.class)
            .orShould().callConstructorWhere(com.tngtech.archunit.core.domain.JavaConstructorCall.Predicates.target(
                    com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                            com.tngtech.archunit.base.DescribedPredicate.describe("a Kafka client",
                                    o -> o.isAssignableTo(KafkaProducer.class) || o.isAssignableTo(KafkaConsumer.class)))))
            .orShould().callMethod(Admin.class, "create", java.util.Properties.class)
            .orShould().callMethod(Admin.class, "create", java.util.Map.class)
            .orShould().callMethod(AdminClient.class, "create", java.util.Properties.class)
            .orShould().callMethod(AdminClient.class, "create", java.util.Map.class)
            .orShould().callMethod(KafkaSource.class, "builder")
            .orShould().callMethod(KafkaSink.class, "builder")
            .orShould().callMethodWhere(com.tngtech.archunit.core.domain.JavaMethodCall.Predicates.target(
                    com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                            com.tngtech.archunit.base.DescribedPredicate.describe("a Kafka source or sink builder",
                                    o -> o.isAssignableTo(KafkaSourceBuilder.class) || o.isAssignableTo(KafkaSinkBuilder.class))))
                    .and(com.tngtech.archunit.base.DescribedPredicate.describe("that sets brokers or client properties",
                            call -> call.getName().equals("setBootstrapServers") || call.getName().equals("setProperties")
                                    || call.getName().equals("setKafkaProducerConfig"))))
            .because("every Kafka client comes from KafkaClientFactory (bootstrap + kafka.client.* + kafka.client-file), "
                    + "so each can reach a secured cluster");

    /** The main classes of the modules (or jars) that hold the given classes. */
    public static JavaClasses mainClassesOf(Class<?>... inModules) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(java.util.Arrays.stream(inModules)
                        .map(c -> com.tngtech.archunit.core.importer.Location.of(c.getProtectionDomain().getCodeSource().getLocation()))
                        .collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void onlyTheFactoryMakesKafkaClients() {
        RULE.check(mainClassesOf(FlowSqlJob.class, io.flowsql.journal.StageJournal.class, KafkaClientFactory.class,
                io.flowsql.simulator.SimulatedLlmServer.class));
    }
}
