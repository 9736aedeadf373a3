package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.cluster.launch.PidFile;
import org.oooengine.hive.server.HiveServer2Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ooo bench extract}: a large result fetched through the Hive JDBC driver, every value
 * read, timed with the CPU the coordinator and this client spent on it: where a user pulling
 * rows out of the engine waits.
 */
@Command(name = "extract", mixinStandardHelpOptions = true,
        description = {"Fetch a large result through the Hive JDBC driver from a running cluster's coordinator, every "
                + "value read as a client reads it (getObject): --warmups runs, then --repeat timed runs. Reports per "
                + "run the seconds, rows a second, and the CPU seconds the coordinator process and this client spent; "
                + "then their medians.",
                "The default query reads 5 columns (integers, decimals, a date) of about a sixth of TPC-H's lineitem: "
                        + "1,000,000 rows at SF 1."})
final class BenchExtractCommand implements Callable<Integer> {
    static final String DEFAULT_SQL = "SELECT l_orderkey, l_partkey, l_quantity, l_extendedprice, l_shipdate "
            + "FROM lineitem WHERE l_orderkey <= 1000000";

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running cluster (its coordinator started by 'ooo cluster start')")
    Path cluster;

    @Option(names = "--sql", defaultValue = DEFAULT_SQL, paramLabel = "<query>",
            description = "the query whose rows are fetched (default: ${DEFAULT-VALUE})")
    String sql;

    @Option(names = "--repeat", defaultValue = "5", paramLabel = "N", description = "timed runs (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--warmups", defaultValue = "1", paramLabel = "N", description = "runs first, not counted (default: ${DEFAULT-VALUE})")
    int warmups;

    @Option(names = "--fetch-size", defaultValue = "" + HiveServer2Endpoint.MAX_FETCH_ROWS, paramLabel = "N",
            description = "rows the driver asks for at a time, at most the endpoint's " + HiveServer2Endpoint.MAX_FETCH_ROWS
                    + " (default: ${DEFAULT-VALUE})")
    int fetchSize;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    /** One timed run. */
    record Run(double seconds, long rows, double coordinatorCpuSeconds, double clientCpuSeconds) {
    }

    /** What --json prints. */
    record Result(String sql, int fetchSize, long rows, double medianSeconds, double rowsPerSecond,
                  double medianCoordinatorCpuSeconds, double medianClientCpuSeconds, List<Run> runs) {
    }

    @Override
    public Integer call() throws Exception {
        if (repeat < 1 || warmups < 0 || fetchSize < 1) {
            throw new ParameterException(spec.commandLine(), "--repeat and --fetch-size must be at least 1, --warmups at least 0");
        }
        if (fetchSize > HiveServer2Endpoint.MAX_FETCH_ROWS) {
            throw new ParameterException(spec.commandLine(), "--fetch-size: the endpoint sends at most "
                    + HiveServer2Endpoint.MAX_FETCH_ROWS + " rows a fetch, got " + fetchSize);
        }
        LocalCluster local = new LocalCluster(cluster);
        String url = local.coordinatorUrl().orElseThrow(() -> new ParameterException(spec.commandLine(),
                "no coordinator runs for the cluster in " + cluster + " (start it with 'ooo cluster start')"));
        if (!(new PidFile(cluster, "coordinator").read() instanceof PidFile.Up up)) {
            throw new ParameterException(spec.commandLine(), "no coordinator process recorded in " + cluster);
        }
        ProcessHandle coordinator = up.process();
        PrintWriter out = spec.commandLine().getOut();
        Progress progress = Progress.of(spec);
        List<Run> runs = new ArrayList<>();
        try (Connection c = HiveJdbc.connect(url, System.getProperty("user.name", "ooo"), null)) {
            HiveJdbc.withLoader(() -> {
                for (int i = 0; i < warmups + repeat; i++) {
                    Run run = run(c, coordinator);
                    boolean timed = i >= warmups;
                    progress.note(String.format(Locale.ROOT, "%s %d: %,d rows in %.3f s", timed ? "run" : "warm-up",
                            timed ? i - warmups + 1 : i + 1, run.rows(), run.seconds()));
                    if (timed) {
                        runs.add(run);
                    }
                }
                return null;
            });
        }
        long rows = runs.get(0).rows();
        double seconds = median(runs, Run::seconds);
        Result r = new Result(sql, fetchSize, rows, seconds, rows / seconds, median(runs, Run::coordinatorCpuSeconds),
                median(runs, Run::clientCpuSeconds), runs);
        if (json) {
            out.println(Json.line(r));
        } else {
            out.printf(Locale.ROOT, "%,d rows: median %.3f s (%,.0f rows/s), CPU: coordinator %.2f s, client %.2f s%n",
                    r.rows(), r.medianSeconds(), r.rowsPerSecond(), r.medianCoordinatorCpuSeconds(),
                    r.medianClientCpuSeconds());
        }
        out.flush();
        return 0;
    }

    private Run run(Connection c, ProcessHandle coordinator) {
        try {
            return timed(c, coordinator);
        } catch (SQLException e) { // the query's error as the engine named it, shown to the user as it is
            throw new IllegalArgumentException("--sql: " + e.getMessage(), e);
        }
    }

    private Run timed(Connection c, ProcessHandle coordinator) throws SQLException {
        double coordinatorCpu0 = cpuSeconds(coordinator);
        double clientCpu0 = clientCpuSeconds();
        long t0 = System.nanoTime();
        long rows = 0;
        try (Statement s = c.createStatement()) {
            s.setFetchSize(fetchSize);
            try (ResultSet rs = s.executeQuery(sql)) {
                int width = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int col = 1; col <= width; col++) {
                        rs.getObject(col);
                    }
                    rows++;
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Run(seconds, rows, cpuSeconds(coordinator) - coordinatorCpu0, clientCpuSeconds() - clientCpu0);
    }

    /** A process's CPU time so far, as the operating system counts it (user and system, every thread). */
    private static double cpuSeconds(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
    }

    private static double clientCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        return values[values.length / 2];
    }
}
