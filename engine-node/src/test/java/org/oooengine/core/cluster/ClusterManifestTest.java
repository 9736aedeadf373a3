package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * The cluster's tables from every node's manifest: rows summed over the nodes, a node that does
 * not answer named with its address instead of the tables vanishing, no node answering said as
 * such, and two nodes holding a table with different layouts refused naming both.
 */
class ClusterManifestTest {
    private static final TableDefinition T = TestCluster.ID_NAME;

    @TempDir
    Path dir;

    @Test
    void rowsAndIndexEntriesAreSummedOverEveryNode() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 1000), false, (t, d, e) -> { });
            long onFirstNode = session.manifest("n1").table("t").rows();
            assertTrue(onFirstNode > 0 && onFirstNode < 1000, "n1 holds a partition: " + onFirstNode);

            ClusterManifest.Table t = session.tables().table("t").orElseThrow();
            assertTrue(t.complete(), t.missing()::toString);
            assertEquals(1000, t.meta().rows());
            assertEquals(1000, t.meta().indexes().get(0).entries());
            assertEquals(1000, session.table("t").meta().rows());
            assertEquals(1000, session.wholeManifest().table("t").rows());
        }
    }

    @Test
    void aNodeThatDoesNotAnswerIsNamedAndTheOthersStillListTheTables() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 1000), false, (t, d, e) -> { });
            String n2 = "127.0.0.1:" + cluster.spec.node("n2").port();
            cluster.stop("n2");
            session.tablesChanged(); // not the snapshot from before n2 stopped

            ClusterManifest m = session.tables();
            assertEquals(List.of("t"), m.tableNames());
            assertEquals(1, m.unanswered().size());
            assertEquals("n2", m.unanswered().get(0).node());
            assertEquals(n2, m.unanswered().get(0).address());
            ClusterManifest.Table t = m.table("t").orElseThrow();
            assertFalse(t.complete());
            assertTrue(t.meta().rows() < 1000, "the nodes that answered hold part of it: " + t.meta().rows());
            assertEquals("n2", t.missing().get(0).node());

            ClusterException needsAll = assertThrows(ClusterException.class, () -> session.table("t"));
            assertTrue(needsAll.getMessage().startsWith("table t: node n2 at " + n2 + ": "), needsAll.getMessage());
            ClusterException whole = assertThrows(ClusterException.class, m::everyNode);
            assertTrue(whole.getMessage().contains("node n2 at " + n2), whole.getMessage());

            cluster.restart("n2");
            assertEquals(1000, session.table("t").meta().rows());
        }
    }

    @Test
    void withNoNodeAnsweringEveryNodeIsNamed() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 10), false, (t, d, e) -> { });
            cluster.stop("n1");
            cluster.stop("n2");
            session.tablesChanged();

            ClusterManifest m = session.tables();
            assertTrue(m.noneAnswered());
            assertEquals(List.of(), m.tableNames());
            assertEquals(List.of("n1", "n2"), m.unanswered().stream().map(ClusterManifest.Missing::node).toList());
            ClusterException e = assertThrows(ClusterException.class, () -> session.table("t"));
            assertTrue(e.getMessage().contains("node n1 at 127.0.0.1:") && e.getMessage().contains("node n2 at 127.0.0.1:"),
                    e.getMessage());
        }
    }

    @Test
    void aTableHeldWithDifferentLayoutsIsRefusedNamingTwoNodesThatDiffer() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 10), false, (t, d, e) -> { });
            // n2 alone given another table t: what a change committed on one node and not yet on the other looks like
            ClusterSpec onlyN2 = new ClusterSpec(ClusterSpec.FORMAT_VERSION, cluster.spec.name(), cluster.spec.nodes(),
                    cluster.spec.defaultPartitions(), Map.of("t", List.of("n2")));
            TableDefinition other = new TableDefinition("t", new Schema(List.of(new Column("id", DataType.parse("int")))),
                    List.of("id"), List.of(), false);
            try (ClusterSession writer = ClusterSession.open(onlyN2, ClusterSpec.readSecret(cluster.dir), "writer",
                    TestCluster.TIMEOUT)) {
                new ClusterLoader(writer.peers()).writeTable(other, List.<Object[]>of(new Object[] {1}).iterator(), false,
                        (t, d, e) -> { });
            }
            session.tablesChanged();

            ClusterManifest m = session.tables();
            assertEquals(List.of("t"), m.tableNames(), "still listed");
            ClusterException e = assertThrows(ClusterException.class, () -> m.table("t"));
            assertTrue(e.getMessage().startsWith("table t has different layouts on node n1 (columns id BIGINT, name VARCHAR, key [id], "
                    + "indexes [t_name(name) LOCAL]) and node n2 (columns id INT, key [id]); "),
                    e.getMessage());
        }
    }

    @Test
    void lookupsShareOneRoundOfRequestsUntilATableChanges() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            new ClusterLoader(session.peers()).writeTable(T, rows(0, 10), false, (t, d, e) -> { });
            session.tablesChanged();
            ClusterManifest first = session.tables();
            long frames = session.peers().framesSent();
            assertSame(first, session.tables());
            assertEquals(10, session.table("t").meta().rows());
            assertEquals(frames, session.peers().framesSent(), "no request for a lookup the last round answers");

            new ClusterLoader(session.peers()).writeTable(T, rows(10, 15), true, (t, d, e) -> { });
            session.tablesChanged();
            ClusterManifest after = session.tables();
            assertNotSame(first, after);
            assertEquals(15, after.table("t").orElseThrow().meta().rows());
            StoreManifest whole = after.everyNode();
            assertEquals(List.of("t"), whole.tables().stream().map(StoreManifest.TableMeta::name).toList());
        }
    }

    private static Iterator<Object[]> rows(long from, long to) {
        return LongStream.range(from, to).mapToObj(i -> new Object[] {i, "name " + i}).iterator();
    }
}
