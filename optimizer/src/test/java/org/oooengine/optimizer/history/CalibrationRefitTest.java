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
class CalibrationRefitTest {
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
                RefitFigure.valuesOf(pricedWith));
    }

    @Test
    void aFigureTheRunsDoNotExerciseKeepsItsValue() {
        Calibration c = calibration(3);
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            runs.add(run(c, true, i, 0.1 + 1.5 * i)); // rows cost 1.5 times what the calibration says
        }
        CalibrationRefit.Result r = CalibrationRefit.fit(c, runs);
        assertEquals(1.5, r.factors().get(RefitFigure.WARM_ROW), 0.01, r.toString());
        assertEquals(4.5, r.refitted().indexJoin().warmRowMicros(), 0.05);
        for (RefitFigure f : List.of(RefitFigure.COLD_READ, RefitFigure.REQUEST, RefitFigure.SHUFFLED_ROW, RefitFigure.OUTPUT_ROW,
                RefitFigure.STARTUP, RefitFigure.SCAN)) {
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
        CalibrationRefit.Result r = CalibrationRefit.fit(c, List.of(run(c, false, 1, 100), run(c, true, 0.01, 0.13)));
        assertEquals(1, r.runsSkipped());
        assertEquals(1, r.parts());
        // the cold run alone says 3x, but the figure prices little of it: the prior holds the figure near 1
        assertEquals(1.1, r.factors().get(RefitFigure.WARM_ROW), 0.05, r.toString());
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
        CalibrationRefit.Result r = CalibrationRefit.fit(c, runs);
        assertEquals(20, r.runsSkipped());
        assertEquals(0, r.parts());
        assertEquals(1.0, r.factors().get(RefitFigure.WARM_ROW), 1e-9);
    }

    @Test
    void runsPricedWithAnEarlierCalibrationAreRescaledToTheCurrentOne() {
        Calibration earlier = calibration(2);
        Calibration now = calibration(4); // a cached row now costs twice what it did when the runs were priced
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            runs.add(run(earlier, true, i, 0.1 + 2 * i)); // they took what the current figure says
        }
        CalibrationRefit.Result r = CalibrationRefit.fit(now, runs);
        assertEquals(1.0, r.factors().get(RefitFigure.WARM_ROW), 0.01, r.toString());
    }

    @Test
    void aFactorStaysWithinItsLimit() {
        Calibration c = calibration(3);
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            runs.add(run(c, true, i, 0.1 + 20 * i)); // 20 times the figure
        }
        assertEquals(CalibrationRefit.LIMIT, CalibrationRefit.fit(c, runs).factors().get(RefitFigure.WARM_ROW), 1e-9);
    }

    /**
     * PSMJ stages of several sizes whose start-up took 1.6x the calibrated one and whose scan ran at
     * half the calibrated rate: the start-ups (a map-only job's too) and the rate follow them.
     */
    @Test
    void aJobsStartUpAndScanRateAreRefitted() {
        Calibration c = calibration(3);
        Calibration.MapReduce mr = c.mapReduce();
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            double scan = i * 0.04; // seconds at the calibrated rate
            double shuffled = (i % 5) * 0.05;
            CostTerms job = CostTerms.job(mr.stageStartupSeconds(), scan, shuffled, 0);
            double measured = 1.6 * mr.stageStartupSeconds() + 2 * scan + shuffled;
            runs.add(new JoinRun("2026-11-30T00:00:00Z", "PL", 0.1, "psmj", true, 1, 1,
                    List.of(new JoinRun.Part("psmj-1", job, measured)), RefitFigure.valuesOf(c)));
        }
        CalibrationRefit.Result r = CalibrationRefit.fit(c, runs);
        assertEquals(1.6 * mr.stageStartupSeconds(), r.refitted().mapReduce().stageStartupSeconds(), 0.03, r.toString());
        assertEquals(1.6 * mr.startupSeconds(), r.refitted().mapReduce().startupSeconds(), 0.03, r.toString());
        // the prior holds each factor a little towards 1
        assertEquals(mr.scanMibPerSecond() / 2, r.refitted().mapReduce().scanMibPerSecond(), 0.1 * mr.scanMibPerSecond() / 2, r.toString());
        assertEquals(1.0, r.factors().get(RefitFigure.SHUFFLED_ROW), 0.15, r.toString());
        assertEquals(c.indexJoin(), r.refitted().indexJoin());
        assertTrue(r.errorAfter() < 0.03 && r.errorBefore() > 0.3, r.toString());
    }

    /** A run priced when the scan ran at twice today's rate took what today's rate says: nothing moves. */
    @Test
    void aRateIsRescaledInverselyFromAnEarlierCalibration() {
        Calibration now = calibration(3);
        Calibration.MapReduce mr = now.mapReduce();
        Calibration earlier = new Calibration(now.measuredAt(), now.nodes(), now.pageSize(), now.bufferPoolPages(),
                now.disk(), now.network(), now.indexJoin(), new Calibration.MapReduce(mr.startupSeconds(),
                mr.stageStartupSeconds(), 2 * mr.scanMibPerSecond(), mr.shuffleRowMicros(), mr.outputRowMicros()));
        List<JoinRun> runs = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            double scanThen = i * 0.5;
            runs.add(new JoinRun("2026-11-30T00:00:00Z", "PL", 0.1, "psmj", true, 1, 1,
                    List.of(new JoinRun.Part("psmj-1", CostTerms.job(mr.stageStartupSeconds(), scanThen, 0, 0),
                            mr.stageStartupSeconds() + 2 * scanThen)), RefitFigure.valuesOf(earlier)));
        }
        CalibrationRefit.Result r = CalibrationRefit.fit(now, runs);
        assertEquals(1.0, r.factors().get(RefitFigure.SCAN), 0.01, r.toString());
        assertEquals(mr.scanMibPerSecond(), r.refitted().mapReduce().scanMibPerSecond(), 1, r.toString());
    }
}
