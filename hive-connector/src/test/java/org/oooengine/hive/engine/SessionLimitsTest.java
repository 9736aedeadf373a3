package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.cluster.NodeService;
import org.oooengine.core.cluster.RuntimeLimits;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SessionUser;
import org.oooengine.hive.sql.SqlSession;

/**
 * The limits a session cannot lift, as an attacker would try: a {@code SET} of a memory limit to
 * the largest number there is, a result nobody fetches spooling to disk, joins spilling past what
 * the nodes keep for spill. The operator's caps hold (the nodes' own whatever the coordinator
 * asks), a query past them fails by name, and no spill file is left.
 */
class SessionLimitsTest {
    /** What each node grants a query, and the disk the spill files of all its queries may take. */
    private static final long NODE_MEMORY_CAP = 256 << 10;
    private static final long NODE_SPILL_CAP = 1 << 20;
    private static final String HUGE = Long.toString(Long.MAX_VALUE);

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-session-limits-test", 2)
            .caps(new NodeService.Caps(NODE_MEMORY_CAP, NODE_SPILL_CAP));

    private static void run(SqlSession s, String sql) {
        s.execute(sql, new Cancellation()).rows().forEachRemaining(r -> { });
    }

    /** The SQLSTATE and message a failed statement reaches the client with. */
    private static SqlException failure(SqlSession s, String sql) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> run(s, sql));
        return Faults.of("", e);
    }

    @Test
    void aSessionCannotLiftItsMemoryLimitsAndAQueryPastTheCapFailsCleanly() throws Exception {
        SqlSession mallory = cluster.engine().openSession("mallory", "default", Map.of());
        SqlException perNode = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.query.max-memory-per-node=" + HUGE, new Cancellation()));
        assertEquals(SqlException.SYNTAX, perNode.sqlState(), perNode.getMessage());
        assertTrue(Pattern.compile("SET ooo.query.max-memory-per-node=" + HUGE + " is refused: node n\\d grants a query at "
                + "most " + NODE_MEMORY_CAP + " bytes \\(0.3 MiB, ooo node --query-max-memory\\)")
                .matcher(perNode.getMessage()).find(), perNode.getMessage());
        SqlException coordinator = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.query.max-memory=" + HUGE, new Cancellation()));
        assertTrue(coordinator.getMessage().startsWith("SET ooo.query.max-memory=" + HUGE + " is refused: "
                + "ooo.query.max-memory is capped at " + Runtime.getRuntime().maxMemory() / 4 + " bytes"),
                coordinator.getMessage());
        assertTrue(coordinator.getMessage().contains("by default (a quarter of the coordinator's heap"), coordinator.getMessage());
        SqlException spill = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.spill.max-bytes=" + HUGE, new Cancellation()));
        assertTrue(spill.getMessage().contains("ooo.spill.max-bytes is capped at 17179869184 bytes (16.0 GiB)"),
                spill.getMessage());
        SqlException attempts = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.transaction.attempts=1000", new Cancellation()));
        assertTrue(attempts.getMessage().contains("is refused"), attempts.getMessage());
        // nothing of it stayed in the session, nor can it come in with the session's opening settings
        assertEquals("ooo.query.max-memory-per-node=<undefined>",
                mallory.execute("SET ooo.query.max-memory-per-node", new Cancellation()).rows().next()[0]);
        assertThrows(SqlException.class, () -> cluster.engine().openSession("mallory", "default",
                Map.of("ooo.query.max-memory-per-node", HUGE)));
        // nor the operator's own settings
        SqlException operatorOnly = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.security.admins-exceed-caps=true", new Cancellation()));
        assertTrue(operatorOnly.getMessage().contains("is refused: it is the operator's"), operatorOnly.getMessage());
        for (String key : List.of("ooo.security.admin-users=mallory", "ooo.load.allowed-dirs=/", "ooo.catalog=hms",
                "ooo.endpoint.max.connections=100000", "ooo.catalog.hms.conf.fs.defaultFS=file:///")) {
            SqlException e = assertThrows(SqlException.class, () -> mallory.execute("SET " + key, new Cancellation()));
            assertTrue(e.getMessage().contains("SET " + key.substring(0, key.indexOf('=')) + " is refused: it is the operator's"),
                    e.getMessage());
        }
        // nor a key of the engine's MapReduce jobs
        SqlException jobKey = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.cluster.timeout.ms=1", new Cancellation()));
        assertTrue(jobKey.getMessage().contains("SET ooo.cluster.timeout.ms is refused: it is a key the engine writes into "
                + "its MapReduce jobs"), jobKey.getMessage());
        // a misspelt engine key is refused by name, naming the nearest, rather than stored without effect
        SqlException typo = assertThrows(SqlException.class,
                () -> mallory.execute("SET ooo.join.methd=hash", new Cancellation()));
        assertTrue(typo.getMessage().contains("SET ooo.join.methd is refused: there is no such session setting; did you mean "
                + "ooo.join.method? A session may set ooo.execution.mode, ooo.join.method"), typo.getMessage());
        // and no session asks for more reducers than a statement runs
        SqlException reduces = assertThrows(SqlException.class,
                () -> mallory.execute("SET mapreduce.job.reduces=100000000", new Cancellation()));
        assertTrue(reduces.getMessage().contains("expected a whole number (reducers) from 0 to 1009"), reduces.getMessage());
        mallory.execute("SET mapreduce.job.reduces=8", new Cancellation());
        // lower is fine, and 0 is the default, the cap
        mallory.execute("SET ooo.query.max-memory-per-node=200000", new Cancellation());
        mallory.execute("SET ooo.query.max-memory-per-node=0", new Cancellation());
        assertEquals(15000L, mallory.execute("SELECT count(*) FROM orders", new Cancellation()).rows().next()[0]);
        // a NOT IN whose build (every order's status: it cannot spill) does not fit the cap fails with 53200, naming it
        SqlException e = failure(mallory, "SELECT count(*) FROM lineitem WHERE l_linestatus NOT IN (SELECT o_orderstatus "
                + "FROM orders)");
        assertEquals(SqlException.OUT_OF_MEMORY, e.sqlState(), e.getMessage());
        assertTrue(Pattern.compile("on node n\\d needs more than the query's memory limit of 0.3 MiB there .*; that is "
                + "the most node n\\d grants a query \\(ooo node --query-max-memory\\)").matcher(e.getMessage()).find(),
                e.getMessage());
        assertNoSpillFiles();
        // and the session is served on
        assertEquals(25L, mallory.execute("SELECT count(*) FROM nation", new Cancellation()).rows().next()[0]);
    }

    @Test
    void aMisspeltSettingIsRefusedNamingTheNearestAndASizeTakesAUnit() {
        SqlSession s = cluster.engine().openSession("alice", "default", Map.of());
        SqlException typo = assertThrows(SqlException.class,
                () -> s.execute("SET ooo.query.max-memroy=1GB", new Cancellation()));
        assertEquals(SqlException.SYNTAX, typo.sqlState(), typo.getMessage());
        assertTrue(typo.getMessage().contains("SET ooo.query.max-memroy is refused: there is no such session setting; "
                + "did you mean ooo.query.max-memory?"), typo.getMessage());
        assertEquals("ooo.query.max-memroy=<undefined>",
                s.execute("SET ooo.query.max-memroy", new Cancellation()).rows().next()[0]);
        SqlException malformed = assertThrows(SqlException.class,
                () -> s.execute("SET ooo.query.max-memory=64 apples", new Cancellation()));
        assertTrue(malformed.getMessage().contains("expected a size such as 64MB"), malformed.getMessage());
        s.execute("SET ooo.query.max-memory=64MB", new Cancellation());
        assertEquals("ooo.query.max-memory=64MB", s.execute("SET ooo.query.max-memory", new Cancellation()).rows().next()[0]);
        assertEquals(25L, s.execute("SELECT count(*) FROM nation", new Cancellation()).rows().next()[0]);
        // and it is held to the cap in bytes: 64MB is past a cap of 8MB, 4MB within it
        try (ClusterSqlEngine capped = new ClusterSqlEngine(cluster.tpch().session, null, null, Map.of("ooo.query.max-memory", "8MB"))) {
            SqlSession c = capped.openSession("alice", "default", Map.of());
            SqlException over = assertThrows(SqlException.class,
                    () -> c.execute("SET ooo.query.max-memory=64MB", new Cancellation()));
            assertTrue(over.getMessage().contains("ooo.query.max-memory is capped at 8388608 bytes (8.0 MiB) by the operator"),
                    over.getMessage());
            c.execute("SET ooo.query.max-memory=4MB", new Cancellation());
        }
    }

    @Test
    void anAdminExceedsTheCoordinatorsCapsOnlyWhenTheOperatorSaysSoAndNeverTheNodes() {
        Map<String, String> operator = Map.of("ooo.query.max-memory", Long.toString(8 << 20),
                "ooo.security.admin-users", "root");
        try (ClusterSqlEngine capped = new ClusterSqlEngine(cluster.tpch().session, null, null, operator)) {
            SqlSession root = capped.openSession(SessionUser.withPassword("root"), "default", Map.of());
            SqlException e = assertThrows(SqlException.class,
                    () -> root.execute("SET ooo.query.max-memory=" + (16 << 20), new Cancellation()));
            assertTrue(e.getMessage().contains("ooo.query.max-memory is capped at 8388608 bytes (8.0 MiB) by the operator, "
                    + "in <cluster-dir>/coordinator.properties or with ooo server --conf"), e.getMessage());
            root.execute("SET ooo.query.max-memory=" + (4 << 20), new Cancellation());
        }
        Map<String, String> lenient = new java.util.HashMap<>(operator);
        lenient.put("ooo.security.admins-exceed-caps", "true");
        try (ClusterSqlEngine capped = new ClusterSqlEngine(cluster.tpch().session, null, null, lenient)) {
            SqlSession root = capped.openSession(SessionUser.withPassword("root"), "default", Map.of());
            root.execute("SET ooo.query.max-memory=" + (16 << 20), new Cancellation());
            assertEquals(25L, root.execute("SELECT count(*) FROM nation", new Cancellation()).rows().next()[0]);
            // the nodes' caps bind admins too: no node would grant more
            SqlException nodes = assertThrows(SqlException.class,
                    () -> root.execute("SET ooo.query.max-memory-per-node=" + HUGE, new Cancellation()));
            assertTrue(nodes.getMessage().contains("grants a query at most " + NODE_MEMORY_CAP), nodes.getMessage());
            // another user with a password, and "root" on a login that proved nothing, are no admins
            for (SessionUser other : List.of(SessionUser.withPassword("bob"), SessionUser.unchecked("root"))) {
                SqlSession s = capped.openSession(other, "default", Map.of());
                SqlException refused = assertThrows(SqlException.class,
                        () -> s.execute("SET ooo.query.max-memory=" + (16 << 20), new Cancellation()));
                assertTrue(refused.getMessage().contains("(only admin users may)"), refused.getMessage());
            }
        }
    }

    @Test
    void aResultNobodyFetchesStopsAtTheSpillLimitTheOperatorSetAndLeavesNoFile() throws Exception {
        // the operator's value is also what a session that sets nothing gets
        try (ClusterSqlEngine capped = new ClusterSqlEngine(cluster.tpch().session, null, null,
                Map.of("ooo.spill.max-bytes", Long.toString(256 << 10)))) {
            SqlSession s = capped.openSession("mallory", "default", Map.of("ooo.query.max-memory", "1000000"));
            SqlException e = failure(s, "SELECT l_comment, n_name FROM lineitem CROSS JOIN nation");
            assertEquals(SqlException.DISK_FULL, e.sqlState(), e.getMessage());
            assertTrue(e.getMessage().contains("on the coordinator cannot spill"), e.getMessage());
            assertTrue(e.getMessage().contains("the query's spill limit there is 0.3 MiB (ooo.spill.max-bytes)"),
                    e.getMessage());
            assertNoSpillFiles();
            SqlException more = assertThrows(SqlException.class,
                    () -> s.execute("SET ooo.spill.max-bytes=" + (1 << 20), new Cancellation()));
            assertTrue(more.getMessage().contains("capped at 262144 bytes"), more.getMessage());
        }
    }

    @Test
    void aJoinThatSpillsPastItsSpillLimitOnTheNodesFailsByName() throws Exception {
        SqlSession s = cluster.engine().openSession("mallory", "default", Map.of("ooo.spill.max-bytes", Long.toString(64 << 10)));
        SqlException e = failure(s, "SELECT count(*), max(l_comment), max(o_comment) FROM orders JOIN lineitem "
                + "ON l_orderkey = o_orderkey");
        assertEquals(SqlException.DISK_FULL, e.sqlState(), e.getMessage());
        assertTrue(Pattern.compile("hash join \\((build|probe) rows spilled by key\\) on node n\\d cannot spill .*: the "
                + "query's spill limit there is 0.1 MiB \\(ooo.spill.max-bytes\\)").matcher(e.getMessage()).find(),
                e.getMessage());
        assertNoSpillFiles();
    }

    @Test
    void joinsThatSpillPastTheNodesSpillSpaceFailByName() throws Exception {
        SqlSession s = cluster.engine().openSession("mallory", "default", Map.of());
        SqlException e = failure(s, "SELECT count(*), max(l_comment), max(o_comment) FROM orders JOIN lineitem "
                + "ON l_orderkey = o_orderkey");
        assertEquals(SqlException.DISK_FULL, e.sqlState(), e.getMessage());
        assertTrue(Pattern.compile("on node n\\d cannot spill .*: the spill space of node n\\d for all its queries, "
                + "1.0 MiB \\(ooo node --spill-max\\)").matcher(e.getMessage()).find(), e.getMessage());
        assertNoSpillFiles();
        assertEquals(25L, s.execute("SELECT count(*) FROM nation", new Cancellation()).rows().next()[0]);
    }

    /** No spill file is left on the coordinator nor on a node (a node's request may end after the answer). */
    private static void assertNoSpillFiles() throws Exception {
        List<Path> dirs = List.of(RuntimeLimits.coordinatorSpillDirectory(),
                cluster.tpch().cluster.dir.resolve("nodes/n1/spill"), cluster.tpch().cluster.dir.resolve("nodes/n2/spill"));
        for (Path dir : dirs) {
            long left = -1;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (left != 0 && (left == -1 || System.nanoTime() < deadline)) {
                if (!Files.exists(dir)) {
                    left = 0;
                    break;
                }
                try (Stream<Path> files = Files.list(dir)) {
                    left = files.count();
                }
                if (left != 0) {
                    Thread.sleep(50);
                }
            }
            assertEquals(0, left, "spill files left in " + dir);
        }
    }
}
