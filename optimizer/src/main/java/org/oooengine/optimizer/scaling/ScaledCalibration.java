package org.oooengine.optimizer.scaling;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.oooengine.optimizer.cost.Calibration;

/**
 * A calibration carried to a cluster of another size: what {@code ooo calibrate --cluster}
 * measured on {@code C} nodes over {@code H} hosts (the median host's device shared by
 * {@link Calibration.Disk#sharedByNodes} nodes), turned into the figures a cluster of {@code N}
 * nodes over {@code M} hosts of the same kind would measure.
 *
 * <p>The calibration's index-join and MapReduce figures are for its whole cluster: reads per second
 * over all nodes, wall time per row or per request with every core at work. A host brings its
 * cores and its device, so whole-cluster rates multiply by {@code M/H} and wall time per unit of
 * work divides by it. The in-order cold read rate (one read in flight per node) multiplies by
 * {@code N/C} instead: each node adds one read in flight, as long as its device has room. The
 * device's own curve (reads per second by queue depth) is the host's and stays; the network's
 * figures are one connection's and stay. What a cluster pays per node — the coordinator's dispatch
 * of a plan to every node, a MapReduce job's start-up over more tasks — grows by the slopes of
 * {@link Growth}, fitted on calibrations of several sizes when there are some.
 */
public final class ScaledCalibration {
    private ScaledCalibration() {
    }

    /**
     * Seconds a cluster adds per node beyond the calibrated one: to the one-row join's dispatch
     * (plan shipped to each node, its end gathered), a map-only job's start-up and a PSMJ stage's.
     */
    public record Growth(double dispatchPerNode, double jobStartupPerNode, double stageStartupPerNode) {
        public static final Growth NONE = new Growth(0, 0, 0);

        public Growth {
            if (dispatchPerNode < 0 || jobStartupPerNode < 0 || stageStartupPerNode < 0) {
                throw new IllegalArgumentException("per-node growth cannot be negative");
            }
        }

        /**
         * The coordinator's dispatch growing by one request and one answer per node at one
         * connection's best request rate; job start-ups not growing. For a calibration of one
         * size, or when the sizes calibrated shared one host (their slopes then measure that
         * host's contention, not a cluster's).
         */
        public static Growth fromNetwork(Calibration c) {
            double best = c.network().requestsPerSecond().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            return new Growth(2 / best, 0, 0);
        }

        /**
         * Least-squares slopes against the node count over calibrations of clusters of different
         * sizes, none below zero; {@link #NONE} from fewer than two sizes.
         */
        public static Growth fit(List<Calibration> calibrations) {
            if (calibrations.stream().mapToInt(Calibration::nodes).distinct().count() < 2) {
                return NONE;
            }
            return new Growth(Math.max(0, slope(calibrations, c -> c.indexJoin().dispatchSeconds())),
                    Math.max(0, slope(calibrations, c -> c.mapReduce().startupSeconds())),
                    Math.max(0, slope(calibrations, c -> c.mapReduce().stageStartupSeconds())));
        }

        private static double slope(List<Calibration> cs, java.util.function.ToDoubleFunction<Calibration> y) {
            double mx = cs.stream().mapToDouble(Calibration::nodes).average().orElse(0);
            double my = cs.stream().mapToDouble(y).average().orElse(0);
            double sxy = 0;
            double sxx = 0;
            for (Calibration c : cs) {
                sxy += (c.nodes() - mx) * (y.applyAsDouble(c) - my);
                sxx += (c.nodes() - mx) * (c.nodes() - mx);
            }
            return sxx == 0 ? 0 : sxy / sxx;
        }
    }

    /** Hosts of a calibrated cluster: its nodes over the nodes sharing one device, at least one. */
    public static int hosts(Calibration c) {
        return Math.max(1, (int) Math.ceil(c.nodes() / (double) Math.max(1, c.disk().sharedByNodes())));
    }

    /**
     * The figures a cluster of {@code nodes} nodes on {@code hosts} hosts like the calibrated ones
     * would measure. With the calibration's own node and host counts, the calibration itself.
     */
    public static Calibration to(Calibration measured, int nodes, int hosts, Growth growth) {
        if (nodes < 1 || hosts < 1 || hosts > nodes) {
            throw new IllegalArgumentException("need 1 <= hosts <= nodes, got " + hosts + " hosts for " + nodes + " nodes");
        }
        double resources = hosts / (double) hosts(measured);
        double nodeRatio = nodes / (double) measured.nodes();
        int extraNodes = nodes - measured.nodes();
        Calibration.Disk d = measured.disk();
        Calibration.Disk disk = new Calibration.Disk(d.sequentialMibPerSecond(), d.randomIops(),
                (int) Math.ceil(nodes / (double) hosts));
        Calibration.IndexJoin ij = measured.indexJoin();
        Map<Integer, Double> cold = new TreeMap<>();
        ij.coldReadsPerSecond().forEach((k, v) -> cold.put(k, v * (k == 1 ? nodeRatio : resources)));
        Map<Integer, Double> request = new TreeMap<>();
        ij.requestMicros().forEach((k, v) -> request.put(k, v / resources));
        Calibration.IndexJoin indexJoin = new Calibration.IndexJoin(
                Math.max(0, ij.dispatchSeconds() + growth.dispatchPerNode() * extraNodes), cold, request,
                ij.warmRowMicros() / resources, ij.readCpuMicros() / resources, ij.coldCoresBusy());
        Calibration.MapReduce mr = measured.mapReduce();
        Calibration.MapReduce mapReduce = new Calibration.MapReduce(
                Math.max(0, mr.startupSeconds() + growth.jobStartupPerNode() * extraNodes),
                Math.max(1e-6, mr.stageStartupSeconds() + growth.stageStartupPerNode() * extraNodes),
                mr.scanMibPerSecond() * resources, mr.shuffleRowMicros() / resources, mr.outputRowMicros() / resources);
        return new Calibration(measured.measuredAt(), nodes, measured.pageSize(), measured.bufferPoolPages(), disk,
                measured.network(), indexJoin, mapReduce);
    }
}
