package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.txn.Transfers;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.NodeDaemon;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench transfers}: money moved across the nodes of a running cluster, and checked; what the crash test drives. */
@Command(name = "transfers", mixinStandardHelpOptions = true,
        description = {"Move money between accounts on the transactional tables of a running cluster, each transfer a "
                + "transaction across nodes that records itself, and check the outcome.",
                "--setup opens the accounts; --duration runs transfers and appends the id of every one whose commit "
                        + "returned to --acked; --verify checks that every acknowledged transfer is recorded and that "
                        + "every balance is what the recorded transfers make of the opening ones, and that analytical "
                        + "copies (--setup --copies) come to hold what the tables hold. Prints one JSON object."})
final class BenchTransfersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<dir>", description = "the running cluster's directory")
    Path cluster;

    /** The step: one of --setup, --duration and --verify (checked in {@link #call}). */
    @Mixin
    Step step;

    static final class Step {
        @Option(names = "--setup", description = "create the tables and open the accounts (or --duration, or --verify)")
        boolean setup;

        @Option(names = {"--duration", "--seconds"}, paramLabel = "DURATION", converter = Units.InSeconds.class,
                description = "run transfers this long; a plain number is seconds")
        Double seconds;

        @Option(names = "--verify", description = "check the tables against --acked")
        boolean verify;
    }

    @Option(names = "--copies", description = "with --setup: every node also keeps analytical copies of the tables "
            + "(HTAP), which --verify then checks against them")
    boolean copies;

    @Option(names = "--accounts", defaultValue = "64", paramLabel = "N", description = "accounts (default: ${DEFAULT-VALUE})")
    int accounts;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "T", description = "client threads (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--acked", paramLabel = "<file>", description = "the file of acknowledged transfer ids")
    Path acked;

    @Option(names = "--patience", defaultValue = "60s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how long --verify waits for the nodes to settle transactions in doubt; a plain number is "
                    + "seconds (default: ${DEFAULT-VALUE})")
    double patience;

    @Override
    public Integer call() throws Exception {
        if ((step.setup ? 1 : 0) + (step.seconds != null ? 1 : 0) + (step.verify ? 1 : 0) != 1) {
            throw new ParameterException(spec.commandLine(), "give exactly one of --setup, --duration and --verify");
        }
        if (accounts < 2) {
            throw new ParameterException(spec.commandLine(), "--accounts must be at least 2");
        }
        if (threads < 1 || step.seconds != null && step.seconds <= 0 || patience < 0) {
            throw new ParameterException(spec.commandLine(), "--threads and --duration must be positive, --patience not negative");
        }
        if (copies && !step.setup) {
            throw new ParameterException(spec.commandLine(), "--copies goes with --setup (--verify finds the copies itself)");
        }
        if (!step.setup && acked == null) {
            throw new ParameterException(spec.commandLine(), "--duration and --verify need --acked <file>");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        try (ClusterSession session = ClusterSession.open(cluster, "transfers", NodeDaemon.DEFAULT_TIMEOUT)) {
            Transfers transfers = new Transfers(session);
            if (step.setup) {
                transfers.setUp(accounts, copies);
                out.put("accounts", accounts);
            } else if (step.seconds != null) {
                Transfers.Ran ran = transfers.run(accounts, step.seconds, threads, acked);
                out.put("committed", ran.committed());
                out.put("conflicts", ran.conflicts());
                out.put("failures", ran.failures());
                out.put("unknown_outcome", ran.unknown());
            } else {
                Transfers.Check check = transfers.verify(accounts, acked, patience);
                out.putAll(check.json());
                PrintWriter w = spec.commandLine().getOut();
                w.println(Json.line(out));
                w.flush();
                return check.ok() ? 0 : 1;
            }
        }
        PrintWriter w = spec.commandLine().getOut();
        w.println(Json.line(out));
        w.flush();
        return 0;
    }
}
