package org.oooengine.cluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The modes of a sweep take turns, so drift over the sweep falls on each of them alike. */
class InterleaveTest {
    private final BenchSettings twoRuns = new BenchSettings(true, 128, null, 2);

    @Test
    void runsTakeTurns() {
        List<String> order = new ArrayList<>();
        List<String> handed = new ArrayList<>();
        List<JoinResult> results = JoinRunner.interleave(
                List.of(measurement(JoinMode.OOO, true, 1.0, order), measurement(JoinMode.PSMJ, false, 12.0, order)),
                twoRuns, r -> handed.add(r.mode() + "#" + r.run()));
        assertEquals(List.of("ooo#1", "psmj#1", "ooo#2", "psmj#2"), order);
        assertEquals(order, handed);
        assertEquals(4, results.size());
    }

    @Test
    void shortRunsTakeFurtherTurnsWhereTheyMay() {
        List<String> order = new ArrayList<>();
        JoinRunner.interleave(List.of(measurement(JoinMode.AUTO, true, 0.01, order),
                measurement(JoinMode.OOO, true, 0.01, order), measurement(JoinMode.PSMJ, false, 0.01, order)),
                twoRuns, r -> { });
        List<String> expected = new ArrayList<>(List.of("auto#1", "ooo#1", "psmj#1", "auto#2", "ooo#2", "psmj#2"));
        for (int run = 3; run <= twoRuns.shortRunRepeats(); run++) {
            expected.add("auto#" + run);
            expected.add("ooo#" + run);
        }
        assertEquals(expected, order);
    }

    private static JoinRunner.Measurement measurement(JoinMode mode, boolean repeatsShortRuns, double seconds,
                                                      List<String> order) {
        return new JoinRunner.Measurement(repeatsShortRuns, run -> {
            order.add(mode + "#" + run);
            return new JoinResult("PL", mode, 1.0, 0.01, 0.01, 2000, 60_000, 0, seconds, 0, 0, 0, 128, 0, 0, 0, 0, 0,
                    true, -1, run, null, null, null, null, null, null, null, null);
        });
    }
}
