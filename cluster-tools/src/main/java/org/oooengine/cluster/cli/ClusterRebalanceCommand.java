package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.cluster.ReplicaRepair;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ooo cluster rebalance}: puts back the copies of partitions that nodes lack. */
@Command(name = "rebalance", mixinStandardHelpOptions = true,
        description = {"Copy onto each node the partitions it should hold and lacks (a node restarted empty after "
                + "its disk was replaced, or one that lost tables), from the nodes that hold them, while queries run.",
                "A node serves a table again once all its partitions of it are back. Exit status 1 when a partition "
                        + "has no copy left on a node that answers."})
final class ClusterRebalanceCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"--cluster", "--dir"}, required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
    Path dir;

    @Option(names = "--max-rate", defaultValue = "64m", paramLabel = "SIZE", converter = Units.MiB.class,
            description = "the most bytes a second the copies move, all together (a plain number is MiB; 0: no limit; "
                    + "default: ${DEFAULT-VALUE})")
    long maxRate;

    @Option(names = "--dry-run", description = "only print what would be copied")
    boolean dryRun;

    @Option(names = "--json", description = "print one JSON object: what was copied, lost and down, with bytes and seconds")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ClusterSpec cluster = ClusterSpec.read(dir);
        if (cluster.replication() < 2) {
            out.println("each partition is on one node (replication 1): there are no copies to put back");
            return 0;
        }
        try (ClusterSession session = ClusterSession.open(dir, "rebalance", NodeDaemon.DEFAULT_TIMEOUT);
             Progress progress = Progress.of(spec)) {
            ReplicaRepair repair = new ReplicaRepair(session.peers(), maxRate);
            ReplicaRepair.Plan plan = repair.plan();
            if (!json) {
                describe(out, plan);
            }
            Map<String, Object> summary = new LinkedHashMap<>();
            List<Map<String, Object>> tables = new java.util.ArrayList<>();
            long t0 = System.nanoTime();
            if (!dryRun && !plan.nothingToDo()) {
                repair.run(plan, new ReplicaRepair.Listener() {
                    private long copied;

                    @Override
                    public void tableStarted(String node, String table, long bytes) {
                        copied = 0;
                        progress.start(table + " onto " + node, bytes >> 20, "MiB");
                    }

                    @Override
                    public void copied(long bytes) {
                        copied += bytes;
                        progress.update(copied >> 20);
                    }

                    @Override
                    public void tableDone(String node, String table, long rows, long bytes, Duration took) {
                        progress.done();
                        Map<String, Object> t = new LinkedHashMap<>();
                        t.put("node", node);
                        t.put("table", table);
                        t.put("rows", rows);
                        t.put("bytes", bytes);
                        t.put("seconds", took.toMillis() / 1000.0);
                        tables.add(t);
                        if (!json) {
                            out.printf(Locale.ROOT, "%s: %s back (%d rows, %.1f MiB in %.1f s)%n", node, table, rows,
                                    bytes / 1048576.0, took.toMillis() / 1000.0);
                        }
                    }
                });
            }
            if (json) {
                summary.put("copied", tables);
                summary.put("lost", plan.lost());
                summary.put("down", plan.down());
                summary.put("dryRun", dryRun);
                summary.put("planned", plan.copies());
                summary.put("seconds", (System.nanoTime() - t0) / 1e9);
                out.println(Json.line(summary));
            } else if (plan.nothingToDo()) {
                out.println("every node holds all its partitions");
            }
            return plan.lost().isEmpty() ? 0 : 1;
        }
    }

    private static void describe(PrintWriter out, ReplicaRepair.Plan plan) {
        for (String node : plan.down()) {
            out.printf("%s does not answer: it is left as it is%n", node);
        }
        for (ReplicaRepair.Copy c : plan.copies()) {
            out.printf("%s lacks partition %d of %s%s: copying %s from %s%n", c.to(), c.partition(),
                    c.transactional() ? "transactional table " : "", c.table(), c.fromStored(), c.from());
        }
        for (ReplicaRepair.Lost l : plan.lost()) {
            out.printf("partition %d of %s is on none of %s that answers: load the table again%n", l.partition(),
                    l.table(), l.holders());
        }
    }
}
