package io.flowsql.devstack;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class FreePortsTest {

    /**
     * A broker takes two ports from two calls; the kernel may give a closed port again at once, and a broker asked to
     * listen twice on one port would not start. In a thousand calls the kernel repeats some port nearly always.
     */
    @Test
    void noPortIsHandedOutTwiceAmongTheRecentOnes() {
        Set<Integer> seen = new HashSet<>();
        for (int call = 0; call < FreePorts.REMEMBERED; call++) {
            int port = FreePorts.next();
            assertThat(seen.add(port)).as("port %d handed out again at call %d", port, call).isTrue();
        }
    }
}
