package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.tpch.JdbcQueries;
import org.oooengine.cluster.bench.tpch.TpchBench;
import org.oooengine.cluster.bench.tpch.TpchFileTables;
import org.oooengine.cluster.bench.QueryProfiles;
import org.oooengine.cluster.bench.tpch.TpchQueries;
import org.oooengine.cluster.bench.tpch.TpchQueryResult;
import org.oooengine.cluster.bench.tpch.TpchReport;
import org.oooengine.cluster.bench.tpch.TpchResultFiles;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.SqlSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench tpch}: the 22 TPC-H queries through the SQL engine, per-query seconds. */
@Command(name = "tpch", mixinStandardHelpOptions = true,
        description = {"Run TPC-H queries (docs/queries/tpch) on a running, loaded cluster through the SQL engine, "
                + "as its coordinator does, in this process (or with --jdbc through the Hive JDBC driver on the "
                + "cluster's coordinator): each query once to warm up, then --repeat timed runs "
                + "(the statement with every row read).",
                "Reports per query the median, every run and the rows returned, and the total of the medians. "
                        + "One progress line per query goes to stderr. A failing query is reported with its error and "
                        + "the others still run; the exit code is then 1."})
final class BenchTpchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running cluster loaded with 'ooo load tpch --cluster'")
    Path cluster;

    @Option(names = "--queries", split = ",", paramLabel = "<n>", description = "query numbers, e.g. 1,3,18 (default: all 22)")
    List<Integer> queries;

    @Option(names = "--repeat", defaultValue = "3", paramLabel = "N", description = "timed runs per query (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    @Option(names = "--results", paramLabel = "<dir>",
            description = "also write each query's rows to <dir>/qNN.tsv (tab-separated), to compare answers with other engines")
    Path results;

    @Option(names = "--files", paramLabel = "<dir>",
            description = "run over external tables whose files are in <dir>/<table>/ (e.g. Parquet another tool "
                    + "wrote), made in database " + TpchFileTables.DATABASE + " for the run and dropped after; "
                    + "<dir> is allowed to SQL for the run")
    Path files;

    @Option(names = "--analyze", description = "with --files: ANALYZE TABLE ... COMPUTE STATISTICS FOR COLUMNS each "
            + "table before the queries run (its time is printed, not counted)")
    boolean analyze;

    @Option(names = "--format", paramLabel = "<format>",
            description = "with --files: the files' format, parquet, orc or textfile (default: parquet)")
    String format;

    @Mixin
    ProfileOption profile;

    @Option(names = "--jdbc", description = "run the queries through the Hive JDBC driver on the cluster's SQL endpoint "
            + "(its coordinator, started by 'ooo cluster start'), as a user's client does, instead of in this process; "
            + "the rows are fetched as the client fetches them. Not with --files or --profile")
    boolean jdbc;

    @Option(names = "--set", paramLabel = "<key>=<value>",
            description = "a session setting for every query, as SET would make it, e.g. "
                    + "ooo.query.max-memory-per-node=134217728 (repeatable)")
    List<String> settings;

    @Override
    public Integer call() {
        List<Integer> chosen = chosenQueries();
        Map<String, String> session = sessionSettings();
        if (repeat < 1) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1, got " + repeat);
        }
        if (format != null && files == null) {
            throw new ParameterException(spec.commandLine(), "--format says the format of --files, which is not given");
        }
        if (analyze && files == null) {
            throw new ParameterException(spec.commandLine(), "--analyze counts the tables of --files, which is not given");
        }
        String fileFormat = format == null ? "parquet" : format.toLowerCase(java.util.Locale.ROOT);
        if (!List.of("parquet", "orc", "textfile").contains(fileFormat)) {
            throw new ParameterException(spec.commandLine(), "--format: '" + format + "' is not parquet, orc or textfile");
        }
        if (jdbc && (files != null || profile.given())) {
            throw new ParameterException(spec.commandLine(), "--jdbc runs the queries on the cluster's coordinator: "
                    + (files != null ? "--files" : "--profile") + " needs them in this process");
        }
        Path profileDir = profile.directory(spec);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int nodes = ClusterSpec.read(cluster).nodes().size();
        TpchReport report;
        Map<String, String> coordinator = files == null ? Map.of()
                : Map.of(CoordinatorSettings.LOAD_ALLOWED_DIRS.name(), files.toAbsolutePath().normalize().toString());
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, coordinator);
             SqlSession sql = engine.openSession(System.getProperty("user.name", "ooo"), "default", Map.of())) {
            if (files != null) {
                TpchFileTables.register(sql, files, fileFormat);
                if (analyze) {
                    err.printf("analyzed the tables in %.1f s%n", TpchFileTables.analyze(sql));
                    err.flush();
                }
                sql.execute("USE " + TpchFileTables.DATABASE, new org.oooengine.hive.sql.Cancellation());
            }
            try {
                List<TpchQueryResult> ran;
                if (jdbc) {
                    ran = throughJdbc(session, engine, chosen, err);
                } else {
                    applySettings(sql, session);
                    TpchBench bench = new TpchBench(TpchBench.Queries.of(sql), repeat, engine::bytesSpilled,
                            engine::nodesCpuSeconds);
                    if (profileDir != null) {
                        bench.profiledBy(new QueryProfiles(engine.cluster(), profileDir, "tpch"));
                    }
                    ran = bench.run(chosen, progress(err));
                }
                report = TpchReport.of(cluster.toAbsolutePath().normalize().toString(), nodes, engine.nodeCores(), repeat, ran);
            } finally {
                if (files != null) {
                    TpchFileTables.drop(sql);
                }
            }
        }
        if (results != null) {
            TpchResultFiles.write(results, report.queries());
        }
        out.print(json ? Json.line(report) + System.lineSeparator() : report.table());
        out.flush();
        return report.failures() == 0 ? 0 : 1;
    }

    private static java.util.function.Consumer<TpchQueryResult> progress(PrintWriter err) {
        return q -> {
            err.println(TpchReport.progress(q));
            err.flush();
        };
    }

    /**
     * The queries through the Hive JDBC driver on the cluster's endpoint, the settings as SET
     * statements there; the nodes' CPU and spilled bytes still read from the nodes by {@code engine}.
     */
    private List<TpchQueryResult> throughJdbc(Map<String, String> settings, ClusterSqlEngine engine, List<Integer> chosen,
                                              PrintWriter err) {
        String url = new LocalCluster(cluster).coordinatorUrl().orElseThrow(() -> new ParameterException(
                spec.commandLine(), "--jdbc: no coordinator runs for the cluster in " + cluster
                        + "; start it with: ooo cluster start --cluster " + cluster));
        try (Connection c = HiveJdbc.connect(url, System.getProperty("user.name", "ooo"), null)) {
            return HiveJdbc.withLoader(() -> {
                JdbcQueries queries = new JdbcQueries(c);
                settings.forEach((key, value) -> {
                    try {
                        queries.execute("SET " + key + "=" + value);
                    } catch (IllegalStateException e) {
                        throw new ParameterException(spec.commandLine(), "--set " + key + "=" + value + ": " + e.getMessage());
                    }
                });
                return new TpchBench(queries, repeat, engine::bytesSpilled, engine::nodesCpuSeconds).run(chosen, progress(err));
            });
        } catch (ParameterException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("--jdbc: " + url + ": " + e.getMessage(), e);
        }
    }

    /** Each setting as a SET statement, checked as SQL checks it: a bad value is refused before any query runs. */
    private void applySettings(SqlSession sql, Map<String, String> settings) {
        settings.forEach((key, value) -> {
            try {
                sql.execute("SET " + key + "=" + value, new org.oooengine.hive.sql.Cancellation());
            } catch (org.oooengine.core.sql.SqlException e) {
                throw new ParameterException(spec.commandLine(), "--set " + key + "=" + value + ": " + e.getMessage());
            }
        });
    }

    private Map<String, String> sessionSettings() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String s : settings == null ? List.<String>of() : settings) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                throw new ParameterException(spec.commandLine(), "--set: '" + s + "' is not <key>=<value>");
            }
            out.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip());
        }
        return out;
    }

    private List<Integer> chosenQueries() {
        try {
            return TpchQueries.chosen(queries);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--queries: " + e.getMessage());
        }
    }
}
