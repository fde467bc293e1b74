package io.flowsql.benchmarks.throughput;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SteadyRateTest {

    /** Answers visible in bunches of {@code perBunch} every {@code periodMillis}, the first bunch at {@code firstMillis}. */
    private static List<Long> bunches(long firstMillis, long periodMillis, int bunchCount, int perBunch) {
        List<Long> arrivals = new ArrayList<>();
        for (int b = 0; b < bunchCount; b++) {
            for (int i = 0; i < perBunch; i++) {
                arrivals.add(firstMillis + b * periodMillis);
            }
        }
        return arrivals;
    }

    @Test
    void bunchedArrivalsGiveTheRateOfWholePeriodsWhereverTheWindowEdgesFall() {
        // 20 answers every 500 ms = 40 answers/s; the window edges fall mid-period
        List<Long> arrivals = bunches(300, 500, 60, 20);
        SteadyRate rate = SteadyRate.of(arrivals, 5_120, 20_140);
        // bunches at 5300 ... 19800: the first closes the period before the window, the other 29 are counted
        assertEquals(29 * 20, rate.answers());
        assertEquals(19_800 - 5_300, rate.millis());
        assertEquals(40.0, rate.perSecond(), 1e-9);
    }

    @Test
    void fillAndDrainOutsideTheWindowDoNotCount() {
        List<Long> arrivals = new ArrayList<>(bunches(1_000, 500, 4, 2));      // a slow fill
        arrivals.addAll(bunches(3_000, 500, 20, 30));                          // steady 60/s from 3 s to 12.5 s
        arrivals.addAll(bunches(13_000, 100, 50, 40));                         // a drain of a backlog after the sending
        SteadyRate rate = SteadyRate.of(arrivals, 4_000, 12_600);
        assertEquals(60.0, rate.perSecond(), 1e-9);
    }

    @Test
    void aBunchReadInSeveralPollsIsOneBunch() {
        // each commit's 30 answers arrive in three polls 5 ms apart (two sink subtasks, a poll cap): 60 answers/s
        List<Long> arrivals = new ArrayList<>();
        for (int b = 0; b < 40; b++) {
            for (int part = 0; part < 3; part++) {
                for (int i = 0; i < 10; i++) {
                    arrivals.add(200L + b * 500 + part * 5);
                }
            }
        }
        // the window's first bunch starts at 5200: all three of its polls close the period before the window
        SteadyRate rate = SteadyRate.of(arrivals, 5_100, 15_000);
        assertEquals(60.0, rate.perSecond(), 1e-9);
        assertEquals(19 * 30, rate.answers());
    }

    @Test
    void aWindowWithOneBunchIsRefused() {
        assertThrows(IllegalStateException.class, () -> SteadyRate.of(bunches(0, 1_000, 10, 5), 2_500, 3_400));
    }
}
