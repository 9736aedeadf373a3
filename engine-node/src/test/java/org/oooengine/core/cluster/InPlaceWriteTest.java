package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * Rows written in place into a loaded table on the nodes: inserts, updates and deletes applied to
 * the partitions' B+trees (no rebuild), seen by scans once committed, kept across a restart and a
 * later bulk append, all forgotten when the statement fails.
 */
class InPlaceWriteTest {
    private static final TableDefinition T = TestCluster.ID_NAME;

    @TempDir
    Path dir;

    @Test
    void insertsUpdatesAndDeletesAreWrittenInPlaceAndKept() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 100, "a"), false, (t, d, e) -> { });
            Map<Long, String> expected = new TreeMap<>();
            rows(0, 100, "a").forEachRemaining(r -> expected.put((Long) r[0], (String) r[1]));
            ClusterWriter writer = new ClusterWriter(session.peers());

            ClusterWriter.Statement insert = writer.begin(T, SplitPolicy.PREFIX);
            rows(100, 400, "b").forEachRemaining(r -> insert.add(ClusterWriter.RowWrite.INSERT, r));
            assertEquals(300, insert.commit());
            rows(100, 400, "b").forEachRemaining(r -> expected.put((Long) r[0], (String) r[1]));

            ClusterWriter.Statement update = writer.begin(T, SplitPolicy.PREFIX);
            for (long id = 0; id < 400; id += 7) {
                update.add(ClusterWriter.RowWrite.UPDATE, new Object[] {id, "updated " + id});
                expected.put(id, "updated " + id);
            }
            update.add(ClusterWriter.RowWrite.UPDATE, new Object[] {10_000L, "nobody"}); // no such row: nothing changes
            assertEquals(58, update.commit());

            ClusterWriter.Statement delete = writer.begin(T, SplitPolicy.PREFIX);
            for (long id = 50; id < 150; id++) {
                delete.add(ClusterWriter.RowWrite.DELETE, new Object[] {id, null});
                expected.remove(id);
            }
            assertEquals(100, delete.commit());
            assertEquals(expected, scan(session));
            long rows = 0;
            for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
                StoreManifest.TableMeta meta = session.manifest(n.id()).table("t");
                assertNull(meta.columnsFile(), "the columnar copy no longer holds the rows: dropped");
                rows += meta.rows();
            }
            assertEquals(expected.size(), rows, "the manifests count the rows written");

            cluster.stop("n2");
            cluster.restart("n2");
            assertEquals(expected, scan(session), "written rows survive a restart");

            new ClusterLoader(session.peers()).writeTable(T, rows(1000, 1010, "c"), true, (t, d, e) -> { });
            rows(1000, 1010, "c").forEachRemaining(r -> expected.put((Long) r[0], (String) r[1]));
            assertEquals(expected, scan(session), "a bulk append keeps the rows written in place");
        }
    }

    @Test
    void aStatementThatFailsLeavesNoRowBehind() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 20, "a"), false, (t, d, e) -> { });
            Map<Long, String> before = scan(session);
            ClusterWriter.Statement insert = new ClusterWriter(session.peers()).begin(T, SplitPolicy.HALF);
            CompletionException e = assertThrows(CompletionException.class, () -> {
                rows(20, 40, "new").forEachRemaining(r -> insert.add(ClusterWriter.RowWrite.INSERT, r));
                insert.add(ClusterWriter.RowWrite.INSERT, new Object[] {5L, "again"});
                insert.commit();
            });
            insert.rollback();
            assertTrue(e.getMessage().contains("duplicate primary key [5] in table t"), e.getMessage());
            assertEquals(before, scan(session), "the statement's other rows are forgotten too");
            ClusterWriter.Statement retry = new ClusterWriter(session.peers()).begin(T, SplitPolicy.HALF);
            rows(20, 40, "new").forEachRemaining(r -> retry.add(ClusterWriter.RowWrite.INSERT, r));
            assertEquals(20, retry.commit());
            assertEquals(40, scan(session).size());
        }
    }

    /** Scans while statements of 50 inserts commit on one node: each sees a whole number of statements. */
    @Test
    void scansSeeWholeStatements() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 1); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 50, "a"), false, (t, d, e) -> { });
            AtomicBoolean writing = new AtomicBoolean(true);
            ExecutorService reader = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> scans = reader.submit(() -> {
                    int n = 0;
                    while (writing.get()) {
                        int size = scan(session).size();
                        assertEquals(0, size % 50, size + " rows: a statement seen in part");
                        n++;
                    }
                    return n;
                });
                ClusterWriter writer = new ClusterWriter(session.peers());
                for (long from = 50; from < 3_000; from += 50) {
                    ClusterWriter.Statement s = writer.begin(T, SplitPolicy.PREFIX);
                    rows(from, from + 50, "b").forEachRemaining(r -> s.add(ClusterWriter.RowWrite.INSERT, r));
                    s.commit();
                }
                writing.set(false);
                assertTrue(scans.get() > 0);
            } finally {
                writing.set(false);
                reader.shutdownNow();
            }
            assertEquals(3_000, scan(session).size());
        }
    }

    /**
     * A coordinator that goes away half way through a statement (rows sent, no commit): the node
     * rolls its rows back when the next statement begins, and they are never seen. A load that
     * replaces the store while a statement is open fails that statement's commit.
     */
    @Test
    void anAbandonedStatementIsRolledBackAndALoadInBetweenFailsTheCommit() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 1); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 10, "a"), false, (t, d, e) -> { });
            ClusterWriter writer = new ClusterWriter(session.peers());
            String wide = "w".repeat(400); // rows enough for requests to go out before the commit
            ClusterWriter.Statement abandoned = writer.begin(T, SplitPolicy.PREFIX);
            rows(1_000, 3_000, wide).forEachRemaining(r -> abandoned.add(ClusterWriter.RowWrite.INSERT, r));
            assertEquals(10, scan(session).size(), "applied rows are not seen before the commit");
            ClusterWriter.Statement next = writer.begin(T, SplitPolicy.PREFIX);
            rows(10, 20, "b").forEachRemaining(r -> next.add(ClusterWriter.RowWrite.INSERT, r));
            assertEquals(10, next.commit());
            assertEquals(20, scan(session).size(), "the abandoned statement's rows were rolled back");

            ClusterWriter.Statement interrupted = writer.begin(T, SplitPolicy.PREFIX);
            rows(5_000, 7_000, wide).forEachRemaining(r -> interrupted.add(ClusterWriter.RowWrite.INSERT, r));
            TableDefinition other = new TableDefinition("u", new Schema(List.of(new Column("k", DataType.INT))),
                    List.of("k"), List.of(), false);
            new ClusterLoader(session.peers()).writeTable(other, List.<Object[]>of(new Object[] {1}).iterator(), false,
                    (t, d, e) -> { });
            CompletionException e = assertThrows(CompletionException.class, interrupted::commit);
            assertTrue(e.getMessage().contains("a load replaced node n1's store while the statement ran"), e.getMessage());
            interrupted.rollback();
            assertEquals(20, scan(session).size());
        }
    }

    @Test
    void aGlobalIndexIsNotKeptInPlace() {
        TableDefinition global = new TableDefinition("g", T.schema(), List.of("id"),
                List.of(new TableDefinition.IndexDefinition("g_name", List.of("name"),
                        org.oooengine.core.store.IndexScope.GLOBAL)), false);
        assertTrue(!ClusterWriter.writable(global) && ClusterWriter.writable(T));
    }

    private static java.util.Iterator<Object[]> rows(long from, long to, String name) {
        return LongStream.range(from, to).mapToObj(i -> new Object[] {i, name + " " + i}).iterator();
    }

    private static Map<Long, String> scan(ClusterSession session) {
        List<Object[]> out = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            session.scan(n.id(), "t", chunk -> {
                synchronized (out) {
                    out.addAll(chunk);
                }
            }).join();
        }
        out.sort(Comparator.comparing(r -> (Long) r[0]));
        Map<Long, String> rows = new TreeMap<>();
        out.forEach(r -> rows.put(((Number) r[0]).longValue(), (String) r[1]));
        return rows;
    }
}
