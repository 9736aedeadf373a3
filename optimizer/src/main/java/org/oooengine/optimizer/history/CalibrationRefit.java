package org.oooengine.optimizer.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CalibrationRuns;
import org.oooengine.optimizer.cost.CostTerms;

/**
 * The figures of a calibration that price the cores' work and a MapReduce job's start-up and scan
 * ({@link RefitFigure}), refitted to what recent runs took ({@code ooo calibrate --from-history}).
 * Every timed part of a cold run is one observation, its estimate priced by the figures
 * ({@link CostTerms}): a figure multiplied by x multiplies the seconds it prices by x (a rate
 * divided by x). The
 * factors are those that minimise the squared relative error of the parts, plus {@value #PRIOR}
 * times each factor's squared distance from 1: a figure the runs hardly exercise keeps its
 * calibrated value, one they exercise much follows them. Relative errors weigh a 7 ms join like a
 * 40 s one, as the estimates' targets do. An out-of-order pipeline takes the busier of its devices
 * and its cores, so which side binds depends on the factors: the fit is repeated with each part's
 * binding side under the last factors until no part changes side. A factor stays within
 * [1/{@value #LIMIT}, {@value #LIMIT}]: further than that the model, not the figure, is wrong.
 *
 * <p>Runs priced with another calibration have their parts rescaled to the one refitted, figure
 * by figure (a request's curve by its geometric mean). Warm runs are left out, the figures price
 * cold ones; so are runs whose rows the plan misestimated by more than {@value #ROWS_OFF}x: their
 * error is the cardinality model's (a driving range at a dense spot of its column), and the CPU
 * figures refitted to them would be bent to make up for it.
 */
public final class CalibrationRefit {
    static final double PRIOR = 0.1;
    static final double LIMIT = 5.0;
    static final double ROWS_OFF = 2.0;
    private static final int ROUNDS = 20;
    private static final RefitFigure[] FIGURES = RefitFigure.values();

    private CalibrationRefit() {
    }

    /**
     * A refit and what it rests on.
     *
     * @param refitted    the calibration with its CPU figures refitted
     * @param factors     each figure's new value over its old
     * @param weight      per figure, how much of the parts' measured time it priced, summed over
     *                    the parts (a part fully priced by it counts 1)
     * @param parts       the timed parts fitted
     * @param runsSkipped runs left out: warm, without a part measured, or with their rows misestimated
     * @param errorBefore median over the parts of |estimate / measured - 1| with the old figures
     * @param errorAfter  the same with the refitted ones
     */
    public record Result(Calibration refitted, EnumMap<RefitFigure, Double> factors, EnumMap<RefitFigure, Double> weight,
                         int parts, int runsSkipped, double errorBefore, double errorAfter) {
    }

    /** One timed part: its measured seconds and its estimate's terms, per figure the seconds it prices. */
    private record Observation(double seconds, CostTerms terms, double[] priced) {
        /** Whether the pipeline's cores bind under {@code factors} (always where they do not overlap the devices). */
        boolean coresBind(double[] factors) {
            return !terms.overlapped() || priced(factors, true) >= terms.disk();
        }

        double estimate(double[] factors) {
            double cores = priced(factors, true);
            return terms.fixed() + (terms.overlapped() ? Math.max(terms.disk(), cores) : terms.disk() + cores)
                    + priced(factors, false);
        }

        private double priced(double[] factors, boolean pipelineCores) {
            double sum = 0;
            for (int f = 0; f < priced.length; f++) {
                if (FIGURES[f].pipelineCores() == pipelineCores) {
                    sum += factors[f] * priced[f];
                }
            }
            return sum;
        }
    }

    public static Result fit(Calibration calibration, List<JoinRun> runs) {
        List<Observation> obs = new ArrayList<>();
        int skipped = 0;
        for (JoinRun run : runs) {
            if (!run.cold() || run.parts().stream().noneMatch(p -> p.seconds() > 0) || rowsOff(run) > ROWS_OFF) {
                skipped++;
                continue;
            }
            for (JoinRun.Part p : run.parts()) {
                if (p.seconds() > 0) {
                    obs.add(observation(calibration, run, p));
                }
            }
        }
        int n = FIGURES.length;
        double[] ones = new double[n];
        Arrays.fill(ones, 1);
        double[] x = ones.clone();
        double[] weight = new double[n];
        for (int round = 0; round < ROUNDS; round++) {
            double[] before = x.clone();
            x = fitted(obs, before, weight);
            boolean sameSides = true;
            for (Observation o : obs) {
                sameSides &= o.coresBind(x) == o.coresBind(before);
            }
            if (sameSides) {
                break;
            }
        }
        EnumMap<RefitFigure, Double> factors = new EnumMap<>(RefitFigure.class);
        EnumMap<RefitFigure, Double> weights = new EnumMap<>(RefitFigure.class);
        for (int f = 0; f < n; f++) {
            factors.put(FIGURES[f], x[f]);
            weights.put(FIGURES[f], weight[f]);
        }
        return new Result(RefitFigure.scaled(calibration, factors), factors, weights, obs.size(), skipped,
                medianError(obs, ones), medianError(obs, x));
    }

    /**
     * The factors of least regularised squared relative error with each pipeline's binding side as
     * under {@code sides}; {@code weight} gets each figure's share of the measured time.
     */
    private static double[] fitted(List<Observation> obs, double[] sides, double[] weight) {
        int n = FIGURES.length;
        double[][] normal = new double[n][n];
        double[] rhs = new double[n];
        Arrays.fill(weight, 0);
        for (Observation o : obs) {
            boolean cores = o.coresBind(sides);
            double[] a = new double[n];
            double rest = o.terms().fixed() + (o.terms().overlapped() ? (cores ? 0 : o.terms().disk()) : o.terms().disk());
            for (int f = 0; f < n; f++) {
                a[f] = FIGURES[f].pipelineCores() && !cores ? 0 : o.priced()[f] / o.seconds();
            }
            double y = (o.seconds() - rest) / o.seconds();
            for (int f = 0; f < n; f++) {
                weight[f] += a[f];
                rhs[f] += a[f] * y;
                for (int g = 0; g < n; g++) {
                    normal[f][g] += a[f] * a[g];
                }
            }
        }
        for (int f = 0; f < n; f++) {
            normal[f][f] += PRIOR;
            rhs[f] += PRIOR;
        }
        double[] x = solve(normal, rhs);
        for (int f = 0; f < n; f++) {
            x[f] = Math.max(1 / LIMIT, Math.min(LIMIT, x[f]));
        }
        return x;
    }

    /** How many times the larger of the run's estimated and returned rows is the smaller, each counted one more. */
    private static double rowsOff(JoinRun run) {
        double estimated = run.estimatedRows() + 1;
        double rows = run.rows() + 1;
        return Math.max(estimated, rows) / Math.min(estimated, rows);
    }

    /** A part of {@code run} with its priced seconds rescaled from the figures it was priced with to {@code c}'s. */
    private static Observation observation(Calibration c, JoinRun run, JoinRun.Part p) {
        CostTerms t = p.estimate();
        double[] priced = new double[FIGURES.length];
        for (int f = 0; f < FIGURES.length; f++) {
            RefitFigure figure = FIGURES[f];
            priced[f] = figure.part(t) * figure.secondsScale(run.figures().get(figure.path()), figure.of(c));
        }
        return new Observation(p.seconds(), t, priced);
    }

    private static double medianError(List<Observation> obs, double[] factors) {
        return obs.isEmpty() ? Double.NaN : CalibrationRuns.median(
                obs.stream().mapToDouble(o -> Math.abs(o.estimate(factors) / o.seconds() - 1)).toArray());
    }

    /** {@code a x = b} by Gaussian elimination with partial pivoting; {@code a} is positive definite here. */
    static double[] solve(double[][] a, double[] b) {
        int n = b.length;
        double[][] m = new double[n][];
        for (int i = 0; i < n; i++) {
            m[i] = Arrays.copyOf(a[i], n + 1);
            m[i][n] = b[i];
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) {
                    pivot = r;
                }
            }
            double[] swap = m[col];
            m[col] = m[pivot];
            m[pivot] = swap;
            for (int r = col + 1; r < n; r++) {
                double k = m[r][col] / m[col][col];
                for (int c = col; c <= n; c++) {
                    m[r][c] -= k * m[col][c];
                }
            }
        }
        double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double s = m[r][n];
            for (int c = r + 1; c < n; c++) {
                s -= m[r][c] * x[c];
            }
            x[r] = s / m[r][r];
        }
        return x;
    }
}
