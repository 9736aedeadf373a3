package org.oooengine.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.Format;
import org.oooengine.cluster.bench.QueryProfiles;
import org.oooengine.cluster.bench.tpcds.TpcdsBench;
import org.oooengine.cluster.bench.tpcds.TpcdsDuckDb;
import org.oooengine.cluster.bench.tpcds.TpcdsQueries;
import org.oooengine.cluster.bench.tpcds.TpcdsQueryResult;
import org.oooengine.cluster.bench.tpcds.TpcdsReport;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench tpcds}: the 99 TPC-DS queries through the SQL engine, each answer checked against DuckDB's. */
@Command(name = "tpcds", mixinStandardHelpOptions = true,
        description = {"Run the TPC-DS queries (docs/queries/tpcds) on a running cluster loaded with 'ooo load tpcds', "
                + "through the SQL engine in this process, and check each answer against DuckDB's over the same rows "
                + "(the same generator at the same scale factor, kept in a DuckDB file between runs).",
                "Reports per query its status (ok: DuckDB's answer; wrong; refused, with the SQLSTATE and message; "
                        + "timeout; failed), the engine's and DuckDB's median time and the rows, then the counts, "
                        + "the refusals by cause and the time against DuckDB's over the ok queries. One progress line "
                        + "per query goes to stderr. The exit code is 1 when an answer is wrong or a query failed; "
                        + "refusals and timeouts are reported, not errors."})
final class BenchTpcdsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running cluster loaded with 'ooo load tpcds --cluster'")
    Path cluster;

    @Option(names = "--queries", split = ",", paramLabel = "<q>", description = "queries, e.g. q1,q5,72 (default: all 99)")
    List<String> queries;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "timed runs per query, after one that warms up and is checked (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--timeout", defaultValue = "120s", paramLabel = "DURATION", converter = Units.Seconds.class,
            description = "each run of a query is cancelled after this long, e.g. 90s, 5m (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--sf", paramLabel = "<scale>",
            description = "the scale factor the cluster was loaded with (default: what the nodes recorded at the load)")
    Double scaleFactor;

    @Option(names = "--duckdb", paramLabel = "<file>",
            description = "DuckDB's database file, made on first use (default: ~/.cache/ooo-bench/tpcds-sf<scale>.duckdb)")
    Path duckdbFile;

    @Option(names = "--explain-dir", paramLabel = "<dir>",
            description = "also run each query that answered under EXPLAIN ANALYZE and write its plan, with the rows "
                    + "and times measured, to <dir>/q01.txt, ... (not timed)")
    Path explainDir;

    @Mixin
    ProfileOption profile;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    @Option(names = "--set", paramLabel = "<key>=<value>",
            description = "a session setting for every query, as SET would make it, e.g. ooo.join.method=hash (repeatable)")
    List<String> settings;

    @Override
    public Integer call() throws Exception {
        List<Integer> chosen = chosenQueries();
        Map<String, String> session = sessionSettings();
        if (repeat < 1) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1, got " + repeat);
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--timeout must be positive, got " + timeout);
        }
        Path profileDir = profile.directory(spec);
        try {
            Class.forName("org.duckdb.DuckDBDriver");
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("DuckDB's JDBC driver is not in this installation (the distribution "
                    + "leaves it out): run ooo bench tpcds from a build of the project");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int nodes = ClusterSpec.read(cluster).nodes().size();
        Map<String, Long> engineRows = new LinkedHashMap<>();
        double sf = loadedScaleFactor(engineRows);
        TpcdsGenerator generator = new TpcdsGenerator(sf);
        Path file = duckdbFile != null ? duckdbFile : Path.of(System.getProperty("user.home"), ".cache", "ooo-bench",
                "tpcds-sf" + Format.number(sf) + ".duckdb");
        TpcdsReport report;
        Progress progress = Progress.of(spec);
        TpcdsDuckDb duckdb;
        try {
            duckdb = TpcdsDuckDb.inFile(file, generator, progress);
        } catch (Exception | Error e) {
            progress.abandon();
            throw e;
        }
        progress.close();
        try (duckdb;
             ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of())) {
            checkSameRows(engineRows, duckdb.rowCounts(), sf);
            String user = System.getProperty("user.name", "ooo");
            try (SqlSession probe = engine.openSession(user, "default", Map.of())) {
                applySettings(probe, session);
            }
            try (TpcdsBench bench = new TpcdsBench(() -> {
                SqlSession s = engine.openSession(user, "default", Map.of());
                applySettings(s, session);
                return s;
            }, duckdb, repeat, timeout)) {
                if (explainDir != null) {
                    bench.explainingTo(explainDir);
                }
                if (profileDir != null) {
                    bench.profiledBy(new QueryProfiles(engine.cluster(), profileDir, "tpcds"));
                }
                List<TpcdsQueryResult> ran = bench.run(chosen, q -> {
                    err.println(TpcdsReport.progress(q));
                    err.flush();
                });
                report = TpcdsReport.of(cluster.toAbsolutePath().normalize().toString(), nodes, sf, repeat,
                        timeout.toSeconds(), duckdb.threads(), ran);
            }
        }
        out.print(json ? Json.line(report) + System.lineSeparator() : report.table());
        out.flush();
        return report.count(TpcdsQueryResult.Status.WRONG) + report.count(TpcdsQueryResult.Status.FAILED) == 0
                ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /**
     * The scale factor: --sf, or what the nodes recorded when TPC-DS was last loaded; fills
     * {@code rows} with the rows each TPC-DS table holds over the nodes.
     */
    private double loadedScaleFactor(Map<String, Long> rows) throws Exception {
        Double recorded = null;
        try (ClusterSession session = ClusterSession.open(cluster, "bench", NodeDaemon.DEFAULT_TIMEOUT)) {
            for (JsonNode st : session.stats().values()) {
                JsonNode source = st.path("manifest").path("source");
                if ("tpcds".equals(source.path("generator").asText())) {
                    recorded = source.path("scaleFactor").asDouble();
                }
                st.path("rows").fields().forEachRemaining(e -> rows.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            }
        }
        if (scaleFactor != null) {
            return scaleFactor;
        }
        if (recorded == null) {
            throw new ParameterException(spec.commandLine(), "the nodes do not record a TPC-DS load as their last one: "
                    + "give --sf, the scale factor 'ooo load tpcds' was run with");
        }
        return recorded;
    }

    /** DuckDB must hold what the nodes hold, or every comparison would be meaningless. */
    private static void checkSameRows(Map<String, Long> engine, Map<String, Long> duckdb, double sf) {
        List<String> differ = new ArrayList<>();
        duckdb.forEach((table, n) -> {
            if (!n.equals(engine.get(table))) {
                differ.add(table + " " + engine.getOrDefault(table, 0L) + " vs " + n);
            }
        });
        if (!differ.isEmpty()) {
            throw new IllegalArgumentException("the cluster does not hold TPC-DS SF " + Format.number(sf)
                    + " (rows in the cluster vs generated: " + String.join(", ", differ) + "); load it with "
                    + "'ooo load tpcds --sf " + Format.number(sf) + "' or give the --sf it was loaded with");
        }
    }

    private void applySettings(SqlSession sql, Map<String, String> settings) {
        settings.forEach((key, value) -> {
            try {
                sql.execute("SET " + key + "=" + value, new Cancellation());
            } catch (SqlException e) {
                throw new ParameterException(spec.commandLine(), "--set " + key + "=" + value + ": " + e.getMessage());
            }
        });
    }

    private Map<String, String> sessionSettings() {
        Map<String, String> out = new LinkedHashMap<>();
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
        if (queries == null) {
            return TpcdsQueries.all();
        }
        List<Integer> out = new ArrayList<>();
        for (String q : queries) {
            try {
                out.add(TpcdsQueries.number(q));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--queries: " + e.getMessage());
            }
        }
        return out;
    }
}
