package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
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
 * On three nodes keeping two copies of each partition, a table loaded with one copy: no node
 * stores a copy of another's partition of it, the heartbeats tell every session so, the repair
 * plans nothing for it, appends and in-place writes reach its owners alone, a reload with two
 * copies adds them and one with one copy drops them again; with a node down the table kept twice
 * is served from its copies while the one kept once names the node. A table loaded on all three
 * nodes is served by the one left when two are down.
 */
class OneCopyTableTest {
    private static final TableDefinition T = TestCluster.ID_NAME;
    private static final TableDefinition U = new TableDefinition("u",
            new Schema(List.of(new Column("k", DataType.parse("int")))), List.of("k"), List.of(), false);
    private static final TableDefinition V = new TableDefinition("v", U.schema(), U.primaryKey(), List.of(), false);

    @Test
    void aTableLoadedWithOneCopyIsKeptByItsOwnersAlone(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3, NodeService.Caps.DEFAULTS, 2);
             ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 300), false, (t, d, e) -> { });
            ClusterLoader once = new ClusterLoader(session.peers(), 1);
            assertEquals(30, once.writeTable(U, keys(0, 30), false, (t, d, e) -> { }));
            IllegalArgumentException four = assertThrows(IllegalArgumentException.class,
                    () -> new ClusterLoader(session.peers(), 4));
            assertTrue(four.getMessage().contains("a table may keep 1 to 3, not 4"), four.getMessage());
            new ClusterLoader(session.peers(), 3).writeTable(V, keys(0, 10), false, (t, d, e) -> { });

            ServingNodes serving = session.serving();
            awaitCopies(serving, "u", 1);
            assertEquals(2, serving.copies("t"));
            awaitCopies(serving, "v", 3);
            assertEquals(List.of("n2", "n3", "n1"), serving.holders("v", 1));
            assertStored(session, "v", 3);
            assertEquals(2, serving.copies("a table no node stores yet"));
            assertEquals(List.of(List.of("n2"), List.of("n2", "n3")), List.of(serving.holders("u", 1), serving.holders("t", 1)));
            assertStored(session, "u", 1);
            assertStored(session, "t", 2);
            assertTrue(new ReplicaRepair(session.peers(), 0).plan().nothingToDo(), "no copy of u is missing");

            assertEquals(40, new ClusterLoader(session.peers(), serving.copies("u")).writeTable(U, keys(30, 40), true,
                    (t, d, e) -> { }));
            ClusterWriter.Statement insert = new ClusterWriter(session.peers()).begin(U, SplitPolicy.PREFIX,
                    serving.copies("u"));
            IntStream.range(100, 110).forEach(k -> insert.add(ClusterWriter.RowWrite.INSERT, new Object[] {k}));
            assertEquals(10, insert.commit());
            assertStored(session, "u", 1);
            assertEquals(50, rows(session, "u"));

            new ClusterLoader(session.peers()).writeTable(U, keys(0, 20), false, (t, d, e) -> { });
            assertStored(session, "u", 2);
            awaitCopies(serving, "u", 2);
            once.writeTable(U, keys(0, 20), false, (t, d, e) -> { });
            assertStored(session, "u", 1);
            awaitCopies(serving, "u", 1);
            assertTrue(new ReplicaRepair(session.peers(), 0).plan().nothingToDo());

            cluster.stop("n2");
            serving.probeAgain();
            // partitions 0 and 2 may go to either holder (a busy or slow owner is relieved), partition 1 has one left
            List<String> servingT = serving.of("t").stream().map(ServingNodes.Served::node).toList();
            assertEquals("n3", servingT.get(1), "n2's partition of t from its copy on n3: " + servingT);
            assertFalse(servingT.contains("n2"), "n2 is down: " + servingT);
            cluster.stop("n3");
            serving.probeAgain();
            assertEquals(List.of("n1", "n1", "n1"), serving.of("v").stream().map(ServingNodes.Served::node).toList(),
                    "v on every node: n1 serves it alone");
            cluster.restart("n3");
            serving.probeAgain();
            assertEquals("n2", serving.of("u").get(1).node(), "u's partition 1 is n2's alone");
            RuntimeException down = assertThrows(RuntimeException.class,
                    () -> session.scan("n2", "u", chunk -> { }).join());
            assertTrue(down.getMessage().contains("n2"), down.getMessage());
            ReplicaRepair.Plan plan = new ReplicaRepair(session.peers(), 0).plan();
            assertEquals(List.of("n2"), plan.down(), plan.toString());
            assertTrue(plan.copies().isEmpty(), plan.toString());
        }
    }

    /** Each node holds its own partition of {@code table} and copies of {@code copies} - 1 other partitions. */
    private static void assertStored(ClusterSession session, String table, int copies) {
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            List<String> names = session.manifest(n.id()).tables().stream().map(StoreManifest.TableMeta::name)
                    .filter(name -> ClusterSpec.tableOf(name).equals(table)).toList();
            assertEquals(copies, names.size(), n.id() + " stores " + names);
            assertTrue(names.contains(table), n.id() + " stores " + names);
        }
    }

    private static void awaitCopies(ServingNodes serving, String table, int copies) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (serving.copies(table) != copies && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(copies, serving.copies(table), "copies of " + table + " as the heartbeats tell");
    }

    private static long rows(ClusterSession session, String table) {
        return TestCluster.firstColumns(session, table).size();
    }

    private static Iterator<Object[]> rows(long from, long to) {
        return LongStream.range(from, to).mapToObj(i -> new Object[] {i, "name " + i}).iterator();
    }

    private static Iterator<Object[]> keys(int from, int to) {
        return IntStream.range(from, to).mapToObj(k -> new Object[] {k}).iterator();
    }
}
