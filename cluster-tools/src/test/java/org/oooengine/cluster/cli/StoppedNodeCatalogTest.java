package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * The accident of a node that stops answering (SIGSTOP: its connections stay open, nothing comes
 * back), on three node processes holding TPC-H and a coordinator's engine in this JVM: the
 * catalog stays complete from the other nodes, row counts are the sums over the nodes or say which
 * node they lack, a query needing the node fails in bounded time naming it, and it works again
 * once the node does. With no node answering, SHOW TABLES fails naming them all.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StoppedNodeCatalogTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final List<String> TPCH = List.of("customer", "lineitem", "nation", "orders", "part", "partsupp",
            "region", "supplier");

    @TempDir
    static Path tmp;
    static Path cluster;
    static ClusterSpec spec;
    static ClusterSqlEngine engine;

    @BeforeAll
    static void start() throws Exception {
        cluster = tmp.resolve("cluster");
        int base = Cli.freePorts(3); // one per node
        Cli r = Cli.run("cluster", "start", "--nodes", "3", "--replication", "1", "--cluster", cluster.toString(),
                "--base-port", String.valueOf(base), "--node-heap", "384m", "--buffered-io"); // no copy serves a node down
        assertEquals(0, r.exitCode(), r::toString);
        r = Cli.run("load", "tpch", "--sf", "0.01", "--cluster", cluster.toString());
        assertEquals(0, r.exitCode(), r::toString);
        spec = ClusterSpec.read(cluster);
        engine = ClusterSqlEngine.open(cluster, TIMEOUT);
    }

    @AfterAll
    static void stop() {
        if (engine != null) {
            engine.close();
        }
        Cli.run("cluster", "stop", "--cluster", cluster.toString());
    }

    @Test
    @Order(1)
    void describeFormattedCountsTheRowsOfEveryNode() {
        SqlSession s = session();
        assertEquals("15000", rowsProperty(s, "orders"));
        assertEquals("60175", rowsProperty(s, "lineitem"));
        assertEquals("25", rowsProperty(s, "nation"));
    }

    @Test
    @Order(2)
    void withNodeN1StoppedTheCatalogStaysCompleteAndAQueryNeedingN1NamesIt() throws Exception {
        SqlSession s = session();
        String n1 = address("n1");
        signal("STOP", "n1");
        try {
            Thread.sleep(ClusterSession.TABLES_MAX_AGE.toMillis()); // the catalog's answer from before n1 stopped is over

            // Answered despite the stopped node, whose connection stays open and silent: without the
            // timeout the statement would wait for ever. The bounds are five times what a quiet
            // machine takes (about the timeout), room for a loaded one.
            long t0 = System.nanoTime();
            assertEquals(TPCH, column(rows(s, "SHOW TABLES")));
            assertTrue(seconds(t0) < 5 * TIMEOUT.toSeconds(), "SHOW TABLES took " + seconds(t0) + " s");

            String orders = rowsProperty(s, "orders");
            assertTrue(orders.startsWith("unknown: node n1 at " + n1 + ": "), orders);
            assertEquals(List.of("o_orderkey", "o_custkey", "o_orderstatus", "o_totalprice", "o_orderdate",
                    "o_orderpriority", "o_clerk", "o_shippriority", "o_comment"), column(rows(s, "DESCRIBE orders")));

            long t1 = System.nanoTime();
            SqlException e = assertThrows(SqlException.class, () -> rows(s, "SELECT count(*) FROM nation"));
            double took = seconds(t1);
            assertNotEquals(SqlException.UNKNOWN_TABLE, e.sqlState(), e.getMessage());
            assertTrue(e.getMessage().contains("node n1") && e.getMessage().contains(n1), e.getMessage());
            // at most the catalog's round and the scan's request, each bounded by the timeout
            assertTrue(took < 5 * 2 * TIMEOUT.toSeconds(), "the query failed after " + took + " s");
        } finally {
            signal("CONT", "n1");
        }
        assertEquals(List.of("25"), column(rows(s, "SELECT count(*) FROM nation")));
    }

    @Test
    @Order(3)
    void withNoNodeAnsweringShowTablesFailsNamingEveryNode() throws Exception {
        SqlSession s = session();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            signal("STOP", n.id());
        }
        try {
            Thread.sleep(ClusterSession.TABLES_MAX_AGE.toMillis());
            SqlException e = assertThrows(SqlException.class, () -> rows(s, "SHOW TABLES"));
            assertEquals(SqlException.NODE_FAILURE, e.sqlState());
            assertTrue(e.getMessage().contains("no node answered"), e.getMessage());
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                assertTrue(e.getMessage().contains("node " + n.id() + " at " + address(n.id())), e.getMessage());
            }
        } finally {
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                signal("CONT", n.id());
            }
        }
        assertEquals(TPCH, column(rows(s, "SHOW TABLES")));
        assertEquals("15000", rowsProperty(s, "orders"));
    }

    private static SqlSession session() {
        return engine.openSession("test", "default", Map.of());
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        StatementResult r = s.execute(sql, new Cancellation());
        List<Object[]> out = new ArrayList<>();
        r.rows().forEachRemaining(out::add);
        return out;
    }

    private static List<String> column(List<Object[]> rows) {
        return rows.stream().map(r -> String.valueOf(r[0])).toList();
    }

    /** The value of the "rows" table parameter that DESCRIBE FORMATTED shows. */
    private static String rowsProperty(SqlSession s, String table) {
        return rows(s, "DESCRIBE FORMATTED " + table).stream()
                .filter(r -> "Table Parameters:".equals(r[0]) && "rows".equals(r[1]))
                .map(r -> String.valueOf(r[2])).findFirst()
                .orElseThrow(() -> new AssertionError("no rows parameter: "
                        + rows(s, "DESCRIBE FORMATTED " + table).stream().map(Arrays::toString).toList()));
    }

    private static String address(String node) {
        return "127.0.0.1:" + spec.node(node).port();
    }

    /** kill -STOP or -CONT to a node's process, from its pid file. */
    private static void signal(String signal, String node) throws IOException, InterruptedException {
        String pid = Files.readString(cluster.resolve("run").resolve(node + ".pid")).strip().split("\\s+")[0];
        Process kill = new ProcessBuilder("kill", "-" + signal, pid).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pid);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
