package io.flowsql.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/** {@code knowledge add|retract|list} against a real broker: what list prints is what the job's book would hold. */
class KnowledgeCommandTest {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("knowledge", 1));

    @Test
    void addedDefinitionsAreListedUntilRetracted() throws Exception {
        String b = KAFKA.bootstrapServers();
        assertThat(run("knowledge", "-b", b, "add", "--id", "k1", "--db", "concert_singer", "--term", "veteran singer",
                "--definition", "a singer older than 40")).isEqualTo("add k1");
        assertThat(run("knowledge", "-b", b, "add", "--id", "k2", "--db", "shop", "--term", "active customer",
                "--definition", "an order in the last 90 days", "--tenant", "acme")).isEqualTo("add k2");
        assertThat(run("knowledge", "-b", b, "list")).contains("k1\tconcert_singer\t\"veteran singer\" = a singer older than 40",
                "k2\tshop\ttenant=acme\t\"active customer\" = an order in the last 90 days");
        assertThat(run("knowledge", "-b", b, "retract", "k1")).startsWith("retract rt-");
        String listed = run("knowledge", "-b", b, "list");
        assertThat(listed).contains("k2").doesNotContain("k1");
        assertThat(run("knowledge", "-b", b, "list", "--db", "concert_singer")).isEmpty();
    }

    private static String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new FlowSqlCli()).execute(args);
            assertThat(code).as(String.join(" ", args)).isZero();
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8).strip();
    }
}
