package org.oooengine.cluster.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;
import org.oooengine.mapreduce.JoinJobs;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.stats.ClusterStatistics;

/**
 * Measures a running cluster for the cost models ({@code ooo calibrate --cluster}): the device
 * under the cluster directory at queue depths 1..256, one connection's round trip and request
 * rate by requests in flight, the cost of a request and of a delivered row with every node busy,
 * a join's fixed cost, and the MapReduce framework's start-up, scan, output and shuffle rates. The
 * request, row and job figures come from the engine's own operators on a table of this cluster
 * (the largest of at most {@value #MAX_CALIBRATION_ROWS} rows), joined with itself on its key.
 */
public final class ClusterCalibrator {
    static final long MAX_CALIBRATION_ROWS = 2_000_000;
    private static final int[] IN_FLIGHT = {1, 16, 128, 1024};

    private final java.nio.file.Path clusterDir;
    private final Duration perTest;
    private final long fileBytes;
    private final Consumer<String> progress;

    public ClusterCalibrator(java.nio.file.Path clusterDir, Duration perTest, long fileBytes, Consumer<String> progress) {
        this.clusterDir = clusterDir;
        this.perTest = perTest;
        this.fileBytes = fileBytes;
        this.progress = progress;
    }

    public Calibration run() throws InterruptedException, IOException {
        try (ClusterSession session = ClusterSession.open(clusterDir, "coordinator", NodeDaemon.DEFAULT_TIMEOUT)) {
            ClusterSpec spec = session.spec();
            String first = spec.nodes().get(0).id();
            StoreManifest manifest = session.manifest(first);
            JsonNode nodeStats = session.stats().get(first);
            long poolPages = nodeStats.path("bufferPoolPages").asLong(0);
            if (poolPages == 0) {
                throw new IllegalStateException("node " + first + " does not report its buffer pool: restart the cluster"
                        + " with this version ('ooo cluster stop' and 'start')");
            }
            Map<String, TableStatistics> stats = ClusterStatistics.collect(session, false);
            StoreManifest.TableMeta table = calibrationTable(manifest, stats);

            progress.accept("disk: random reads at queue depths " + Arrays.toString(
                    org.oooengine.core.storage.Calibration.QUEUE_DEPTHS) + ", then sequential reads");
            org.oooengine.core.storage.Calibration.Result disk = new org.oooengine.core.storage.Calibration(
                    clusterDir, fileBytes, manifest.pageSize()).run(perTest,
                    org.oooengine.core.storage.Calibration.QUEUE_DEPTHS);

            progress.accept("network: requests to node " + first + " with " + Arrays.toString(IN_FLIGHT) + " in flight");
            FetchBench.Result fetch = new FetchBench(session, first, table.name(), FetchBench.DEFAULT_KEYS)
                    .run(IN_FLIGHT, perTest.toMillis() / 1000.0, l -> { });
            Map<Integer, Double> rate = new LinkedHashMap<>();
            fetch.levels().forEach(l -> rate.put(l.inFlight(), l.requestsPerSecond()));
            double bestRate = rate.values().stream().max(Double::compare).orElseThrow();

            progress.accept("rows: every node streams its partition of " + table.name());
            double rowMicros = 1e6 / scanRowsPerSecond(session, table.name());
            progress.accept("dispatch: one-row joins");
            double dispatch = dispatchSeconds(session, table, stats.get(table.name()));

            progress.accept("MapReduce: empty job, scans and a sort-merge join of " + table.name() + " with itself");
            Calibration.MapReduce mr = mapReduce(session, table, stats.get(table.name()));

            String shared = spec.nodes().get(0).host();
            int sharing = (int) spec.nodes().stream().filter(n -> n.host().equals(shared)).count();
            return new Calibration(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), spec.nodes().size(),
                    manifest.pageSize(), poolPages,
                    new Calibration.Disk(disk.sequentialMibPerSecond(), disk.randomIops(), sharing),
                    new Calibration.Network(fetch.levels().get(0).p50Us(), rate),
                    new Calibration.Cpu(1e6 / bestRate, rowMicros, dispatch), mr);
        }
    }

    /** The largest table small enough to scan and sort a few times in seconds, with a LOCAL index to range over. */
    static StoreManifest.TableMeta calibrationTable(StoreManifest manifest, Map<String, TableStatistics> stats) {
        return manifest.tables().stream()
                .filter(t -> t.indexes() != null && t.indexes().stream().anyMatch(i -> i.scopeOrLocal() == IndexScope.LOCAL))
                .filter(t -> stats.get(t.name()).rows() <= MAX_CALIBRATION_ROWS)
                .max(Comparator.comparingLong(t -> stats.get(t.name()).rows()))
                .orElseThrow(() -> new IllegalStateException("calibration needs a table of at most "
                        + MAX_CALIBRATION_ROWS + " rows with a LOCAL index; load data first"));
    }

    private static double scanRowsPerSecond(ClusterSession session, String table) {
        LongAdder rows = new LongAdder();
        long t0 = System.nanoTime();
        List<CompletableFuture<Long>> scans = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            scans.add(session.scan(n.id(), table, chunk -> rows.add(chunk.size())));
        }
        CompletableFuture.allOf(scans.toArray(CompletableFuture[]::new)).join();
        return rows.sum() / ((System.nanoTime() - t0) / 1e9);
    }

    /** The table joined with itself on its key, the range on its LOCAL index selecting one value. */
    private static JoinSpec selfJoin(StoreManifest.TableMeta t, ColumnRange range) {
        String key = t.primaryKey().get(0);
        String alias = t.name() + "_again";
        return new JoinSpec(t.name(), range, List.of(new JoinSpec.Probe(t.name() + "." + key, t.name(), key, alias)),
                List.of(t.name() + "." + key, alias + "." + key));
    }

    /** Median wall time of joins selecting one row: what every join pays before its first row. */
    private static double dispatchSeconds(ClusterSession session, StoreManifest.TableMeta t, TableStatistics stats) {
        StoreManifest.IndexMeta ix = t.indexes().stream().filter(i -> i.scopeOrLocal() == IndexScope.LOCAL)
                .findFirst().orElseThrow();
        String column = ix.columns().get(0);
        Object value = type(t, column).parseValue(stats.column(column).max());
        JoinSpec spec = selfJoin(t, new ColumnRange(column, value, value));
        double[] times = new double[7];
        for (int i = 0; i < times.length; i++) {
            times[i] = session.join(spec, ExecutionMode.OOO, JoinOptimizer.DEFAULT_BUDGET, new CountingSink()).seconds();
        }
        Arrays.sort(times);
        return times[times.length / 2];
    }

    private static DataType type(StoreManifest.TableMeta t, String column) {
        return t.schema().type(t.schema().indexOf(column));
    }

    /**
     * Start-up from empty jobs; the scan rate from a job that only reads the table; the output
     * cost from one that also writes it; the shuffle cost from the sort-merge self-join, whose
     * mappers read the table twice and emit every row twice, and whose reducers write it once.
     */
    private Calibration.MapReduce mapReduce(ClusterSession session, StoreManifest.TableMeta t, TableStatistics stats)
            throws IOException, InterruptedException {
        ClusterSpec cluster = session.spec();
        var secret = ClusterSpec.readSecret(clusterDir);
        Configuration conf = JoinJobs.localRunner(new Configuration(), cluster.nodes().size());
        java.nio.file.Path work = Files.createTempDirectory("ooo-calibrate-mr");
        try {
            JoinJobs.startupSeconds(conf); // loads Hadoop's classes
            double startup = median(JoinJobs.startupSeconds(conf), JoinJobs.startupSeconds(conf),
                    JoinJobs.startupSeconds(conf));
            double rows = stats.rows();
            double mib = stats.bytes() / (double) (1 << 20);
            double scan = JoinJobs.scan(conf, cluster, secret, t.name(), null).seconds();
            double scanMibPerSecond = mib / Math.max(1e-3, scan - startup);
            Path written = new Path(work.resolve("scan").toUri());
            double scanAndWrite = JoinJobs.scan(conf, cluster, secret, t.name(), written).seconds();
            double outputRowMicros = Math.max(0, scanAndWrite - scan) * 1e6 / rows;
            String key = t.primaryKey().get(0);
            DataType keyType = type(t, key);
            ColumnRange all = new ColumnRange(key, keyType.parseValue(stats.column(key).min()),
                    keyType.parseValue(stats.column(key).max()));
            double psmj = JoinJobs.psmj(conf, cluster, secret, selfJoin(t, all), cluster.nodes().size(),
                    new Path(work.resolve("psmj").toUri())).seconds();
            double shuffle = psmj - startup - 2 * mib / scanMibPerSecond - rows * outputRowMicros / 1e6;
            return new Calibration.MapReduce(startup, scanMibPerSecond, Math.max(0, shuffle) * 1e6 / (2 * rows),
                    outputRowMicros);
        } finally {
            Directories.deleteRecursively(work);
        }
    }

    private static double median(double... v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
