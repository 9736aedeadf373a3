package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.server.EndpointConfig;
import org.oooengine.hive.server.HiveServer2Endpoint;

/**
 * The HiveServer2 clients other than our own JDBC use, against a two-node TPC-H cluster (SF 0.01)
 * and one endpoint that lets noSasl clients in, checks SASL PLAIN passwords and serves HTTP too:
 * Python's PyHive, SQLAlchemy, pandas and impyla (src/test/python, in a virtual environment of
 * their own), Apache beeline through {@code ooo beeline}, and the Hive JDBC driver over HTTP.
 * Answers are compared with DuckDB's.
 */
class HiveClientsTest {
    private static final String USER = "alice";
    private static final String PASSWORD = "s3cret-pw";
    /** hive-clients.sh: PyPI could not be reached to install the clients. */
    private static final int SKIPPED = 77;
    private static final Path MODULE = Path.of("").toAbsolutePath();

    private static TpchCluster tpch;
    private static ClusterSqlEngine engine;
    private static HiveServer2Endpoint endpoint;
    private static Path tmp;
    private static Map<String, Query> expected;

    /** A query and DuckDB's answer to it. */
    record Query(String sql, List<Object[]> rows) {
    }

    @BeforeAll
    static void start() throws Exception {
        // DriverManager finds drivers once per JVM, through the context class loader of its first
        // caller; when that was another test's isolated Hive driver loader, DuckDB is not among them.
        Class.forName("org.duckdb.DuckDBDriver");
        tpch = new TpchCluster("ooo-hive-clients", 2, 0.01, TpchTable.getTables());
        tmp = tpch.dir;
        Path passwords = tmp.resolve("users");
        Files.writeString(passwords, USER + ":" + PASSWORD + "\n");
        engine = new ClusterSqlEngine(tpch.session, tpch.cluster.dir, null, Map.of());
        endpoint = HiveServer2Endpoint.start(engine, EndpointConfig.withPasswordFile("127.0.0.1", 0, passwords)
                .withUnauthenticated(true)
                .withHttp(new EndpointConfig.Http(0, EndpointConfig.Http.DEFAULT_PATH)));
        expected = new LinkedHashMap<>();
        expected.put("q1", query(resource("/queries/tpch/q01.sql")));
        expected.put("join", query("select o_orderkey, o_orderdate, c_name, l_linenumber, l_extendedprice "
                + "from orders join customer on o_custkey = c_custkey join lineitem on l_orderkey = o_orderkey "
                + "where o_orderkey between 1000 and 1100 order by o_orderkey, l_linenumber"));
        expected.put("regions", query("select r_name, count(*) as nations, sum(s_acctbal) as balance "
                + "from region join nation on r_regionkey = n_regionkey join supplier on s_nationkey = n_nationkey "
                + "group by r_name order by r_name"));
    }

    private static Query query(String sql) throws Exception {
        return new Query(sql, tpch.oracle.rows(sql));
    }

    private static String resource(String name) throws IOException {
        try (var in = HiveClientsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^--.*$", "").strip();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable t = tpch; AutoCloseable e = engine; AutoCloseable s = endpoint) {
            // endpoint, engine, then the cluster
        }
    }

    @Test
    void pythonClients() throws Exception {
        Path answers = tmp.resolve("expected.json");
        Map<String, Object> json = new LinkedHashMap<>();
        expected.forEach((name, q) -> json.put(name, Map.of("sql", q.sql(), "rows", jsonRows(q.rows()))));
        new ObjectMapper().writeValue(answers.toFile(), json);
        Run run = Run.of(MODULE, 900, "bash", MODULE.resolve("src/test/python/hive-clients.sh").toString(),
                "--host", "127.0.0.1", "--port", String.valueOf(endpoint.port()),
                "--http-port", String.valueOf(endpoint.httpPort()), "--user", USER, "--password", PASSWORD,
                "--expected", answers.toString());
        Assumptions.assumeFalse(run.exit == SKIPPED, run.out);
        assertEquals(0, run.exit, run::toString);
        assertTrue(run.out.contains("hive-clients: 9 passed, 0 failed"), run::toString);
    }

    /** Decimals as text, so the script compares them exactly as written. */
    private static List<List<Object>> jsonRows(List<Object[]> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (Object[] row : rows) {
            List<Object> cells = new ArrayList<>();
            for (Object v : row) {
                cells.add(v instanceof BigDecimal d ? d.toPlainString() : v == null ? null : v instanceof Number ? v : v.toString());
            }
            out.add(cells);
        }
        return out;
    }

    @Test
    void beelineRunsStatementsAndFilesWithPasswords() throws Exception {
        String url = "jdbc:hive2://127.0.0.1:" + endpoint.port() + "/default";
        Run q1 = beeline("-u", url, "-n", USER, "-p", PASSWORD, "--outputformat=tsv2", "--silent=true",
                "-e", expected.get("q1").sql() + ";");
        assertEquals(0, q1.exit, q1::toString);
        assertSameRows(expected.get("q1").rows(), tsvRows(q1.out), "q1 through beeline");

        Path script = tmp.resolve("script.sql");
        Files.writeString(script, "show tables;\n" + expected.get("join").sql() + ";\n");
        Run file = beeline("-u", url + ";auth=noSasl", "--outputformat=tsv2", "--silent=true", "-f", script.toString());
        assertEquals(0, file.exit, file::toString);
        assertTrue(file.out.contains("lineitem\n") && file.out.contains("supplier\n"), file::toString);
        String joinOutput = file.out.substring(file.out.indexOf("o_orderkey"));
        assertSameRows(expected.get("join").rows(), tsvRows(joinOutput), "join through beeline -f");

        Run wrong = beeline("-u", url, "-n", USER, "-p", "not-it", "-e", "select 1;");
        assertNotEquals(0, wrong.exit, wrong::toString);
        assertTrue(wrong.out.contains("PLAIN authentication failed"), wrong::toString);

        Run http = beeline("-u", url.replace(":" + endpoint.port() + "/", ":" + endpoint.httpPort() + "/")
                + ";transportMode=http;httpPath=cliservice", "-n", USER, "-p", PASSWORD, "--outputformat=tsv2",
                "--silent=true", "-e", "select count(*) as n from nation;");
        assertEquals(0, http.exit, http::toString);
        assertTrue(http.out.contains("n\n25\n"), http::toString);
    }

    private static Run beeline(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", MODULE.resolve("../ooo").normalize().toString(), "beeline"));
        command.addAll(List.of(args));
        return Run.of(MODULE, 120, command.toArray(String[]::new));
    }

    @Test
    void jdbcOverHttp() throws Exception {
        String url = "jdbc:hive2://127.0.0.1:" + endpoint.httpPort() + "/default;transportMode=http;httpPath=cliservice";
        try (Connection c = HiveJdbc.connect(url, USER, PASSWORD); Statement st = c.createStatement()) {
            for (String name : List.of("q1", "join")) {
                try (ResultSet rs = st.executeQuery(expected.get(name).sql())) {
                    assertSameRows(expected.get(name).rows(), DuckDbOracle.rows(rs), name + " over HTTP");
                }
            }
            SQLException syntax = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> st.executeQuery("selec 1"));
            assertTrue(syntax.getMessage().contains("line 1:0"), syntax.getMessage());
        }
        SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                () -> HiveJdbc.connect(url, USER, "wrong").close());
        assertTrue(refused.getMessage().contains("401"), refused.getMessage());
    }

    /**
     * Row by row, numbers within a relative 1e-5 (engines give averages different scales: Hive the
     * input's plus 4, DuckDB a double), anything else as text without padding.
     */
    private static void assertSameRows(List<Object[]> expectedRows, List<Object[]> actual, String what) {
        assertEquals(expectedRows.size(), actual.size(), what + ": rows");
        for (int r = 0; r < actual.size(); r++) {
            Object[] want = expectedRows.get(r);
            Object[] got = actual.get(r);
            assertEquals(want.length, got.length, what + ": columns of row " + r);
            for (int c = 0; c < got.length; c++) {
                assertTrue(sameCell(got[c], want[c]), what + ": row " + r + " column " + (c + 1) + " is " + got[c]
                        + ", DuckDB says " + want[c]);
            }
        }
    }

    private static boolean sameCell(Object got, Object want) {
        if (got == null || want == null) {
            return got == want || "NULL".equals(String.valueOf(got)) || "NULL".equals(String.valueOf(want));
        }
        BigDecimal a = number(got.toString());
        BigDecimal b = number(want.toString());
        if (a != null && b != null) {
            BigDecimal tolerance = b.abs().multiply(new BigDecimal("1e-5")).max(new BigDecimal("1e-6"));
            return a.subtract(b).abs().compareTo(tolerance) <= 0;
        }
        return got.toString().strip().equals(want.toString().strip());
    }

    private static BigDecimal number(String text) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The rows of beeline's tsv2 output: the first line is the header. */
    private static List<Object[]> tsvRows(String out) {
        List<Object[]> rows = new ArrayList<>();
        String[] lines = out.strip().split("\n");
        for (int i = 1; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                rows.add(lines[i].split("\t", -1));
            }
        }
        return rows;
    }

    /** A finished child process: exit code and its output, stdout and stderr together. */
    record Run(int exit, String out) {
        static Run of(Path dir, long timeoutSeconds, String... command) throws Exception {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
            }
            return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "exit " + exit + ":\n" + out;
        }
    }
}
