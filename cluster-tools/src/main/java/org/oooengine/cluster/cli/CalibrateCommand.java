package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.ClusterCalibrator;
import org.oooengine.cluster.bench.Format;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.units.Sizes;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CalibrationRuns;
import org.oooengine.optimizer.history.CalibrationRefit;
import org.oooengine.optimizer.history.JoinRun;
import org.oooengine.optimizer.history.JoinRunHistory;
import org.oooengine.optimizer.history.RefitFigure;
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
                        + "<cluster-dir>/" + Calibration.FILE + " (about two minutes at SF 1 with --duration 1s).",
                "With --repeat N, the cluster is measured N times and each figure stored is the median of its runs, "
                        + "with how far the runs lay apart (its spread).",
                "With --from-history, measures nothing: refits the figures of the cluster's calibration that "
                        + "price the cores' work (µs per cached row, per cold read, per remote request, per shuffled "
                        + "and per written row) and MapReduce's start-up and scan rate to the "
                        + "cold runs of planned joins recorded in <cluster-dir>/" + JoinRunHistory.FILE + " (by ooo bench "
                        + "join, ooo bench sweep and ooo explain --analyze), and stores the calibration refitted.",
                "With --compare A B, measures nothing: prints how far each figure of calibration B lies from A's "
                        + "(each a cluster directory or a calibration file) and exits 1 when any lies more than "
                        + "--tolerance apart."})
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

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "with --cluster: measure N times and store each figure's median and spread (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--compare", arity = "2", paramLabel = "<calibration>",
            description = "compare two calibrations (cluster directories or calibration files) figure by figure")
    List<Path> compare;

    @Option(names = "--from-history", description = "with --cluster: refit the CPU, start-up and scan figures to the recent runs of planned joins")
    boolean fromHistory;

    @Option(names = "--last", defaultValue = "200", paramLabel = "N",
            description = "with --from-history: how many of the newest runs to fit (default: ${DEFAULT-VALUE})")
    int last;

    @Option(names = "--tolerance", defaultValue = "10", paramLabel = "PERCENT",
            description = "with --compare: how far apart a figure may lie, in percent of the first's (default: ${DEFAULT-VALUE})")
    double tolerance;

    @Override
    public Integer call() throws Exception {
        if (duration.isZero() || fileSize < Sizes.MIB || pageSize < 1 || pageSize > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "--duration must be positive, --file-size at least 1m, "
                    + "--page-size from 1 byte to 2g");
        }
        if (repeat < 1 || !(tolerance >= 0)) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1 and --tolerance not negative");
        }
        if (compare != null) {
            return compare();
        }
        boolean measuring = spec.commandLine().getParseResult().hasMatchedOption("--repeat");
        if (fromHistory) {
            if (cluster == null || last < 1 || measuring) {
                throw new ParameterException(spec.commandLine(), "--from-history needs --cluster and --last at least 1; "
                        + "it measures nothing, so --repeat does not apply");
            }
            return refitFromHistory();
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--last")) {
            throw new ParameterException(spec.commandLine(), "--last applies to --from-history only");
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
        Calibration c;
        List<Calibration> runs = new ArrayList<>();
        try (Progress progress = Progress.of(spec)) {
            int[] stepsDone = {0};
            int steps = ClusterCalibrator.STEPS * repeat;
            progress.start("calibrating", steps, "steps");
            for (int run = 1; run <= repeat; run++) {
                String which = repeat == 1 ? "" : " (run " + run + " of " + repeat + ")";
                runs.add(new ClusterCalibrator(cluster, Duration.ofMillis(duration.toMillis()), fileSize, what -> {
                    progress.note("calibrating " + cluster + which + ": " + what);
                    progress.update(stepsDone[0]++);
                }).run());
            }
            progress.update(steps);
        }
        c = CalibrationRuns.combine(runs);
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
            if (!c.spread().isEmpty()) {
                Map.Entry<String, Double> widest = c.spread().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
                out.printf("spread         medians of %d runs; runs lay %s%% apart at the median figure, %s%% at most (%s)%n",
                        runs.size(), Format.significant(100 * CalibrationRuns.median(
                                c.spread().values().stream().mapToDouble(Double::doubleValue).toArray())),
                        Format.significant(100 * widest.getValue()), widest.getKey());
            }
            out.printf("stored in %s%n", Calibration.file(cluster));
        }
        out.flush();
        return 0;
    }

    /** {@code --from-history}: the calibration's CPU, start-up and scan figures refitted to the recent cold runs, stored. */
    private int refitFromHistory() {
        Calibration before = Calibration.require(cluster);
        JoinRunHistory history = new JoinRunHistory(cluster);
        List<JoinRun> runs = history.recent(last);
        CalibrationRefit.Result r = CalibrationRefit.fit(before, runs);
        if (r.parts() == 0) {
            throw new IllegalStateException("no cold runs of planned joins in " + history.file() + " (" + runs.size()
                    + " runs, none cold with their rows estimated within 2x): run 'ooo bench sweep --cluster " + cluster + " --cold' or 'ooo explain --cluster "
                    + cluster + " --analyze' first");
        }
        r.refitted().write(cluster);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("parts", r.parts());
            fields.put("runs_skipped", r.runsSkipped());
            fields.put("median_error_before", r.errorBefore());
            fields.put("median_error_after", r.errorAfter());
            Map<String, Object> figures = new LinkedHashMap<>();
            for (RefitFigure f : RefitFigure.values()) {
                figures.put(f.path(), Map.of("before", f.of(before), "after", f.of(r.refitted()),
                        "factor", f.of(r.refitted()) / f.of(before), "weight", r.weight().get(f)));
            }
            fields.put("figures", figures);
            out.println(Json.line(fields));
        } else {
            out.printf("refitted to %d timed parts of the %d newest runs (%d left out: warm, not timed, or rows "
                            + "misestimated more than 2x)%n", r.parts(),
                    runs.size(), r.runsSkipped());
            out.printf("  %-30s %10s %10s %8s %8s%n", "figure", "before", "after", "factor", "weight");
            for (RefitFigure f : RefitFigure.values()) {
                out.printf("  %-30s %10s %10s %8s %8s%n", f.path(), Format.significant(f.of(before)),
                        Format.significant(f.of(r.refitted())), Format.significant(f.of(r.refitted()) / f.of(before)),
                        Format.significant(r.weight().get(f)));
            }
            out.printf("median |estimate / measured - 1| of those parts: %s%% before, %s%% after%n",
                    Format.significant(100 * r.errorBefore()), Format.significant(100 * r.errorAfter()));
            out.printf("stored in %s%n", Calibration.file(cluster));
        }
        out.flush();
        return 0;
    }

    /** {@code --compare A B}: each figure of B against A's; 1 when any lies beyond the tolerance. */
    private int compare() {
        Calibration a = readCalibration(compare.get(0));
        Calibration b = readCalibration(compare.get(1));
        Map<String, Double> differences = CalibrationRuns.differences(a, b);
        List<Map.Entry<String, Double>> beyond = CalibrationRuns.beyond(differences, tolerance / 100);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("figures", differences.size());
            fields.put("tolerance_percent", tolerance);
            fields.put("beyond", beyond.size());
            fields.put("differences", differences);
            out.println(Json.line(fields));
        } else {
            out.printf("%d of %d figures within %s%% (%s measured %s, %s measured %s)%n", differences.size() - beyond.size(),
                    differences.size(), Format.significant(tolerance), compare.get(0), a.measuredAt(), compare.get(1),
                    b.measuredAt());
            for (Map.Entry<String, Double> e : beyond) {
                out.printf("  %-40s %s%% apart%n", e.getKey(), Format.significant(100 * e.getValue()));
            }
        }
        out.flush();
        return beyond.isEmpty() ? 0 : 1;
    }

    /** A cluster directory's calibration, or a calibration file's. */
    private Calibration readCalibration(Path p) {
        if (!java.nio.file.Files.isDirectory(p)) {
            return Calibration.readFile(p);
        }
        return Calibration.read(p).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "no calibration in " + p + " (" + Calibration.file(p) + ")"));
    }
}
