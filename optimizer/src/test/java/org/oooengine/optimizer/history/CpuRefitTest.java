package org.oooengine.optimizer.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostTerms;

/** The refit on runs made by hand; {@code JoinOptimizerTest} refits to the optimizer's own plans. */
class CpuRefitTest {
    static Calibration calibration(double warmRowMicros) {
        return new Calibration("2026-01-01T00:00:00Z", 4, 8192, 8192,
                new Calibration.Disk(1400, Map.of(1, 17_000.0, 256, 60_000.0), 4),
                new Calibration.Network(80, Map.of(1, 9_000.0, 128, 230_000.0)),
                new Calibration.IndexJoin(0.03, Map.of(1, 9_000.0, 128, 40_000.0), Map.of(1, 60.0, 128, 2.0),
                        warmRowMicros, 10, 0.9),
                new Calibration.MapReduce(0.25, 0.4, 150, 1.5, 0.4));
    }

    private static JoinRun run(Calibration pricedWith, boolean cold, double warmRowSeconds, double measured) {
        return new JoinRun("2026-11-30T00:00:00Z", "PL", 0.01, "ooo-pnlj", cold, 1, 1,
                List.of(new JoinRun.Part("index-join pipeline", new CostTerms(0.1, 0, false, warmRowSeconds, 0, 0, 0, 0), measured)),
                CpuFigure.valuesOf(pricedWith));
    }

    @Test
    void aFigureTheRunsDoNotExerciseKeepsItsValue() {
        Calibration c = calibration(3);
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            runs.add(run(c, true, i, 0.1 + 1.5 * i)); // rows cost 1.5 times what the calibration says
        }
        CpuRefit.Result r = CpuRefit.fit(c, runs);
        assertEquals(1.5, r.factors().get(CpuFigure.WARM_ROW), 0.01, r.toString());
        assertEquals(4.5, r.refitted().indexJoin().warmRowMicros(), 0.05);
        for (CpuFigure f : List.of(CpuFigure.COLD_READ, CpuFigure.REQUEST, CpuFigure.SHUFFLED_ROW, CpuFigure.OUTPUT_ROW)) {
            assertEquals(1.0, r.factors().get(f), 1e-9, f.path());
            assertEquals(f.of(c), f.of(r.refitted()), 1e-9, f.path());
        }
        assertEquals(c.disk(), r.refitted().disk());
        assertEquals(20, r.parts());
        assertTrue(r.errorAfter() < 0.01 && r.errorBefore() > 0.3, r.toString());
    }

    @Test
    void warmRunsAreLeftOutAndOneRunMovesAFigureLittle() {
        Calibration c = calibration(3);
        CpuRefit.Result r = CpuRefit.fit(c, List.of(run(c, false, 1, 100), run(c, true, 0.01, 0.13)));
        assertEquals(1, r.runsSkipped());
        assertEquals(1, r.parts());
        // the cold run alone says 3x, but the figure prices little of it: the prior holds the figure near 1
        assertEquals(1.1, r.factors().get(CpuFigure.WARM_ROW), 0.05, r.toString());
    }

    /** A run whose rows the plan misestimated tells of the cardinality model, not of the CPU figures. */
    @Test
    void runsWhoseRowsWereMisestimatedAreLeftOut() {
        Calibration c = calibration(3);
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            JoinRun r = run(c, true, i, 0.1 + 3 * i); // 3x the rows' time: 3x the rows the plan expected
            runs.add(new JoinRun(r.at(), r.query(), r.selectivity(), r.chosen(), true, 100, 300, r.parts(), r.figures()));
        }
        CpuRefit.Result r = CpuRefit.fit(c, runs);
        assertEquals(20, r.runsSkipped());
        assertEquals(0, r.parts());
        assertEquals(1.0, r.factors().get(CpuFigure.WARM_ROW), 1e-9);
    }

    @Test
    void runsPricedWithAnEarlierCalibrationAreRescaledToTheCurrentOne() {
        Calibration earlier = calibration(2);
        Calibration now = calibration(4); // a cached row now costs twice what it did when the runs were priced
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            runs.add(run(earlier, true, i, 0.1 + 2 * i)); // they took what the current figure says
        }
        CpuRefit.Result r = CpuRefit.fit(now, runs);
        assertEquals(1.0, r.factors().get(CpuFigure.WARM_ROW), 0.01, r.toString());
    }

    @Test
    void aFactorStaysWithinItsLimit() {
        Calibration c = calibration(3);
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            runs.add(run(c, true, i, 0.1 + 20 * i)); // 20 times the figure
        }
        assertEquals(CpuRefit.LIMIT, CpuRefit.fit(c, runs).factors().get(CpuFigure.WARM_ROW), 1e-9);
    }
}
