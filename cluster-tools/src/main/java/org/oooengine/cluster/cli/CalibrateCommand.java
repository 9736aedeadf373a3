package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.Format;
import org.oooengine.core.storage.Calibration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo calibrate}: what the disk under a directory delivers through the engine's read path. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure random-read IOPS at queue depth 1 and " + Calibration.DEEP_QUEUE
                + " and sequential MiB/s through the engine's own I/O path (direct I/O, positional reads).",
                "Writes a temporary file of --size-mb into --dir and deletes it afterwards; "
                        + "the directory's filesystem must support O_DIRECT."})
final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", defaultValue = "/tmp", paramLabel = "<path>", description = "directory on the disk to measure (default: ${DEFAULT-VALUE})")
    Path dir;

    @Option(names = "--seconds", defaultValue = "5", paramLabel = "S", description = "duration of each of the three tests (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--size-mb", defaultValue = "1024", paramLabel = "M",
            description = "size of the test file; larger than the device's cache gives honest figures (default: ${DEFAULT-VALUE})")
    int sizeMb;

    @Option(names = "--page-size", defaultValue = "" + TpchLoad.DEFAULT_PAGE_SIZE, paramLabel = "<bytes>",
            description = "bytes per random read (default: ${DEFAULT-VALUE})")
    int pageSize;

    @Option(names = "--json", description = "print the figures as one JSON object")
    boolean json;

    @Override
    public Integer call() {
        if (!(seconds > 0) || sizeMb < 1) {
            throw new ParameterException(spec.commandLine(), "--seconds and --size-mb must be positive");
        }
        spec.commandLine().getErr().printf("calibrating %s: writing a %d MiB file, then three read tests of %s s%n",
                dir, sizeMb, Format.number(seconds));
        spec.commandLine().getErr().flush();
        Calibration.Result r = new Calibration(dir, (long) sizeMb << 20, pageSize)
                .run(Duration.ofNanos((long) (seconds * 1e9)));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("randread_iops_qd1", Math.round(r.randomIopsQd1()));
        fields.put("randread_iops_qd" + Calibration.DEEP_QUEUE, Math.round(r.randomIopsDeep()));
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
            out.printf("random reads, queue depth %-4d %12s IOPS%n", Calibration.DEEP_QUEUE, Format.count(r.randomIopsDeep()));
            out.printf("sequential reads               %12s MiB/s%n", Format.count(r.sequentialMibPerSecond()));
            out.printf("(%d-byte pages, %s file in %s, %s s per test)%n", r.pageSize(), Format.mebibytes(r.fileBytes()),
                    dir, Format.number(r.secondsPerTest()));
        }
        out.flush();
        return 0;
    }
}
