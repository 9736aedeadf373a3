package org.oooengine.cluster.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.Format;
import org.oooengine.cluster.bench.JoinRunner;
import org.oooengine.cluster.bench.JoinMode;
import org.oooengine.cluster.bench.JoinResult;
import org.oooengine.cluster.bench.ResultTable;
import org.oooengine.cluster.bench.SweepPlot;
import org.oooengine.core.tpch.JoinQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench sweep}: every mode at every selectivity, as a table, JSON, a plot and markdown. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Time a join in every mode over a range of selectivities.",
                "At each selectivity every mode runs once untimed, then the modes take turns: the first timed run of each, "
                        + "then the second, so drifting noise affects them alike. "
                        + "Each run is reported on stderr; the table (median of the runs) goes to stdout. "
                        + "When a run fails, the selectivities finished before it are still written."})
final class BenchSweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    BenchOptions bench;

    @Option(names = "--selectivities", split = ",", defaultValue = "0.1,0.01,0.001,0.0001", paramLabel = "<fractions>",
            description = "comma-separated fractions of the outer table (default: ${DEFAULT-VALUE})")
    List<Double> selectivities;

    @Option(names = "--modes", split = ",", defaultValue = "ooo,inorder,hash", paramLabel = "<modes>",
            description = "comma-separated modes among ooo, inorder, inorder-sync, hash; on a cluster ooo, ooo-local, inorder, psmj, ooo-mr (default: ${DEFAULT-VALUE})")
    List<JoinMode> modes;

    @Option(names = "--json-out", paramLabel = "<file>", description = "write every run as a JSON array")
    Path jsonOut;

    @Option(names = "--plot", paramLabel = "<file.png>", description = "write a log-log plot of seconds against selectivity")
    Path plot;

    @Option(names = "--markdown", paramLabel = "<file.md>", description = "write the table as markdown")
    Path markdown;

    @Override
    public Integer call() {
        try { // refused now, not after the points before it have run
            selectivities.forEach(JoinQueries::checkSelectivity);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--selectivities: " + e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        List<JoinResult> results = new ArrayList<>();
        Double scaleFactor = null;
        RuntimeException failure = null;
        try (JoinRunner b = bench.open(spec)) {
            scaleFactor = b.scaleFactor();
            for (double selectivity : selectivities) {
                JoinQueries.Query q = b.query(bench.query.name(), selectivity);
                List<JoinRunner.Measurement> measurements = new ArrayList<>();
                for (JoinMode mode : modes) {
                    measurements.add(b.prepare(q, mode));
                }
                results.addAll(JoinRunner.interleave(measurements, b.settings(), r -> {
                    err.println(r.summary());
                    err.flush();
                }));
            }
        } catch (RuntimeException e) {
            if (results.isEmpty()) {
                throw e;
            }
            // an hour of runs stands: the selectivities finished before the failure are written
            failure = e;
        }
        ResultTable table = ResultTable.of(results);
        spec.commandLine().getOut().print(table.text());
        spec.commandLine().getOut().flush();
        write(table, results, scaleFactor);
        if (failure != null) {
            err.println("the sweep stopped; the selectivities measured before it are in the table and files above");
            throw failure;
        }
        return RowCheck.report(table, spec.commandLine());
    }

    private void write(ResultTable table, List<JoinResult> results, Double scaleFactor) {
        if (jsonOut != null) {
            Json.writeArray(jsonOut, results);
        }
        if (markdown != null) {
            writeString(markdown, table.markdown());
        }
        if (plot != null) {
            String sf = scaleFactor == null ? "" : ", SF " + Format.number(scaleFactor);
            SweepPlot.write(table, bench.query + ": seconds vs selectivity" + sf + (bench.cold ? ", cold" : ", warm"), plot);
        }
    }

    private static void writeString(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
