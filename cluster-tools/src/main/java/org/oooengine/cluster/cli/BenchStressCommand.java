package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.stress.StressRun;
import org.oooengine.cluster.bench.tpch.TpchQueries;
import org.oooengine.cluster.launch.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench stress}: clients running statements that exhaust the nodes, with the nodes' status watched. */
@Command(name = "stress", mixinStandardHelpOptions = true,
        description = {"Run statements meant to exhaust the nodes' memory and disk (a cross join of lineitem and "
                + "orders with LIMIT 10, a self-join of lineitem on l_partkey grouped by both keys) and TPC-H queries "
                + "from --clients connections to a running local cluster's SQL endpoint for --duration, while every "
                + "node is asked for its status each --probe-every.",
                "Reports how each statement ended (successes, failures by SQLSTATE with examples), the status "
                        + "probes' slowest answer and every moment a node was not up or answered later than "
                        + "--probe-limit, and a TPC-H query's median time before and after. Exit code 0 when every "
                        + "node answered in time, every failure had a named cause (53xxx, 57014, 40001, 54000), no "
                        + "client hung and the TPC-H query ran afterwards; 1 otherwise."})
final class BenchStressCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running cluster with its SQL endpoint, loaded with 'ooo load tpch --cluster'")
    Path cluster;

    @Option(names = "--clients", defaultValue = "8", paramLabel = "N", description = "connections running statements (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = {"--duration", "--seconds"}, defaultValue = "5m", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how long they run; a plain number is seconds (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--tpch", split = ",", defaultValue = "1,3,9,18,21", paramLabel = "<n>",
            description = "TPC-H queries among the statements (default: ${DEFAULT-VALUE})")
    List<Integer> tpch;

    @Option(names = "--probe-query", defaultValue = "3", paramLabel = "<n>",
            description = "the TPC-H query timed alone before and after (default: ${DEFAULT-VALUE})")
    int probeQuery;

    @Option(names = "--probe-runs", defaultValue = "3", paramLabel = "N", description = "timed runs of it each time (default: ${DEFAULT-VALUE})")
    int probeRuns;

    @Option(names = {"--probe-every", "--probe-every-ms"}, defaultValue = "1s", paramLabel = "DURATION", converter = Units.InMillis.class,
            description = "status probe interval; a plain number is milliseconds (default: ${DEFAULT-VALUE})")
    long probeEveryMs;

    @Option(names = {"--probe-limit", "--probe-limit-ms"}, defaultValue = "2s", paramLabel = "DURATION", converter = Units.InMillis.class,
            description = "a status answer later than this is a lapse; a plain number is milliseconds (default: ${DEFAULT-VALUE})")
    long probeLimitMs;

    @Option(names = "--statement-timeout", defaultValue = "150s", paramLabel = "DURATION", converter = Units.InMillis.class,
            description = "each client's query timeout (JDBC setQueryTimeout, whole seconds): a statement still running "
                    + "then is cancelled by the endpoint and fails with HYT00; a plain number is milliseconds "
                    + "(default: ${DEFAULT-VALUE})")
    long statementTimeoutMs;

    @Option(names = "--user", paramLabel = "<name>", description = "SQL user, for an endpoint that checks passwords")
    String user;

    @Option(names = "--password-env", paramLabel = "<VAR>", description = "the environment variable holding the password")
    String passwordEnv;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || seconds < 1 || probeRuns < 1 || probeEveryMs < 1 || probeLimitMs < 1 || statementTimeoutMs < 1000) {
            throw new ParameterException(spec.commandLine(), "--clients and --probe-runs must be at least 1, --duration 1s, "
                    + "--probe-every and --probe-limit 1ms, --statement-timeout 1s");
        }
        tpch.forEach(TpchQueries::check);
        TpchQueries.check(probeQuery);
        LocalCluster local = new LocalCluster(cluster);
        String url = local.coordinatorUrl().orElseThrow(() -> new ParameterException(spec.commandLine(),
                "no SQL endpoint runs for " + cluster + "; start the cluster with 'ooo cluster start'"));
        String password = passwordEnv == null ? null : System.getenv(passwordEnv);
        Map<String, String> statements = new LinkedHashMap<>();
        statements.put("cross-join", "SELECT l_orderkey, o_orderkey, l_comment, o_comment FROM lineitem CROSS JOIN orders "
                + "LIMIT 10");
        statements.put("self-join", "SELECT a.l_partkey, b.l_partkey, count(*) FROM lineitem a JOIN lineitem b "
                + "ON a.l_partkey = b.l_partkey GROUP BY a.l_partkey, b.l_partkey");
        for (int q : tpch) {
            statements.put("tpch-" + TpchQueries.name(q), TpchQueries.text(q));
        }
        String probe = "tpch-" + TpchQueries.name(probeQuery);
        statements.putIfAbsent(probe, TpchQueries.text(probeQuery));
        PrintWriter err = spec.commandLine().getErr();
        StressRun run = new StressRun(() -> HiveJdbc.connect(url, user == null ? "stress" : user, password),
                () -> local.status().stream().map(s -> new StressRun.NodeProbe(s.node(), s.state())).toList(),
                statements, probe, new StressRun.Options(clients, Duration.ofMillis((long) (seconds * 1000)),
                Duration.ofMillis(probeEveryMs), Duration.ofMillis(probeLimitMs), probeRuns,
                Duration.ofMillis(statementTimeoutMs)),
                line -> {
                    err.println(line);
                    err.flush();
                });
        StressRun.Result r = run.run();
        spec.commandLine().getOut().println(Json.line(r));
        return r.everyNodeAnsweredInTime() && r.unnamedFailures() == 0 && r.hungClients() == 0
                && r.probeAfterError() == null ? 0 : 1;
    }
}
