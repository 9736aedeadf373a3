package org.oooengine.cluster.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.JoinResult;
import org.oooengine.cluster.bench.ResultTable;
import org.oooengine.cluster.bench.SweepPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ooo bench report}: the table, markdown and plot of runs a sweep saved with --json-out. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Render runs saved by 'ooo bench sweep --json-out' again: the table on stdout, optionally "
                + "markdown and a plot (with the optimizer's estimates when the runs include mode auto).")
final class BenchReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--input", "--json"}, required = true, paramLabel = "<file>", description = "a JSON array of runs")
    Path json;

    @Option(names = "--markdown", paramLabel = "<file.md>", description = "write the table as markdown")
    Path markdown;

    @Option(names = "--plot", paramLabel = "<file.png>", description = "write a log-log plot of seconds against selectivity")
    Path plot;

    @Option(names = "--title", paramLabel = "<text>", defaultValue = "seconds vs selectivity",
            description = "the plot's title (default: ${DEFAULT-VALUE})")
    String title;

    @Override
    public Integer call() {
        List<JoinResult> runs;
        try {
            runs = List.of(new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(json.toFile(), JoinResult[].class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read runs from " + json + ": " + e.getMessage(), e);
        }
        ResultTable table = ResultTable.of(runs);
        PrintWriter out = spec.commandLine().getOut();
        out.print(table.text());
        out.flush();
        try {
            if (markdown != null) {
                Files.writeString(markdown, table.markdown());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + markdown, e);
        }
        if (plot != null) {
            SweepPlot.write(table, title, plot);
        }
        return 0;
    }
}
