package org.oooengine.optimizer.history;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostTerms;

/**
 * A figure of the calibration that runs' times refit ({@code ooo calibrate --from-history}), and
 * the part of an estimate it prices: the cores' work per row, read and request, and a MapReduce
 * job's start-up and scan. Each part grows in proportion to its figure, or, for a rate, to its
 * inverse.
 */
public enum RefitFigure {
    WARM_ROW("indexJoin.warmRowMicros", true, false, CostTerms::warmRows),
    COLD_READ("indexJoin.readCpuMicros", true, false, CostTerms::coldReads),
    /** The curve of a request's cost by probes in flight, as one figure: its points' geometric mean. */
    REQUEST("indexJoin.requestMicros", true, false, CostTerms::requests),
    SHUFFLED_ROW("mapReduce.shuffleRowMicros", false, false, CostTerms::shuffledRows),
    OUTPUT_ROW("mapReduce.outputRowMicros", false, false, CostTerms::outputRows),
    /** A PSMJ stage's start-up; a map-only job's start-up is scaled with it. */
    STARTUP("mapReduce.stageStartupSeconds", false, false, CostTerms::startups),
    SCAN("mapReduce.scanMibPerSecond", false, true, CostTerms::scans);

    private final String path;
    private final boolean pipelineCores;
    private final boolean rate;
    private final ToDoubleFunction<CostTerms> part;

    RefitFigure(String path, boolean pipelineCores, boolean rate, ToDoubleFunction<CostTerms> part) {
        this.path = path;
        this.pipelineCores = pipelineCores;
        this.rate = rate;
        this.part = part;
    }

    /** Whether it prices an index-join pipeline's cores, which overlap its devices out of order. */
    public boolean pipelineCores() {
        return pipelineCores;
    }

    /** The figure's path in the calibration file; its last word gives its unit. */
    public String path() {
        return path;
    }

    /** The seconds of {@code terms} this figure prices. */
    public double part(CostTerms terms) {
        return part.applyAsDouble(terms);
    }

    /**
     * How much the seconds this figure prices grow when it goes from {@code then} to {@code now}:
     * their ratio, inverted for a rate; 1 when {@code then} is unknown.
     */
    public double secondsScale(Double then, double now) {
        if (then == null || then <= 0 || now <= 0) {
            return 1;
        }
        return rate ? then / now : now / then;
    }

    /** The figure's value in {@code c}, in its unit (microseconds, seconds, MiB per second). */
    public double of(Calibration c) {
        Calibration.IndexJoin ij = c.indexJoin();
        return switch (this) {
            case WARM_ROW -> ij.warmRowMicros();
            case COLD_READ -> ij.readCpuMicros();
            case REQUEST -> Math.exp(ij.requestMicros().values().stream()
                    .mapToDouble(v -> Math.log(Math.max(v, 1e-9))).average().orElse(0));
            case SHUFFLED_ROW -> c.mapReduce().shuffleRowMicros();
            case OUTPUT_ROW -> c.mapReduce().outputRowMicros();
            case STARTUP -> c.mapReduce().stageStartupSeconds();
            case SCAN -> c.mapReduce().scanMibPerSecond();
        };
    }

    /** Every figure's value in {@code c}, by path. */
    public static Map<String, Double> valuesOf(Calibration c) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (RefitFigure f : values()) {
            out.put(f.path, f.of(c));
        }
        return out;
    }

    /**
     * {@code c} with the seconds each figure prices multiplied by its factor: a figure multiplied by
     * it, a rate divided (a request's whole curve by the request's, both start-ups by the start-up's).
     */
    public static Calibration scaled(Calibration c, EnumMap<RefitFigure, Double> factors) {
        Calibration.IndexJoin ij = c.indexJoin();
        Map<Integer, Double> requests = new TreeMap<>();
        ij.requestMicros().forEach((k, v) -> requests.put(k, v * factors.get(REQUEST)));
        Calibration.IndexJoin refitIj = new Calibration.IndexJoin(ij.dispatchSeconds(), ij.coldReadsPerSecond(), requests,
                ij.warmRowMicros() * factors.get(WARM_ROW), ij.readCpuMicros() * factors.get(COLD_READ), ij.coldCoresBusy());
        Calibration.MapReduce mr = c.mapReduce();
        Calibration.MapReduce refitMr = new Calibration.MapReduce(mr.startupSeconds() * factors.get(STARTUP),
                mr.stageStartupSeconds() * factors.get(STARTUP), mr.scanMibPerSecond() / factors.get(SCAN),
                mr.shuffleRowMicros() * factors.get(SHUFFLED_ROW), mr.outputRowMicros() * factors.get(OUTPUT_ROW));
        return new Calibration(c.measuredAt(), c.nodes(), c.pageSize(), c.bufferPoolPages(), c.disk(), c.network(),
                refitIj, refitMr, c.spread());
    }
}
