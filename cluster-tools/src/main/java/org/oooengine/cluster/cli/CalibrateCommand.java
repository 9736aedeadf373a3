package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.ClusterCalibrator;
import org.oooengine.cluster.bench.Format;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.units.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo calibrate}: what the disk under a directory delivers through the engine's read path. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure random-read IOPS at queue depth 1 and " + DiskProbe.DEEP_QUEUE
                + " and sequential MiB/s through the engine's own I/O path (direct I/O, positional reads).",
                "Writes a temporary file of --file-size into --disk and deletes it afterwards; "
                        + "the directory's filesystem must support O_DIRECT.",
                "With --cluster, measures a running cluster for the optimizer's cost models instead — the disk at queue "
                        + "depths 1..256 (a file of --file-size in a node's data directory, one node per host), round trip and requests per second by requests in flight, the index join's fixed "
                        + "cost, cold reads per second, what a cold read costs the cores and cached row cost, MapReduce "
                        + "start-up, scan, output and shuffle — "
                        + "and stores them as "
                        + "<cluster-dir>/" + org.oooengine.optimizer.cost.Calibration.FILE + " (about two minutes at SF 1 with --duration 1s)."})
final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", paramLabel = "<cluster-dir>", description = "calibrate this running cluster for the optimizer")
    Path cluster;

    @Option(names = {"--disk", "--dir"}, defaultValue = "/tmp", paramLabel = "<path>",
            description = "a directory on the disk to measure (default: ${DEFAULT-VALUE})")
    Path dir;

    @Option(names = {"--duration", "--seconds"}, defaultValue = "5s", paramLabel = "DURATION", converter = Units.Seconds.class,
            description = "duration of each read test (three with --disk; five disk and four network levels with "
                    + "--cluster); a plain number is seconds (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = {"--file-size", "--size-mb"}, defaultValue = "1g", paramLabel = "SIZE", converter = Units.MiB.class,
            description = "size of the test file; larger than the device's cache gives honest figures; a plain number "
                    + "is MiB (default: ${DEFAULT-VALUE})")
    long fileSize;

    @Option(names = "--page-size", defaultValue = "8k", paramLabel = "SIZE", converter = Units.Bytes.class,
            description = "bytes per random read; a plain number is bytes (default: ${DEFAULT-VALUE})")
    long pageSize;

    @Option(names = "--json", description = "print the figures as one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (duration.isZero() || fileSize < Sizes.MIB || pageSize < 1 || pageSize > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "--duration must be positive, --file-size at least 1m, "
                    + "--page-size from 1 byte to 2g");
        }
        double seconds = duration.toNanos() / 1e9;
        if (cluster != null) {
            return calibrateCluster();
        }
        DiskProbe.Result r;
        try (Progress progress = Progress.of(spec)) {
            progress.note(String.format("calibrating %s: writing a %s file, then three read tests of %s s", dir,
                    Format.mebibytes(fileSize), Format.significant(seconds)));
            progress.start("calibrating", 0, null);
            r = new DiskProbe(dir, fileSize, (int) pageSize).run(duration);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("randread_iops_qd1", Math.round(r.randomIopsQd1()));
        fields.put("randread_iops_qd" + DiskProbe.DEEP_QUEUE, Math.round(r.randomIopsDeep()));
        fields.put("seqread_mib_s", Math.round(r.sequentialMibPerSecond() * 10) / 10.0);
        fields.put("page_size", r.pageSize());
        fields.put("file_mb", Math.round(r.fileBytes() / (double) (1 << 20)));
        fields.put("seconds", r.secondsPerTest());
        fields.put("dir", dir.toString());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(fields));
        } else {
            out.printf("random reads, queue depth 1    %12s IOPS%n", Format.count(r.randomIopsQd1()));
            out.printf("random reads, queue depth %-4d %12s IOPS%n", DiskProbe.DEEP_QUEUE, Format.count(r.randomIopsDeep()));
            out.printf("sequential reads               %12s MiB/s%n", Format.count(r.sequentialMibPerSecond()));
            out.printf("(%d-byte pages, %s file in %s, %s s per test)%n", r.pageSize(), Format.mebibytes(r.fileBytes()),
                    dir, Format.significant(r.secondsPerTest()));
        }
        out.flush();
        return 0;
    }

    private int calibrateCluster() throws Exception {
        org.oooengine.optimizer.cost.Calibration c;
        try (Progress progress = Progress.of(spec)) {
            int[] stepsDone = {0};
            progress.start("calibrating", ClusterCalibrator.STEPS, "steps");
            c = new ClusterCalibrator(cluster, Duration.ofMillis(duration.toMillis()), fileSize, what -> {
                progress.note("calibrating " + cluster + ": " + what);
                progress.update(stepsDone[0]++);
            }).run();
            progress.update(ClusterCalibrator.STEPS);
        }
        c.write(cluster);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(c));
        } else {
            out.printf("disk           %s random reads/s by queue depth, %s MiB/s sequential (%d nodes share it)%n",
                    c.disk().randomIops().entrySet().stream().map(e -> e.getKey() + ":" + Format.count(e.getValue())).toList(),
                    Format.count(c.disk().sequentialMibPerSecond()), c.disk().sharedByNodes());
            out.printf("network        round trip %s us; %s requests/s by requests in flight%n",
                    Format.significant(c.network().roundTripMicros()),
                    c.network().requestsPerSecond().entrySet().stream().map(e -> e.getKey() + ":" + Format.count(e.getValue())).toList());
            out.printf("index join     %s s fixed; by probes in flight per node: %s cold reads/s, %s us per remote request; "
                            + "%s us per cached row; a cold read costs the cores %s us (%s%% of them busy)%n",
                    Format.significant(c.indexJoin().dispatchSeconds()),
                    c.indexJoin().coldReadsPerSecond().entrySet().stream().map(e -> e.getKey() + ":" + Format.count(e.getValue())).toList(),
                    c.indexJoin().requestMicros().entrySet().stream().map(e -> e.getKey() + ":" + Format.significant(e.getValue())).toList(),
                    Format.significant(c.indexJoin().warmRowMicros()), Format.significant(c.indexJoin().readCpuMicros()),
                    Format.count(100 * c.indexJoin().coldCoresBusy()));
            out.printf("mapreduce      start-up %s s map-only, %s s per PSMJ stage; scan %s MiB/s, %s us per output row, "
                            + "%s us per shuffled row%n", Format.significant(c.mapReduce().startupSeconds()),
                    Format.significant(c.mapReduce().stageStartupSeconds()), Format.count(c.mapReduce().scanMibPerSecond()),
                    Format.significant(c.mapReduce().outputRowMicros()), Format.significant(c.mapReduce().shuffleRowMicros()));
            out.printf("stored in %s%n", org.oooengine.optimizer.cost.Calibration.file(cluster));
        }
        out.flush();
        return 0;
    }
}
