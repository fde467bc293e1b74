package io.flowsql.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SmallInputsTest {
    @Test
    void switchedOnByAnyValueButEmptyZeroOrFalse() {
        assertTrue(SmallInputs.on("1"));
        assertTrue(SmallInputs.on("yes"));
        assertFalse(SmallInputs.on(null));
        assertFalse(SmallInputs.on(""));
        assertFalse(SmallInputs.on(" 0 "));
        assertFalse(SmallInputs.on("FALSE"));
    }

    @Test
    void theLineNamesTheVariableFirst() {
        assertTrue(SmallInputs.line("5 questions").startsWith("small inputs (FLOWSQL_BENCH_SMALL): 5 questions"));
    }

    @Test
    void unsetLeavesValuesAsGiven() {
        // the test JVM runs without FLOWSQL_BENCH_SMALL unless a CI block exports it
        if (!SmallInputs.on()) {
            assertEquals(400, SmallInputs.cap(400, 5));
            assertEquals(java.util.List.of("a", "b"), SmallInputs.first(java.util.List.of("a", "b")));
        }
    }
}
