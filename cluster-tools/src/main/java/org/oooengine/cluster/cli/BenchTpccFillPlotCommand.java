package org.oooengine.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.tpcc.TpccFillPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench tpcc-fill-plot}: the plots of tpcc-fill runs side by side, a series per policy. */
@Command(name = "tpcc-fill-plot", mixinStandardHelpOptions = true,
        description = "Plot the order tables' fill over the run and their leaves' fill histogram from the JSON that "
                + "'ooo bench tpcc-fill --json' printed, one series per run (policy).")
final class BenchTpccFillPlotCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "<run.json>", description = "files each holding one run's JSON line")
    List<Path> runs;

    @Option(names = "--fill-over-time", paramLabel = "<file.png>", description = "write the fill over time plot here")
    Path fillOverTime;

    @Option(names = "--histogram", paramLabel = "<file.png>", description = "write the fill histogram plot here")
    Path histogram;

    @Override
    public Integer call() {
        if (fillOverTime == null && histogram == null) {
            throw new ParameterException(spec.commandLine(), "nothing to write: give --fill-over-time and/or --histogram");
        }
        List<JsonNode> parsed = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Path run : runs) {
            try {
                JsonNode j = json.readTree(Files.readString(run));
                if (j == null || !j.has("policy") || !j.has("fill_over_time")) {
                    throw new ParameterException(spec.commandLine(), run + " is not the JSON of a tpcc-fill run");
                }
                parsed.add(j);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "cannot read " + run + ": " + e.getMessage());
            }
        }
        if (fillOverTime != null) {
            TpccFillPlot.fillOverTime(parsed, fillOverTime);
        }
        if (histogram != null) {
            TpccFillPlot.histogram(parsed, histogram);
        }
        return 0;
    }
}
