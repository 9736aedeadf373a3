package org.oooengine.cluster.cli;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.oooengine.cluster.bench.QueryProfiles;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --profile <dir>}, which {@code bench tpch} and {@code bench tpcds} share. */
final class ProfileOption {
    @Option(names = "--profile", paramLabel = "<dir>",
            description = "record a CPU profile (Java Flight Recorder) of each query's timed runs on every node and in "
                    + "this process: <dir>/qNN-coordinator.jfr, each node's under its data directory "
                    + "(profiles/tpch-qNN.jfr or tpcds-qNN.jfr), and <dir>/qNN-profile.json naming them with their "
                    + "busiest methods")
    Path dir;

    boolean given() {
        return dir != null;
    }

    /** The directory, made if missing (null when not given); one that cannot be made is a usage error. */
    Path directory(CommandSpec spec) {
        if (dir == null) {
            return null;
        }
        try {
            return QueryProfiles.directory(dir);
        } catch (UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--profile: " + e.getMessage());
        }
    }
}
