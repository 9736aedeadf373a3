package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * Transactional tables through SQL on three nodes: Hive's ACID DDL, INSERT, UPDATE, DELETE and
 * INSERT OVERWRITE as one transaction each (all rows or none), reads joined with analytical tables,
 * and conflicting UPDATEs from several sessions at once ending in a serializable outcome.
 */
class TransactionalTablesTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-acid-test", 3, TpchTable.NATION)
            .keepingCatalog(Map.of());

    private static SqlSession session() {
        return cluster.session();
    }

    private static List<String> rows(SqlSession s, String sql) {
        StatementResult r = s.execute(sql, new Cancellation());
        List<String> out = new ArrayList<>();
        r.rows().forEachRemaining(row -> out.add(Arrays.toString(row)));
        return out;
    }

    private static long update(SqlSession s, String sql) {
        return s.execute(sql, new Cancellation()).updateCount();
    }

    private static final String ACCOUNTS = "CREATE TABLE %s (id INT, owner STRING, balance DECIMAL(12,2), "
            + "PRIMARY KEY (id) DISABLE NOVALIDATE) CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC "
            + "TBLPROPERTIES ('transactional'='true')";

    @Test
    void rowsAreInsertedUpdatedAndDeletedInTransactions() {
        SqlSession s = session();
        update(s, String.format(ACCOUNTS, "accounts"));
        assertEquals(25, update(s, "INSERT INTO accounts SELECT n_nationkey, n_name, 100 FROM nation WHERE n_nationkey < 30"));
        assertEquals(List.of("[25, 2500.00]"), rows(s, "SELECT count(*), sum(balance) FROM accounts"));

        SqlException dup = assertThrows(SqlException.class,
                () -> update(s, "INSERT INTO accounts VALUES (100, 'new', 1), (3, 'again', 1)"));
        assertEquals(SqlException.CONSTRAINT, dup.sqlState(), dup.getMessage());
        assertTrue(dup.getMessage().contains("duplicate primary key"), dup.getMessage());
        assertEquals(List.of("[0]"), rows(s, "SELECT count(*) FROM accounts WHERE id = 100"), "nothing of the statement stays");

        assertEquals(5, update(s, "UPDATE accounts SET balance = balance + 10.5 WHERE id < 5"));
        assertEquals(List.of("[0, ALGERIA, 110.50]", "[4, EGYPT, 110.50]", "[5, ETHIOPIA, 100.00]"),
                rows(s, "SELECT id, owner, balance FROM accounts WHERE id IN (0, 4, 5) ORDER BY id"));
        assertEquals(25, update(s, "UPDATE accounts SET balance = balance - 1"), "a statement on every node");
        assertEquals(2, update(s, "DELETE FROM accounts WHERE owner LIKE 'A%'"));
        assertEquals(List.of("[23, 2308.50]"), rows(s, "SELECT count(*), sum(balance) FROM accounts"));
        assertEquals(0, update(s, "DELETE FROM accounts WHERE id = 1000"));

        // joined with an analytical table
        assertEquals(List.of("[AFRICA, 4]", "[AMERICA, 4]", "[ASIA, 5]", "[EUROPE, 5]", "[MIDDLE EAST, 5]"),
                rows(s, "SELECT r_name, count(*) FROM accounts JOIN nation ON id = n_nationkey "
                        + "JOIN region ON n_regionkey = r_regionkey GROUP BY r_name ORDER BY r_name"));

        assertEquals(2, update(s, "INSERT OVERWRITE TABLE accounts VALUES (1, 'one', 1), (2, 'two', 2)"));
        assertEquals(List.of("[1, one, 1.00]", "[2, two, 2.00]"), rows(s, "SELECT * FROM accounts ORDER BY id"));
        update(s, "DROP TABLE accounts");
        update(s, String.format(ACCOUNTS, "accounts"));
        assertEquals(List.of("[0]"), rows(s, "SELECT count(*) FROM accounts"), "a table created again starts empty");
        update(s, "DROP TABLE accounts");
    }

    @Test
    void queriesRunOnTheNodesWithinTheStatementsTransaction() {
        SqlSession s = session();
        update(s, String.format(ACCOUNTS, "ledger"));
        assertEquals(25, update(s, "INSERT INTO ledger SELECT n_nationkey, n_name, n_nationkey * 10 FROM nation"));
        String sql = "SELECT n_regionkey, count(*), sum(balance) FROM ledger JOIN nation ON id = n_nationkey "
                + "WHERE balance >= 20 GROUP BY n_regionkey ORDER BY n_regionkey";
        assertEquals(List.of("[0, 4, 500.00]", "[1, 4, 460.00]", "[2, 5, 680.00]", "[3, 5, 770.00]", "[4, 5, 580.00]"),
                rows(s, sql));
        // the transactional table is scanned, filtered, joined and aggregated on the nodes, as an analytical one is
        String analyzed = String.join("\n", rows(s, "EXPLAIN ANALYZE " + sql));
        assertTrue(analyzed.contains("[each node] Scan default.ledger [id, balance]"), analyzed);
        assertTrue(analyzed.contains("[each node] Filter balance >= 20"), analyzed);
        assertTrue(analyzed.matches("(?s).*to the nodes that merge them[^\n]*  \\[actual rows 5, .*; nodes read 25 rows, .*"), analyzed);
        // a join with the transactional table on the probe side, the other table's rows shuffled to its partitions
        assertEquals(List.of("[ALGERIA, 0.00]", "[ARGENTINA, 10.00]"),
                rows(s, "SELECT owner, balance FROM ledger l JOIN nation n ON l.id = n.n_nationkey "
                        + "WHERE n.n_name < 'B' ORDER BY owner"));
        // updates read the rows they change on the nodes too, within their transaction
        update(s, "UPDATE ledger SET balance = balance - 5 WHERE id < 10");
        update(s, "UPDATE ledger SET balance = balance + 10 WHERE id >= 20");
        assertEquals(List.of("[25, 3000.00]"), rows(s, "SELECT count(*), sum(balance) FROM ledger"));
    }

    @Test
    void createTableAsSelectMakesATransactionalTable() {
        SqlSession s = session();
        update(s, "CREATE TABLE regions_acid TBLPROPERTIES ('transactional'='true', 'ooo.primary.key'='r_regionkey') "
                + "AS SELECT r_regionkey, r_name FROM region");
        assertEquals(List.of("[5]"), rows(s, "SELECT count(*) FROM regions_acid"));
        assertEquals(1, update(s, "UPDATE regions_acid SET r_name = 'EUROPA' WHERE r_regionkey = 3"));
        assertEquals(List.of("[EUROPA]"), rows(s, "SELECT r_name FROM regions_acid WHERE r_regionkey = 3"));
        update(s, "DROP TABLE regions_acid");
    }

    @Test
    void mergeUpdatesDeletesAndInsertsInOneTransaction() {
        SqlSession s = session();
        update(s, String.format(ACCOUNTS, "ledger"));
        update(s, "INSERT INTO ledger VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cid', 30)");
        update(s, "CREATE TABLE changes (id INT, amount DECIMAL(12,2), PRIMARY KEY (id) DISABLE NOVALIDATE)");
        update(s, "INSERT INTO changes VALUES (1, 5), (2, NULL), (4, 40), (5, -1)");
        assertEquals(3, update(s, "MERGE INTO ledger AS l USING changes AS c ON l.id = c.id "
                + "WHEN MATCHED AND c.amount IS NULL THEN DELETE "
                + "WHEN MATCHED THEN UPDATE SET balance = l.balance + c.amount "
                + "WHEN NOT MATCHED AND c.amount > 0 THEN INSERT VALUES (c.id, 'new', c.amount)"));
        assertEquals(List.of("[1, ann, 15.00]", "[3, cid, 30.00]", "[4, new, 40.00]"),
                rows(s, "SELECT * FROM ledger ORDER BY id"));

        update(s, "INSERT INTO changes VALUES (6, 1)");
        SqlException twice = assertThrows(SqlException.class, () -> update(s, "MERGE INTO ledger USING "
                + "(SELECT 1 AS id UNION ALL SELECT 1 AS id) d ON ledger.id = d.id WHEN MATCHED THEN DELETE"));
        assertEquals("21000", twice.sqlState(), twice.getMessage());
        SqlException plain = assertThrows(SqlException.class, () -> update(s,
                "MERGE INTO changes USING ledger ON changes.id = ledger.id WHEN MATCHED THEN DELETE"));
        assertEquals(SqlException.NOT_SUPPORTED, plain.sqlState(), plain.getMessage());
        assertEquals(List.of("[1, ann, 15.00]", "[3, cid, 30.00]", "[4, new, 40.00]"),
                rows(s, "SELECT * FROM ledger ORDER BY id"), "nothing of a failed MERGE stays");
        update(s, "DROP TABLE ledger");
        update(s, "DROP TABLE changes");
    }

    @Test
    void aTransactionalTableNeedsAPrimaryKey() {
        SqlException e = assertThrows(SqlException.class, () -> update(session(),
                "CREATE TABLE nokey (id INT) TBLPROPERTIES ('transactional'='true')"));
        assertEquals(SqlException.SYNTAX, e.sqlState());
        assertTrue(e.getMessage().contains("needs a primary key"), e.getMessage());
        SqlException bucketed = assertThrows(SqlException.class, () -> update(session(),
                "CREATE TABLE plain (id INT) CLUSTERED BY (id) INTO 2 BUCKETS"));
        assertTrue(bucketed.getMessage().contains("CLUSTERED BY"), bucketed.getMessage());
    }

    /**
     * Eight clients increment one row fifty times each. Their reads on the nodes meet each other's
     * locked writes: such a read fails like a conflicting commit, and the statement runs again, so
     * with attempts enough every increment commits and none is lost.
     */
    @Test
    void concurrentIncrementsOfOneRowAllCommitWhenRetried() throws Exception {
        SqlSession s = session();
        update(s, "CREATE TABLE acct (id INT, bal BIGINT, PRIMARY KEY (id) DISABLE NOVALIDATE) "
                + "TBLPROPERTIES ('transactional'='true')");
        update(s, "INSERT INTO acct VALUES (1, 0)");
        int clients = 8;
        int increments = 50;
        AtomicInteger committed = new AtomicInteger();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    SqlSession mine = session();
                    update(mine, "SET ooo.transaction.attempts=100");
                    for (int i = 0; i < increments; i++) {
                        try {
                            assertEquals(1, update(mine, "UPDATE acct SET bal = bal + 1 WHERE id = 1"));
                            committed.incrementAndGet();
                        } catch (SqlException e) {
                            failures.add(e.sqlState() + " " + e.getMessage());
                        }
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (Future<?> f : done) {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(clients * increments, committed.get(), failures.size() + " failed, e.g. "
                + failures.stream().limit(3).toList());
        assertEquals(List.of("[" + clients * increments + "]"), rows(s, "SELECT bal FROM acct WHERE id = 1"),
                "an increment was lost");
        update(s, "DROP TABLE acct");
    }

    @Test
    void concurrentConflictingUpdatesEndSerializable() throws Exception {
        SqlSession s = session();
        update(s, "CREATE TABLE counters (id INT, n BIGINT, PRIMARY KEY (id) DISABLE NOVALIDATE) "
                + "TBLPROPERTIES ('transactional'='true')");
        update(s, "INSERT INTO counters VALUES (1, 0), (2, 0), (3, 0)");
        AtomicInteger applied = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            done.add(clients.submit(() -> {
                SqlSession mine = session();
                for (int i = 0; i < 15; i++) {
                    try {
                        // every statement reads and writes all three rows, on all nodes: they all conflict
                        assertEquals(3, update(mine, "UPDATE counters SET n = n + 1"));
                        applied.incrementAndGet();
                    } catch (SqlException e) {
                        assertEquals(SqlException.SERIALIZATION_FAILURE, e.sqlState(), e.getMessage());
                        refused.incrementAndGet();
                    }
                }
            }));
        }
        // a reader meanwhile: its scans run on the nodes, and every answer it gets is one the updates left whole
        AtomicInteger consistentReads = new AtomicInteger();
        Future<?> reader = Executors.newSingleThreadExecutor().submit(() -> {
            SqlSession mine = session();
            while (done.stream().anyMatch(f -> !f.isDone())) {
                try {
                    List<String> r = rows(mine, "SELECT min(n) = max(n), count(*) FROM counters");
                    assertEquals(List.of("[true, 3]"), r, "a read saw an update half applied");
                    consistentReads.incrementAndGet();
                } catch (SqlException e) {
                    assertEquals(SqlException.SERIALIZATION_FAILURE, e.sqlState(), e.getMessage());
                }
            }
        });
        for (Future<?> f : done) {
            f.get(180, TimeUnit.SECONDS);
        }
        reader.get(60, TimeUnit.SECONDS);
        clients.shutdown();
        assertTrue(consistentReads.get() > 0);
        assertEquals(60, applied.get() + refused.get());
        assertTrue(applied.get() > 0);
        String n = String.valueOf(applied.get());
        assertEquals(List.of("[1, " + n + "]", "[2, " + n + "]", "[3, " + n + "]"),
                rows(s, "SELECT id, n FROM counters ORDER BY id"), refused + " refused with 40001");
        update(s, "DROP TABLE counters");
    }

    /**
     * HTAP: a table with analytical copies is read from them by a session that asks, within about a
     * second of a change, while a session that does not reads the table itself (its own writes at
     * once); sys.htap_freshness says how fresh each node's copy is; the copies go when the property
     * is unset.
     */
    @Test
    void aSessionThatAsksReadsTheAnalyticalCopies() throws Exception {
        SqlSession s = session();
        update(s, String.format(ACCOUNTS, "copied").replace("('transactional'='true')",
                "('transactional'='true', 'ooo.htap.copies'='true')"));
        assertEquals(25, update(s, "INSERT INTO copied SELECT n_nationkey, n_name, 100 FROM nation"));
        update(s, "SET ooo.htap.reads=copies");
        assertEquals(List.of("[25, 2500.00]"), eventually(s, "SELECT count(*), sum(balance) FROM copied", "[25, 2500.00]"));
        assertEquals(5, update(s, "UPDATE copied SET balance = balance + 1 WHERE id < 5"));
        assertEquals(List.of("[25, 2505.00]"), eventually(s, "SELECT count(*), sum(balance) FROM copied", "[25, 2505.00]"));
        assertEquals(List.of("[5]"), rows(s, "SELECT count(*) FROM copied JOIN nation ON id = n_nationkey "
                + "WHERE balance > 100"), "joined with an analytical table");
        assertEquals(List.of("[3, 25, 1.0]"), eventually(s, "SELECT count(*), sum(copy_rows), min(freshness) "
                + "FROM sys.htap_freshness WHERE table_name = 'default.copied'", "[3, 25, 1.0]"));

        String explained = String.join("\n", rows(s, "EXPLAIN SELECT count(*) FROM copied JOIN nation ON id = n_nationkey"));
        assertTrue(explained.contains("Scan default.copied [id]  [read from the nodes' analytical copies]"), explained);
        String reads = "SELECT sum(copy_reads) FROM sys.htap_freshness WHERE table_name = 'default.copied'";
        long before = Long.parseLong(rows(s, reads).get(0).replaceAll("[\\[\\]]", ""));
        rows(s, "SELECT count(*) FROM copied");
        assertEquals(List.of("[" + (before + 3) + "]"), rows(s, reads), "a scan on each of the 3 nodes read its copy");

        update(s, "SET ooo.htap.reads=transactional");
        assertTrue(String.join("\n", rows(s, "EXPLAIN SELECT count(*) FROM copied"))
                .contains("[read in the query's transaction]"), "EXPLAIN says where");
        rows(s, "SELECT count(*) FROM copied");
        assertEquals(List.of("[" + (before + 3) + "]"), rows(s, reads), "none read a copy");
        assertEquals(1, update(s, "DELETE FROM copied WHERE id = 0"));
        assertEquals(List.of("[24]"), rows(s, "SELECT count(*) FROM copied"), "the session's own delete, at once");

        update(s, "ALTER TABLE copied UNSET TBLPROPERTIES ('ooo.htap.copies')");
        assertEquals(List.of("[0]"), rows(s, "SELECT count(*) FROM sys.htap_freshness WHERE table_name = 'default.copied'"));
        update(s, "SET ooo.htap.reads=copies");
        assertEquals(List.of("[24]"), rows(s, "SELECT count(*) FROM copied"), "a table without copies is read itself");
        update(s, "ALTER TABLE copied SET TBLPROPERTIES ('ooo.htap.copies'='true')");
        assertEquals(List.of("[24]"), rows(s, "SELECT count(*) FROM copied"), "copies built anew from the table's rows");

        SqlException notTransactional = assertThrows(SqlException.class, () -> update(s,
                "CREATE TABLE plain (id INT) TBLPROPERTIES ('ooo.htap.copies'='true')"));
        assertEquals(SqlException.NOT_SUPPORTED, notTransactional.sqlState(), notTransactional.getMessage());
        assertTrue(notTransactional.getMessage().contains("ooo.htap.copies needs a transactional table"),
                notTransactional.getMessage());
        SqlException malformed = assertThrows(SqlException.class, () -> update(s,
                "ALTER TABLE copied SET TBLPROPERTIES ('ooo.htap.copies'='yes')"));
        assertTrue(malformed.getMessage().contains("is true or false, not 'yes'"), malformed.getMessage());
        assertEquals(List.of("[24]"), rows(s, "SELECT count(*) FROM copied"), "the refused change left the copies");
        update(s, "SET ooo.htap.reads=transactional");
        update(s, "DROP TABLE copied");
        assertEquals(List.of("[0]"), rows(s, "SELECT count(*) FROM sys.htap_freshness"));
    }

    /** The rows of {@code sql} once they are {@code expected} (a copy switches within about a second), or after 30 s. */
    private static List<String> eventually(SqlSession s, String sql, String expected) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            List<String> got = rows(s, sql);
            if (got.equals(List.of(expected)) || System.nanoTime() > deadline) {
                return got;
            }
            Thread.sleep(100);
        }
    }
}
