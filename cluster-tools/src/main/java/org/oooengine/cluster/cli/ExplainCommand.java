package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.BenchSettings;
import org.oooengine.cluster.bench.ClusterJoinBench;
import org.oooengine.cluster.bench.JoinMode;
import org.oooengine.cluster.bench.JoinResult;
import org.oooengine.cluster.bench.QueryPlanner;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.optimizer.Explain;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.plan.Plan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo explain}: the optimizer's plan for a query, and with --analyze a run of it beside the estimates. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Print the plan the optimizer picks for a join on a calibrated cluster: the join order, per join "
                + "out-of-order PNLJ or PSMJ, and per operator its estimated rows and the seconds it adds.",
                "--analyze also runs the plan once with cold caches and prints the measured rows and time beside the "
                        + "estimates. Needs 'ooo calibrate --cluster' first."})
final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "a running, loaded, calibrated cluster")
    Path cluster;

    @Option(names = "--query", required = true, paramLabel = "OL|PL|Q3|Q8", description = "the join (see 'ooo bench join --help')")
    QueryName query;

    @Option(names = "--selectivity", required = true, paramLabel = "<fraction>",
            description = "fraction of the driving table the range selects, in (0, 1]")
    double selectivity;

    @Option(names = "--mode", defaultValue = "auto", paramLabel = "auto|ooo|inorder|psmj",
            description = "join methods the optimizer may use: auto (all), or only the one named (default: ${DEFAULT-VALUE})")
    JoinMode mode;

    @Option(names = {"--in-flight", "--inflight"}, defaultValue = "" + BenchSettings.DEFAULT_INFLIGHT, paramLabel = "N",
            description = "probes in flight per node for out-of-order index joins (default: ${DEFAULT-VALUE})")
    int inflight;

    @Option(names = "--analyze", description = "run the plan (cold caches) and print measured figures beside the estimates")
    boolean analyze;

    @Override
    public Integer call() {
        if (QueryPlanner.methods(mode).isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--mode must be auto, ooo, inorder or psmj; the optimizer "
                    + "does not plan " + mode);
        }
        if (!(selectivity > 0 && selectivity <= 1)) {
            throw new ParameterException(spec.commandLine(), "--selectivity must be in (0, 1], got " + selectivity);
        }
        Calibration.require(cluster);
        PrintWriter out = spec.commandLine().getOut();
        try (ClusterJoinBench bench = new ClusterJoinBench(cluster, new BenchSettings(true, inflight, null, 1))) {
            JoinQueries.Query q = bench.query(query.name(), selectivity);
            Plan plan = bench.plan(q, mode);
            Explain.Actual actual = null;
            if (analyze) {
                List<JoinResult> runs;
                try (Progress progress = Progress.of(spec)) {
                    // One untimed run first (it compiles the code), then the timed one.
                    progress.start("running the plan", 0, null);
                    runs = bench.measure(q, mode, r -> { });
                }
                JoinResult r = runs.get(runs.size() - 1);
                actual = new Explain.Actual(q.outerRows(), r.rows(), r.seconds(), r.jobSeconds());
            }
            out.println(Explain.text(plan, actual));
        }
        out.flush();
        return 0;
    }
}
