package org.oooengine.optimizer.cost;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.oooengine.core.storage.Directories;

/**
 * What this cluster measured of itself ({@code ooo calibrate --cluster}): the only inputs of the
 * cost models besides the statistics. Kept as {@value #FILE} in the cluster directory.
 *
 * @param measuredAt  when (ISO-8601)
 * @param nodes       node count
 * @param pageSize    bytes per page
 * @param bufferPoolPages pages one node's buffer pool holds
 * @param disk        the devices under the nodes' data directories (the median host), each shared by a host's nodes
 * @param network     one connection from the coordinator to a node
 * @param indexJoin   the engine's index join: fixed cost, reads per second cold by probes in flight, row cost warm
 * @param mapReduce   the job framework PSMJ runs on
 * @param spread      for a calibration of several runs ({@link CalibrationRuns}), how far each figure's runs
 *                    lay apart, (greatest - least) / median, by the figure's path ({@code disk.randomIops.64});
 *                    empty for a single run
 */
public record Calibration(String measuredAt, int nodes, int pageSize, long bufferPoolPages, Disk disk,
                          Network network, IndexJoin indexJoin, MapReduce mapReduce, Map<String, Double> spread) {
    public static final String FILE = "calibration.json";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public Calibration {
        spread = spread == null ? Map.of() : new TreeMap<>(spread);
    }

    /** One run's figures. */
    public Calibration(String measuredAt, int nodes, int pageSize, long bufferPoolPages, Disk disk, Network network,
                       IndexJoin indexJoin, MapReduce mapReduce) {
        this(measuredAt, nodes, pageSize, bufferPoolPages, disk, network, indexJoin, mapReduce, Map.of());
    }

    /**
     * @param sequentialMibPerSecond full-scan read rate
     * @param randomIops             random page reads per second at each queue depth (1..256)
     * @param sharedByNodes          how many nodes read from one device (the most on one host)
     */
    public record Disk(double sequentialMibPerSecond, Map<Integer, Double> randomIops, int sharedByNodes) {
        public Disk {
            randomIops = new TreeMap<>(randomIops);
        }

        /** Reads per second the whole cluster gets with {@code inFlight} random reads outstanding over all nodes. */
        public double clusterIops(double inFlight, int nodes) {
            int devices = Math.max(1, nodes / Math.max(1, sharedByNodes));
            return devices * interpolate(randomIops, inFlight / devices);
        }
    }

    /**
     * @param roundTripMicros   median round trip of one request alone on the connection
     * @param requestsPerSecond requests per second by requests in flight
     */
    public record Network(double roundTripMicros, Map<Integer, Double> requestsPerSecond) {
        public Network {
            requestsPerSecond = new TreeMap<>(requestsPerSecond);
        }
    }

    /**
     * The engine's own index join on this cluster, measured on the calibration table joined with
     * itself twice, caches emptied: on its primary key, where every probe stays on its node, for the
     * rate of reads and what a read costs the cores; through a GLOBAL index, where probes and fetches go to other nodes, for the cost
     * of a remote request on top of its reads.
     *
     * @param dispatchSeconds    a one-row join's wall time: plan shipped to every node, fragments started and ended
     * @param coldReadsPerSecond page reads per second over the whole cluster, by reads in flight per node (1: in
     *                           order), each read with the CPU work of the row it brings; measured where each
     *                           probe reads one page, so probes in flight are reads in flight
     * @param requestMicros      wall time a remote request adds on cached pages, by probes in flight per node
     *                           (the reads it causes on its node count as reads)
     * @param warmRowMicros      wall time per joined row when its pages are cached and its probe is local: the CPU of a probe
     * @param readCpuMicros      the cores' time a cold read costs beyond its row's (system calls, I/O threads, checks),
     *                           as wall time with every core of the cluster at work: the CPU the nodes spent on the
     *                           out-of-order cold join, over the hosts' cores, less its rows' cost, per read
     * @param coldCoresBusy      the share of the hosts' cores the nodes kept busy in that join: near 1, its reads
     *                           waited for the cores rather than the devices
     */
    public record IndexJoin(double dispatchSeconds, Map<Integer, Double> coldReadsPerSecond,
                            Map<Integer, Double> requestMicros, double warmRowMicros, double readCpuMicros,
                            double coldCoresBusy) {
        public IndexJoin {
            coldReadsPerSecond = new TreeMap<>(coldReadsPerSecond);
            requestMicros = new TreeMap<>(requestMicros);
            if (!(coldCoresBusy > 0)) {
                throw new IllegalArgumentException("the calibration has no CPU cost of a cold read (made by an older "
                        + "version): run 'ooo calibrate --cluster' again");
            }
        }

        /** Seconds of the cores a cold read costs beyond its row's. */
        public double readCpuSeconds() {
            return readCpuMicros / 1e6;
        }

        /** Cold reads per second at {@code perNode} reads in flight per node. */
        public double readsPerSecond(double perNode) {
            return interpolate(coldReadsPerSecond, perNode);
        }

        /** Seconds a remote request adds at {@code perNode} probes in flight per node. */
        public double requestSeconds(double perNode) {
            // latency shared by the requests in flight: a power law between the points measured
            return interpolatePowerLaw(requestMicros, perNode) / 1e6;
        }
    }

    /**
     * @param startupSeconds       a map-only job's wall time when it reads next to nothing: its tasks started and ended
     * @param stageStartupSeconds  a PSMJ stage's wall time when it joins next to nothing: map and reduce tasks, shuffle, commit
     * @param scanMibPerSecond     a map-only scan of store partitions, bytes of the clustered trees per second
     * @param shuffleRowMicros     one map output row partitioned, sorted, shuffled and merged by a reducer
     * @param outputRowMicros      one joined row written by a reducer (or a map-only job)
     */
    public record MapReduce(double startupSeconds, double stageStartupSeconds, double scanMibPerSecond,
                            double shuffleRowMicros, double outputRowMicros) {
        public MapReduce {
            if (!(stageStartupSeconds > 0)) {
                throw new IllegalArgumentException("the calibration has no PSMJ stage start-up (made by an older "
                        + "version): run 'ooo calibrate --cluster' again");
            }
        }
    }

    public static Path file(Path clusterDir) {
        return clusterDir.resolve(FILE);
    }

    public static Optional<Calibration> read(Path clusterDir) {
        Path f = file(clusterDir);
        return Files.exists(f) ? Optional.of(readFile(f)) : Optional.empty();
    }

    /** The calibration in file {@code f} (a copy of a cluster's, say). */
    public static Calibration readFile(Path f) {
        try {
            return JSON.readValue(f.toFile(), Calibration.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read calibration " + f + ": " + e.getMessage(), e);
        }
    }

    /** The calibration of a cluster, or an error telling how to make one. */
    public static Calibration require(Path clusterDir) {
        return read(clusterDir).orElseThrow(() -> new IllegalStateException("cluster " + clusterDir
                + " is not calibrated: run 'ooo calibrate --cluster " + clusterDir + "' first"));
    }

    public void write(Path clusterDir) {
        Path f = file(clusterDir);
        try {
            Path tmp = f.resolveSibling(FILE + ".tmp");
            try (OutputStream out = Directories.newPrivateOutputStream(tmp)) {
                JSON.writeValue(out, this);
            }
            Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write calibration " + f + ": " + e.getMessage(), e);
        }
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As {@link #interpolate}, but linear in the logarithm of the value too: for costs that fall as a power of x. */
    static double interpolatePowerLaw(Map<Integer, Double> measured, double x) {
        Map<Integer, Double> logs = new TreeMap<>();
        measured.forEach((k, v) -> logs.put(k, Math.log(Math.max(v, 1e-9))));
        return Math.exp(interpolate(logs, x));
    }

    /**
     * A rate measured at some points, at any other: linear in log(x) between the two nearest,
     * flat beyond the ends (a deeper queue than measured gains nothing more).
     */
    static double interpolate(Map<Integer, Double> measured, double x) {
        NavigableMap<Integer, Double> m = measured instanceof NavigableMap<Integer, Double> n ? n : new TreeMap<>(measured);
        if (m.isEmpty()) {
            throw new IllegalStateException("no measurements to interpolate");
        }
        Map.Entry<Integer, Double> lo = m.floorEntry((int) Math.floor(x));
        Map.Entry<Integer, Double> hi = m.ceilingEntry((int) Math.ceil(x));
        if (lo == null) {
            return m.firstEntry().getValue();
        }
        if (hi == null) {
            return m.lastEntry().getValue();
        }
        if (hi.getKey().equals(lo.getKey())) {
            return lo.getValue();
        }
        double t = (Math.log(x) - Math.log(lo.getKey())) / (Math.log(hi.getKey()) - Math.log(lo.getKey()));
        return lo.getValue() + t * (hi.getValue() - lo.getValue());
    }
}
