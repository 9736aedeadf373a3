package org.oooengine.cluster.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench micro}: the JMH micro-benchmarks, with results as JMH's JSON. */
@Command(name = "micro", mixinStandardHelpOptions = true,
        description = {"Run the JMH micro-benchmarks: the buffer pool and B+tree lookup paths (StorageBenchmarks), the wire format of shuffled rows (WireBenchmarks), hash joins, decimal arithmetic and a GROUP BY on rows and on batches (OperatorBenchmarks).",
                "Prints JMH's report and writes its JSON results to --json-out."})
final class BenchMicroCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--filter", defaultValue = "org.oooengine.cluster.bench.micro.", paramLabel = "<regex>",
            description = "benchmarks to run, as a regular expression over their names (default: all)")
    String filter;

    @Option(names = "--forks", defaultValue = "3", paramLabel = "F",
            description = "JVM forks per benchmark; report medians over forks (default: ${DEFAULT-VALUE})")
    int forks;

    @Option(names = "--json-out", defaultValue = "jmh-result.json", paramLabel = "<file>",
            description = "where JMH writes its JSON results (default: ${DEFAULT-VALUE})")
    Path jsonOut;

    @Override
    public Integer call() throws RunnerException {
        if (forks < 1) {
            throw new ParameterException(spec.commandLine(), "--forks must be at least 1");
        }
        new Runner(new OptionsBuilder()
                .include(filter)
                .forks(forks)
                .jvmArgsAppend("-Xmx2g")
                .resultFormat(ResultFormatType.JSON)
                .result(jsonOut.toString())
                .build()).run();
        return 0;
    }
}
