package io.flowsql.job;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A refused start throws out of {@code main} and never exits the JVM: submitted over a session cluster's REST API,
 * main runs inside the JobManager (an exit would stop the whole cluster; this test's JVM would end with it and the
 * test would never report). The exception names the bad key, which is what the REST answer shows.
 */
class JobStartRefusedTest {

    @Test
    void anUnknownOptionThrowsNamingTheKeyInsteadOfExiting() {
        assertThatThrownBy(() -> FlowSqlJob.main(new String[] {"-D", "no.such.option=1"}))
                .isInstanceOf(JobStartRefused.class)
                .hasMessageContaining("no.such.option")
                .satisfies(e -> assertThat(((JobStartRefused) e).exitCode()).isEqualTo(1));
    }

    @Test
    void argumentsThatDoNotParseThrowToo() {
        assertThatThrownBy(() -> FlowSqlJob.main(new String[] {"--no-such-flag"}))
                .isInstanceOf(JobStartRefused.class)
                .hasMessageContaining("--no-such-flag")
                .satisfies(e -> assertThat(((JobStartRefused) e).exitCode()).isEqualTo(2));
    }
}
