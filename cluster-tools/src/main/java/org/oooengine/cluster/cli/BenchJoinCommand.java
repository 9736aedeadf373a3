package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.JoinRunner;
import org.oooengine.cluster.bench.JoinMode;
import org.oooengine.core.tpch.JoinQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ooo bench join}: one join, one mode, one line (or JSON object) per run. */
@Command(name = "join", mixinStandardHelpOptions = true,
        description = {"Time one selective join in one mode.",
                "ooo: index nested-loop join with --in-flight tasks in flight; inorder: the same join one task at a time; "
                        + "inorder-sync: in order with blocking reads on one thread (no I/O threads); hash: full-scan hash join.",
                "With --cluster, every node joins its partitions; ooo-local keeps local I/O out of order but awaits "
                        + "each remote probe, as an engine that is out of order only inside its storage; psmj runs Hadoop's "
                        + "parallel sort-merge join as a MapReduce job and ooo-mr the ooo join as a map-only job "
                        + "(local job runner; JSON adds job_startup_seconds, an empty job's wall time).",
                "auto lets the optimizer choose the join order and, per join, out-of-order PNLJ or PSMJ "
                        + "(needs 'ooo calibrate --cluster' first)."})
final class BenchJoinCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    BenchOptions bench;

    @Option(names = "--selectivity", required = true, paramLabel = "<fraction>",
            description = "fraction of the outer table the range selects, in (0, 1]")
    double selectivity;

    @Option(names = "--mode", required = true, paramLabel = "auto|ooo|inorder|inorder-sync|hash|ooo-local|psmj|ooo-mr",
            description = "how to run the join; on a cluster: auto (the optimizer's plan), ooo, ooo-local, inorder, "
                    + "psmj or ooo-mr. On a calibrated cluster auto, ooo, inorder and psmj run the optimizer's best plan "
                    + "for their join methods and add chosen and estimated_seconds to the JSON")
    JoinMode mode;

    @Option(names = "--json", description = "print one JSON object per run")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (JoinRunner b = bench.open(spec)) {
            JoinQueries.Query q = b.query(bench.query.name(), selectivity);
            b.measure(q, mode, r -> {
                out.println(json ? Json.line(r) : r.summary());
                out.flush();
            });
        }
        return 0;
    }
}
