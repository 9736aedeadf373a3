package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * is served from its copies while the one kept once names the node.
 */
class OneCopyTableTest {
    private static final TableDefinition T = TestCluster.ID_NAME;
    private static final TableDefinition U = new TableDefinition("u",
            new Schema(List.of(new Column("k", DataType.parse("int")))), List.of("k"), List.of(), false);

    @Test
    void aTableLoadedWithOneCopyIsKeptByItsOwnersAlone(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3, NodeService.Caps.DEFAULTS, 2);
             ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 300), false, (t, d, e) -> { });
            ClusterLoader once = new ClusterLoader(session.peers(), 1);
            assertEquals(30, once.writeTable(U, keys(0, 30), false, (t, d, e) -> { }));
            IllegalArgumentException three = assertThrows(IllegalArgumentException.class,
                    () -> new ClusterLoader(session.peers(), 3));
            assertTrue(three.getMessage().contains("on 1 or 2 nodes, not 3"), three.getMessage());

            ServingNodes serving = session.serving();
            awaitCopies(serving, "u", 1);
            assertEquals(2, serving.copies("t"));
            assertEquals(2, serving.copies("a table no node stores yet"));
            assertEquals(List.of(List.of("n2"), List.of("n2", "n3")), List.of(serving.holders("u", 1), serving.holders("t", 1)));
            assertStored(session, "u", 0);
            assertStored(session, "t", 2);
            assertTrue(new ReplicaRepair(session.peers(), 0).plan().nothingToDo(), "no copy of u is missing");

            assertEquals(40, new ClusterLoader(session.peers(), serving.copies("u")).writeTable(U, keys(30, 40), true,
                    (t, d, e) -> { }));
            ClusterWriter.Statement insert = new ClusterWriter(session.peers()).begin(U, SplitPolicy.PREFIX,
                    serving.copies("u"));
            IntStream.range(100, 110).forEach(k -> insert.add(ClusterWriter.RowWrite.INSERT, new Object[] {k}));
            assertEquals(10, insert.commit());
            assertStored(session, "u", 0);
            assertEquals(50, rows(session, "u"));

            new ClusterLoader(session.peers()).writeTable(U, keys(0, 20), false, (t, d, e) -> { });
            assertStored(session, "u", 2);
            awaitCopies(serving, "u", 2);
            once.writeTable(U, keys(0, 20), false, (t, d, e) -> { });
            assertStored(session, "u", 0);
            awaitCopies(serving, "u", 1);
            assertTrue(new ReplicaRepair(session.peers(), 0).plan().nothingToDo());

            cluster.stop("n2");
            serving.probeAgain();
            assertEquals(List.of("n1", "n3", "n3"), serving.of("t").stream().map(ServingNodes.Served::node).toList(),
                    "n2's partition of t from its copy on n3");
            assertEquals("n2", serving.of("u").get(1).node(), "u's partition 1 is n2's alone");
            RuntimeException down = assertThrows(RuntimeException.class,
                    () -> session.scan("n2", "u", chunk -> { }).join());
            assertTrue(down.getMessage().contains("n2"), down.getMessage());
            ReplicaRepair.Plan plan = new ReplicaRepair(session.peers(), 0).plan();
            assertEquals(List.of("n2"), plan.down(), plan.toString());
            assertTrue(plan.copies().isEmpty(), plan.toString());
        }
    }

    /** Each node holds its own partition of {@code table} and {@code copies} names of other partitions' copies. */
    private static void assertStored(ClusterSession session, String table, int copies) {
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            List<String> names = session.manifest(n.id()).tables().stream().map(StoreManifest.TableMeta::name)
                    .filter(name -> ClusterSpec.tableOf(name).equals(table)).toList();
            assertEquals(copies == 0 ? 1 : copies, names.size(), n.id() + " stores " + names);
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
