package io.flowsql.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {
    private static final List<String> KINDS = List.of("broker-kill", "llm-restart", "pg-restart", "pg-drop", "tm-kill");

    @Test
    void aFiveMinuteRunHasEveryKindOnceInsideTheRun() {
        for (long seed = 0; seed < 50; seed++) {
            List<FaultSchedule.Planned> faults = FaultSchedule.plan(KINDS, 5, seed).faults();
            assertThat(faults).extracting(FaultSchedule.Planned::kind).containsExactlyInAnyOrderElementsOf(KINDS);
            assertThat(faults).allSatisfy(f -> assertThat(f.atSeconds())
                    .isBetween((double) FaultSchedule.QUIET_START_SECONDS, 5 * 60.0 - FaultSchedule.QUIET_END_SECONDS));
            assertThat(faults).extracting(FaultSchedule.Planned::atSeconds).isSorted();
        }
    }

    @Test
    void aFiveMinuteSoakInjectsEveryKindTheSoakHas() {
        assertThat(SoakFaults.kinds(false, false)).isEqualTo(SoakFaults.KINDS).contains("net-stall", "broker-rolling")
                .doesNotContain(SoakFaults.JOB_MANAGER_KILL, SoakFaults.MARIADB_RESTART).doesNotHaveDuplicates();
        assertThat(SoakFaults.kinds(true, false)).containsAll(SoakFaults.KINDS).contains(SoakFaults.JOB_MANAGER_KILL)
                .doesNotContain(SoakFaults.MARIADB_RESTART).hasSize(SoakFaults.KINDS.size() + 1);
        assertThat(SoakFaults.kinds(false, true)).containsAll(SoakFaults.KINDS).contains(SoakFaults.MARIADB_RESTART)
                .doesNotContain(SoakFaults.JOB_MANAGER_KILL).hasSize(SoakFaults.KINDS.size() + 1);
        assertThat(SoakFaults.kinds(true, true)).containsAll(SoakFaults.KINDS)
                .contains(SoakFaults.MARIADB_RESTART, SoakFaults.JOB_MANAGER_KILL).hasSize(SoakFaults.KINDS.size() + 2);
        for (boolean standalone : new boolean[] {false, true}) {
            for (boolean maria : new boolean[] {false, true}) {
                List<String> kinds = SoakFaults.kinds(standalone, maria);
                for (long seed = 0; seed < 20; seed++) {
                    List<FaultSchedule.Planned> faults = FaultSchedule.plan(kinds, 5, seed).faults();
                    assertThat(faults).extracting(FaultSchedule.Planned::kind).containsExactlyInAnyOrderElementsOf(kinds);
                    assertThat(faults).allSatisfy(f -> assertThat(f.atSeconds()).isBetween(
                            (double) FaultSchedule.QUIET_START_SECONDS, 5 * 60.0 - FaultSchedule.QUIET_END_SECONDS));
                }
            }
        }
    }

    @Test
    void anHourHasOneFaultAMinuteEveryKindEquallyOftenInRounds() {
        List<FaultSchedule.Planned> faults = FaultSchedule.plan(KINDS, 60, 42).faults();
        assertThat(faults).hasSize(60);
        Map<String, Long> perKind = faults.stream().collect(Collectors.groupingBy(FaultSchedule.Planned::kind, Collectors.counting()));
        assertThat(perKind).containsOnlyKeys(KINDS).allSatisfy((kind, n) -> assertThat(n).isEqualTo(12));
        for (int round = 0; round < 12; round++) {
            assertThat(faults.subList(round * 5, round * 5 + 5)).extracting(FaultSchedule.Planned::kind)
                    .as("round " + round).containsExactlyInAnyOrderElementsOf(KINDS);
        }
        // each in the first third of its own slot, so two faults are at least two thirds of a slot apart
        double slot = (3600.0 - FaultSchedule.QUIET_START_SECONDS - FaultSchedule.QUIET_END_SECONDS) / 60;
        for (int f = 1; f < faults.size(); f++) {
            assertThat(faults.get(f).atSeconds() - faults.get(f - 1).atSeconds()).isGreaterThanOrEqualTo(slot * 2 / 3);
        }
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnotherOne() {
        Function<Long, List<FaultSchedule.Planned>> plan = seed -> FaultSchedule.plan(KINDS, 10, seed).faults();
        assertThat(plan.apply(7L)).isEqualTo(plan.apply(7L));
        assertThat(plan.apply(7L)).isNotEqualTo(plan.apply(8L));
    }

    @Test
    void aRunShorterThanItsKindsStillHasEveryKind() {
        assertThat(FaultSchedule.plan(KINDS, 2, 1).faults()).extracting(FaultSchedule.Planned::kind)
                .containsExactlyInAnyOrderElementsOf(KINDS);
        assertThatThrownBy(() -> FaultSchedule.plan(KINDS, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSmokeRunHasOneFaultAfterTheQuietStartAndBeforeTheQuietEndOfAMinute() {
        assertThat(FaultSchedule.one("broker-kill").faults())
                .containsExactly(new FaultSchedule.Planned("broker-kill", FaultSchedule.QUIET_START_SECONDS));
        assertThat(FaultSchedule.QUIET_START_SECONDS + FaultSchedule.QUIET_END_SECONDS).isLessThan(60);
    }
}
