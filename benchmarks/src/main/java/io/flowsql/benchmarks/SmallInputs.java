package io.flowsql.benchmarks;

import java.util.List;

/**
 * The benchmarks' "small inputs" switch: {@code FLOWSQL_BENCH_SMALL=1} (set by {@code .ci/readme-blocks.sh}) makes each
 * {@code deploy/bench.sh} subcommand run on tiny inputs (a few questions, one preset, short phases) while its command
 * line stays as written (a smoke run of the same code; {@code .ci/readme-blocks.sh} sets it for any run-marked benchmark,
 * though the README's Benchmarks block stays check-marked: even small, it is over CI's budget). Every benchmark that shrinks
 * says so first, with what it changed: its figures are a smoke run, not measurements.
 */
public final class SmallInputs {
    /** The environment variable that switches small inputs on (any value but empty, 0 or false). */
    public static final String ENV = "FLOWSQL_BENCH_SMALL";

    private SmallInputs() {}

    /** True when {@value #ENV} asks for small inputs. */
    public static boolean on() {
        return on(System.getenv(ENV));
    }

    static boolean on(String value) {
        return value != null && !value.isBlank() && !"0".equals(value.strip()) && !"false".equalsIgnoreCase(value.strip());
    }

    /** The smaller of {@code value} and {@code small} when small inputs are on, else {@code value}. */
    public static int cap(int value, int small) {
        return on() ? Math.min(value, small) : value;
    }

    /** The first element only when small inputs are on, else the list. */
    public static <T> List<T> first(List<T> values) {
        return on() && values.size() > 1 ? List.of(values.get(0)) : values;
    }

    /** Prints, when small inputs are on, the line that says so and what they changed. */
    public static void announce(String what) {
        if (on()) {
            System.out.println(line(what));
        }
    }

    static String line(String what) {
        return "small inputs (" + ENV + "): " + what + " (a smoke run: these figures are not measurements)";
    }
}
