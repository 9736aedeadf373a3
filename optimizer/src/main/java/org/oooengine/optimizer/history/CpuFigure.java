package org.oooengine.optimizer.history;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostTerms;

/**
 * A figure of the calibration that prices the cores' work, and the part of an estimate it prices:
 * what {@code ooo calibrate --from-history} refits. Each part grows in proportion to its figure.
 */
public enum CpuFigure {
    WARM_ROW("indexJoin.warmRowMicros", true, CostTerms::warmRows),
    COLD_READ("indexJoin.readCpuMicros", true, CostTerms::coldReads),
    /** The curve of a request's cost by probes in flight, as one figure: its points' geometric mean. */
    REQUEST("indexJoin.requestMicros", true, CostTerms::requests),
    SHUFFLED_ROW("mapReduce.shuffleRowMicros", false, CostTerms::shuffledRows),
    OUTPUT_ROW("mapReduce.outputRowMicros", false, CostTerms::outputRows);

    private final String path;
    private final boolean pipelineCores;
    private final ToDoubleFunction<CostTerms> part;

    CpuFigure(String path, boolean pipelineCores, ToDoubleFunction<CostTerms> part) {
        this.path = path;
        this.pipelineCores = pipelineCores;
        this.part = part;
    }

    /** Whether it prices an index-join pipeline's cores, which overlap its devices out of order. */
    public boolean pipelineCores() {
        return pipelineCores;
    }

    /** The figure's path in the calibration file. */
    public String path() {
        return path;
    }

    /** The seconds of {@code terms} this figure prices. */
    public double part(CostTerms terms) {
        return part.applyAsDouble(terms);
    }

    /** The figure's value in {@code c}, in microseconds. */
    public double of(Calibration c) {
        Calibration.IndexJoin ij = c.indexJoin();
        return switch (this) {
            case WARM_ROW -> ij.warmRowMicros();
            case COLD_READ -> ij.readCpuMicros();
            case REQUEST -> Math.exp(ij.requestMicros().values().stream()
                    .mapToDouble(v -> Math.log(Math.max(v, 1e-9))).average().orElse(0));
            case SHUFFLED_ROW -> c.mapReduce().shuffleRowMicros();
            case OUTPUT_ROW -> c.mapReduce().outputRowMicros();
        };
    }

    /** Every figure's value in {@code c}, by path. */
    public static Map<String, Double> valuesOf(Calibration c) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (CpuFigure f : values()) {
            out.put(f.path, f.of(c));
        }
        return out;
    }

    /** {@code c} with each figure multiplied by its factor (a request's whole curve by the request's). */
    public static Calibration scaled(Calibration c, EnumMap<CpuFigure, Double> factors) {
        Calibration.IndexJoin ij = c.indexJoin();
        Map<Integer, Double> requests = new TreeMap<>();
        ij.requestMicros().forEach((k, v) -> requests.put(k, v * factors.get(REQUEST)));
        Calibration.IndexJoin refitIj = new Calibration.IndexJoin(ij.dispatchSeconds(), ij.coldReadsPerSecond(), requests,
                ij.warmRowMicros() * factors.get(WARM_ROW), ij.readCpuMicros() * factors.get(COLD_READ), ij.coldCoresBusy());
        Calibration.MapReduce mr = c.mapReduce();
        Calibration.MapReduce refitMr = new Calibration.MapReduce(mr.startupSeconds(), mr.stageStartupSeconds(),
                mr.scanMibPerSecond(), mr.shuffleRowMicros() * factors.get(SHUFFLED_ROW),
                mr.outputRowMicros() * factors.get(OUTPUT_ROW));
        return new Calibration(c.measuredAt(), c.nodes(), c.pageSize(), c.bufferPoolPages(), c.disk(), c.network(),
                refitIj, refitMr, c.spread());
    }
}
