package org.oooengine.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.chbench.ChPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench chbench-plot}: CH-benCHmark runs over time, side by side. */
@Command(name = "chbench-plot", mixinStandardHelpOptions = true,
        description = "Plot TPC-C's commits a second, the queries answered, and the copies' freshness and lag over "
                + "time from the series 'ooo bench chbench --series' wrote, one series per run (its mode).")
final class BenchChbenchPlotCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "<series.json>", description = "files each holding one run's series")
    List<Path> runs;

    @Option(names = "--out", required = true, paramLabel = "<file.png>", description = "write the plot here")
    Path out;

    @Override
    public Integer call() {
        List<JsonNode> parsed = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Path run : runs) {
            try {
                JsonNode j = json.readTree(Files.readString(run));
                if (j == null || !j.has("mode") || !j.path("series").isArray()) {
                    throw new ParameterException(spec.commandLine(), run + " is not the series of a chbench run");
                }
                parsed.add(j);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "cannot read " + run + ": " + e.getMessage());
            }
        }
        ChPlot.write(parsed, out);
        return ExitCodes.OK;
    }
}
