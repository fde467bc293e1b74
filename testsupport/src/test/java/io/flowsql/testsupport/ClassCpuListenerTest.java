package io.flowsql.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

class ClassCpuListenerTest {
    @Test
    void aClassFiguresHoldItsOwnCpuAndItsReapedChildren(@TempDir Path folder) throws Exception {
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build());
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(BusyClassFixture.class)).build(),
                new ClassCpuListener(folder));

        Path figures = folder.resolve(BusyClassFixture.class.getName() + ".txt");
        assertThat(figures).isRegularFile();
        Map<String, Double> values = parse(Files.readString(figures));
        assertThat(values.get("wall_s")).isGreaterThanOrEqualTo(0.3);
        assertThat(values.get("cpu_s")).as("the JVM's own CPU while the class ran").isGreaterThan(0.1);
        assertThat(values.get("children_cpu_s")).as("the shell loop it started and waited for").isGreaterThan(0.0);
        assertThat(folder.toFile().list()).as("one file per top-level class, none for the engine or methods").hasSize(1);
    }

    @Test
    void childrenTimesAreReadAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 200 0 0 50 60 70 80 20 0 30 0 1234 0 0";
        // fields 16 and 17: cutime 70, cstime 80
        assertThat(ProcessCpu.childrenTicks(stat)).isEqualTo(150);
    }

    @Test
    void aMissingFigureIsMinusOne() {
        assertThat(ClassCpuListener.line(2_500_000_000L, -1, 1_000_000_000L))
                .isEqualTo(String.format("wall_s=2.50 cpu_s=-1.00 children_cpu_s=1.00%n"));
    }

    private static Map<String, Double> parse(String line) {
        Map<String, Double> out = new HashMap<>();
        for (String pair : line.trim().split(" ")) {
            String[] kv = pair.split("=");
            out.put(kv[0], Double.parseDouble(kv[1]));
        }
        return out;
    }
}
