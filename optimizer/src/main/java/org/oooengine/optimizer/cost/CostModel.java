package org.oooengine.optimizer.cost;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import org.oooengine.core.storage.PageFormat;

/**
 * Estimated seconds of the engine's operators on one calibrated cluster. Every figure comes from
 * the {@link Calibration} or the statistics; the formulas only say how work adds up.
 *
 * <p>An index nested-loop join (PNLJ) is a pipeline: the outer rows from an index range scan, then
 * probe after probe, all on the node daemons at once. Its work — page touches, requests and rows —
 * is kept per step ({@link Work}) and turned into time in one place ({@link #pnljSeconds}): the
 * touches that miss the buffer pools, which all steps share ({@link #reads}), become reads; out of
 * order the devices serve them at the depth the probes in flight keep while the cores do every
 * row's, request's and read's CPU, and the busier of the two sets the pace; and the dependent chain
 * from the first outer row to the last match adds its latency. In-order execution is the same work
 * with one probe in flight per node, its reads at the rate the engine's in-order join reached
 * cold. PSMJ is a chain of MapReduce jobs, each paying its start-up, a full scan of its
 * inputs, the shuffle of every row that passes the mappers and the output of the reducers.
 */
public final class CostModel {
    private final Calibration cal;

    /**
     * Page touches of one step on one object — a table's clustered tree, or one of its indexes —
     * of {@code pages} pages. Whether a touch reads from the disk depends on every other touch of
     * the pipeline: all its steps share the buffer pools.
     */
    public record Touches(String object, double pages, double touches) {
    }

    /**
     * One step of a PNLJ pipeline: its reads that no cache can save (index leaves read in order),
     * its page touches, its requests that leave their node (a probe of a value another node owns,
     * a fetch batch), the rows it produces, and how many independent lookups it can have going at
     * once — the rows entering it.
     */
    public record Step(double leafReads, List<Touches> touches, double requests, double rows, double parallelism) {
        public Step {
            touches = List.copyOf(touches);
        }
    }

    /**
     * The work of a PNLJ pipeline so far: its steps, and the dependent steps from an outer row to
     * a result row. Each step keeps its own parallelism: a chain driven by 200 rows has 200
     * lookups to overlap at its first probe, but 6,000 at the next if the first returns 30 each.
     */
    public record Work(List<Step> steps, int depth) {
        public Work {
            steps = List.copyOf(steps);
        }

        Work plus(Step step, int moreDepth) {
            List<Step> all = new ArrayList<>(steps);
            all.add(step);
            return new Work(all, depth + moreDepth);
        }

        public double requests() {
            return steps.stream().mapToDouble(Step::requests).sum();
        }

        public double rows() {
            return steps.stream().mapToDouble(Step::rows).sum();
        }

        /** Touches per object over all steps. */
        public Map<String, Double> touchesByObject() {
            Map<String, Double> out = new TreeMap<>();
            steps.forEach(s -> s.touches().forEach(t -> out.merge(t.object(), t.touches(), Double::sum)));
            return out;
        }

        /** Whether this pipeline touches no object more often than {@code other} does. */
        public boolean touchesAtMost(Work other) {
            Map<String, Double> theirs = other.touchesByObject();
            return touchesByObject().entrySet().stream()
                    .allMatch(e -> e.getValue() <= theirs.getOrDefault(e.getKey(), 0.0));
        }
    }

    public CostModel(Calibration cal) {
        this.cal = cal;
    }

    public Calibration calibration() {
        return cal;
    }

    public int nodes() {
        return cal.nodes();
    }

    private double cachePages() {
        return (double) cal.bufferPoolPages() * cal.nodes();
    }

    /**
     * Page reads of each step of {@code w}, its touches going through buffer pools of
     * {@code cache} pages that start empty and that all its objects share.
     *
     * <p>Che's approximation of an LRU cache (the pools run CLOCK, which behaves alike): a page
     * stays cached while it is touched again within the cache's characteristic time {@code t}.
     * With touches spread evenly over the run, object {@code o} ({@code P} pages, {@code T}
     * touches, {@code r = T/P} per page) has {@code P·(1−e^(−r·t))} of its pages in the cache;
     * {@code t} (a share of the run) makes the sum over objects the cache's size. A touch at time
     * {@code x} misses unless its page was touched in the {@code min(x, t)} before — the cache
     * starts empty — so a touch misses with probability {@code (1−e^(−r·t))/r + (1−t)·e^(−r·t)},
     * which is first touches only when everything touched fits ({@code t ≥ 1}). This is why a big
     * table probed early in a pipeline makes the probes of a smaller one later in it miss.
     */
    public static double[] reads(Work w, double cache) {
        Map<String, double[]> objects = new HashMap<>(); // object -> {pages, touches}
        for (Step s : w.steps()) {
            for (Touches t : s.touches()) {
                double[] o = objects.computeIfAbsent(t.object(), k -> new double[] {t.pages(), 0});
                o[1] += t.touches();
            }
        }
        double share = Math.min(1, characteristicShare(objects.values(), cache));
        Map<String, Double> missRate = new HashMap<>(); // reads per touch
        objects.forEach((name, o) -> {
            double rate = o[1] / Math.max(1, o[0]); // touches per page over the run
            // a touch at time x of the run misses unless its page was touched within min(x, t) before it
            missRate.put(name, rate <= 0 ? 0 : -Math.expm1(-rate * share) / rate + (1 - share) * Math.exp(-rate * share));
        });
        double[] reads = new double[w.steps().size()];
        for (int i = 0; i < reads.length; i++) {
            Step s = w.steps().get(i);
            reads[i] = s.leafReads();
            for (Touches t : s.touches()) {
                reads[i] += t.touches() * missRate.get(t.object());
            }
        }
        return reads;
    }

    /**
     * The share of the run within which the pages touched fill the cache (Che's characteristic
     * time); infinite when everything touched fits.
     */
    private static double characteristicShare(Iterable<double[]> objects, double cache) {
        DoubleUnaryOperator cached = t -> {
            double sum = 0;
            for (double[] o : objects) {
                double pages = Math.max(1, o[0]);
                sum += pages * -Math.expm1(-o[1] * t / pages);
            }
            return sum;
        };
        if (cached.applyAsDouble(1) <= cache) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            if (cached.applyAsDouble(mid) < cache) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Pages above the leaves of a table's tree or index, over all nodes: each node holds a tree of
     * its share of the {@code leafPages} leaves, with internal pages as full as the page format
     * allows for keys of {@code keyBytes}. A lookup descends through them, so they are touched as
     * often as the leaves are looked up: cached after a few touches, but read first like any page
     * — a selective join's dozens of lookups on cold caches read about as many internal pages as leaves.
     */
    public double innerPages(double leafPages, double keyBytes) {
        int fanout = PageFormat.internalFanout(cal.pageSize(), (int) Math.ceil(keyBytes));
        double perNode = Math.ceil(leafPages / cal.nodes());
        double inner = 0;
        while (perNode > 1) {
            perNode = Math.ceil(perNode / fanout);
            inner += perNode;
        }
        return Math.max(1, inner) * cal.nodes();
    }

    /** {@code lookups} descents through the clustered tree of {@code t}, to {@code leafTouches} leaf pages. */
    private List<Touches> treeLookups(TableFacts t, double lookups, double leafTouches) {
        return List.of(new Touches(t.name(), t.pages(), leafTouches),
                new Touches(t.name() + " inner", innerPages(t.pages(), t.primaryKeyBytes()), lookups));
    }

    /** {@code lookups} descents through the index of {@code t} leading with {@code column}. */
    private Touches indexInner(TableFacts t, String column, double lookups) {
        return new Touches(t.name() + " index " + column + " inner",
                innerPages(t.indexPages(column), t.indexKeyBytes(column)), lookups);
    }

    /**
     * An index range scan of {@code rows} rows: on every node one descent of the index, its leaves
     * in order, then each row from the clustered tree.
     */
    public Work indexRangeScan(TableFacts t, String column, double rows) {
        double leafReads = Math.ceil(t.indexPages(column) * rows / t.rows());
        List<Touches> touches = new ArrayList<>(treeLookups(t, rows, rows));
        touches.add(indexInner(t, column, cal.nodes()));
        return new Work(List.of(new Step(leafReads, touches, 0, rows, Math.max(1, rows))), 2);
    }

    /**
     * One probe step: {@code probes} join values looked up in {@code t} by {@code column}, giving
     * {@code matches} rows. By primary key the matches of a value sit together; through a GLOBAL
     * index each match is fetched from the node owning its key, batched per node.
     *
     * @param colocated whether each probe's value lives on the node of the row that probes with it
     *                  (tables partitioned alike on the join columns): then no probe leaves its node
     */
    public Work probe(Work in, TableFacts t, String column, double probes, double matches, boolean colocated) {
        double remote = colocated ? 0 : remoteShare();
        if (t.primaryKeyLead().equals(column)) {
            double pagesPerProbe = Math.max(1, matches / Math.max(1, probes) * t.rowBytes() / cal.pageSize());
            return in.plus(new Step(0, treeLookups(t, probes, probes * pagesPerProbe), probes * remote, matches,
                    Math.max(1, probes)), 1);
        }
        List<Touches> touches = new ArrayList<>(List.of(new Touches(t.name() + " index " + column, t.indexPages(column), probes),
                indexInner(t, column, probes)));
        touches.addAll(treeLookups(t, matches, matches));
        // each match is fetched from the node owning its key, in one batch per node
        double fetchBatches = probes * Math.min(matches / Math.max(1, probes) * remoteShare(), cal.nodes() - 1);
        return in.plus(new Step(0, touches, probes * remote + fetchBatches, matches, Math.max(1, probes)), 2);
    }

    /** Share of probes that leave their node when the join value is not co-located. */
    public double remoteShare() {
        return (cal.nodes() - 1) / (double) cal.nodes();
    }

    /**
     * Seconds of a PNLJ pipeline run by the daemons with {@code budget} probes in flight per node
     * (1: in order): the fixed cost of a join; the dependent round trips and reads from the first
     * outer row to its last match; the reads of each step that miss; and the CPU and network time
     * of every other row, at the cost of a probe into cached pages, and of each step's requests
     * that leave their node, at their cost on cached pages for as many probes in flight (what
     * co-located joins do not pay).
     *
     * <p>In order, a probe waits for its read and then for its request: the two add up, and the
     * reads go at the rate the engine's own in-order join reached cold. Out of order they overlap —
     * while some probes wait for the device, others use the cores — so the pipeline takes as long
     * as the busier of the two: the devices, serving the step's reads at the depth its probes in
     * flight keep ({@link #readsInFlight}, {@link Calibration.Disk#clusterIops}), or the cores.
     * A cold read is work for the cores too (the system call, the I/O thread, the page's checks):
     * the calibrated {@link Calibration.IndexJoin#readCpuSeconds} of every read counts with the
     * cores' time. Where reads are cheap for the cores the devices bound the join; where they are
     * not — two cores serving four nodes — the cores do, and reads and CPU hardly overlap.
     */
    public double pnljSeconds(Work w, int budget) {
        return pnljTime(w, budget).seconds();
    }

    /**
     * The parts of {@link #pnljSeconds}: the fixed cost and dependent chain, the reads' time and the
     * CPU and network's time (out of order: with the CPU of the reads), and whether the last two
     * overlap (out of order) or add up (in order).
     */
    public record PipelineTime(double fixed, double disk, double rowsCpu, double readsCpu, double requestsCpu,
                               boolean overlapped) {
        public double seconds() {
            return terms().seconds();
        }

        /** The cores' part: rows probed, the CPU of cold reads (out of order), remote requests. */
        public double cpu() {
            return rowsCpu + readsCpu + requestsCpu;
        }

        /** {@link #seconds} by what prices it. */
        public CostTerms terms() {
            return new CostTerms(fixed, disk, overlapped, rowsCpu, readsCpu, requestsCpu, 0, 0);
        }

        /**
         * Whether this pipeline costs no more than {@code other} however it continues: later steps
         * add the same to both, and the time grows with each part.
         */
        public boolean dominates(PipelineTime other) {
            return fixed <= other.fixed && disk <= other.disk && cpu() <= other.cpu();
        }
    }

    /**
     * Reads in flight per node when {@code probes} probes per node are in flight, each reading
     * {@code readsPerProbe} pages: out of order, a probe's reads (a GLOBAL-index probe fetching
     * thirty rows) go out together, and the probes in flight are mostly those waiting for a read —
     * the ones that hit the cache finish at once — so at least one read each. The calibrated rates
     * end at the nodes' I/O threads, beyond which no more reads can be outstanding.
     */
    static double readsInFlight(double probes, double readsPerProbe, int budget) {
        return budget == 1 ? 1 : probes * Math.max(1, readsPerProbe);
    }

    public PipelineTime pnljTime(Work w, int budget) {
        Calibration.IndexJoin ij = cal.indexJoin();
        double chain = w.depth() * (cal.network().roundTripMicros() / 1e6 + 1 / cal.disk().clusterIops(1, 1));
        double[] reads = reads(w, cachePages());
        double disk = 0;
        double remote = 0;
        double allReads = 0;
        for (int i = 0; i < reads.length; i++) {
            Step s = w.steps().get(i);
            double perNode = Math.max(1, Math.min(budget, s.parallelism() / cal.nodes()));
            double inFlight = readsInFlight(perNode, reads[i] / Math.max(1, s.parallelism()), budget);
            disk += reads[i] / (budget == 1 ? ij.readsPerSecond(inFlight)
                    : cal.disk().clusterIops(inFlight * cal.nodes(), cal.nodes()));
            remote += s.requests() * ij.requestSeconds(perNode);
            allReads += reads[i];
        }
        // In order a read's row and CPU are in its calibrated rate; out of order they are the cores' work beside the rest.
        double rowsCpu = (budget == 1 ? Math.max(0, w.rows() - allReads) : w.rows()) * ij.warmRowMicros() / 1e6;
        double readsCpu = budget == 1 ? 0 : allReads * ij.readCpuSeconds();
        return new PipelineTime(ij.dispatchSeconds() + chain, disk, rowsCpu, readsCpu, remote, budget > 1);
    }

    /**
     * A pipeline of estimated time {@code pipeline} run as a map-only MapReduce job, writing its
     * result rows for a PSMJ stage to read.
     *
     * @param resultRows the rows the job writes
     */
    public CostTerms pnljJob(PipelineTime pipeline, double resultRows) {
        return pipeline.terms().plusJob(-cal.indexJoin().dispatchSeconds(), cal.mapReduce().startupSeconds(), 0,
                resultRows * cal.mapReduce().outputRowMicros() / 1e6);
    }

    /**
     * One PSMJ job: start-up, the mappers' scan of both inputs, the shuffle of the rows that pass
     * them (the outer range is applied in the mapper), the reducers' output.
     *
     * @param scannedBytes  bytes the mappers read, both sides
     * @param shuffledRows  rows the mappers emit, both sides
     * @param outputRows    rows the reducers write
     */
    public CostTerms psmjStage(double scannedBytes, double shuffledRows, double outputRows) {
        Calibration.MapReduce mr = cal.mapReduce();
        return CostTerms.job(mr.stageStartupSeconds(), scannedBytes / (mr.scanMibPerSecond() * (1 << 20)),
                shuffledRows * mr.shuffleRowMicros() / 1e6, outputRows * mr.outputRowMicros() / 1e6);
    }
}
