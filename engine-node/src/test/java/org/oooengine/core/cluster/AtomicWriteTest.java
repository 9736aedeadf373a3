package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.storage.BTreeChecker;
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.StatementJournal;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreFiles;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.RowCodec;

/**
 * A statement written in place commits on every owner or on none: the protocol's steps (apply,
 * prepare, decide, commit) driven one by one, with nodes stopped between them, and the journals a
 * stopped node left settled when it starts again.
 */
class AtomicWriteTest {
    private static final TableDefinition T = TestCluster.ID_NAME;

    @TempDir
    Path dir;

    @Test
    void aNodeStoppedAfterTheDecisionRollsForwardWhenRestarted() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            load(session, 0, 300);
            long id = statement();
            applyEverywhere(session, id, 1000, 1600);
            for (String node : List.of("n1", "n2", "n3")) {
                prepare(session, node, id, "n1");
            }
            assertEquals(ids(0, 300), scan(session), "prepared rows are not seen");
            step(session, "n1", Messages.WRITE_DECIDE, id);
            step(session, "n2", Messages.WRITE_COMMIT, id);
            cluster.stop("n3"); // before its commit: its journal is prepared, the decider says committed
            assertTrue(Files.exists(journal(cluster, "n3", id, StatementJournal.PREPARED)));
            assertFalse(Files.exists(journal(cluster, "n1", id, StatementJournal.COMMITTED)),
                    "the decider applied and deleted its journal");
            cluster.restart("n3");
            List<Long> expected = new ArrayList<>(ids(0, 300));
            expected.addAll(ids(1000, 1600));
            assertEquals(expected, scan(session), "every row on every node");
            assertEquals(900, manifestRows(session));
            assertEquals(List.of(), journals(cluster, "n3"));
            assertEquals(InPlaceWrites.COMMITTED, outcome(session, "n1", id), "the decider keeps its record");
            assertEquals(100, insert(session, 5000, 5100), "writes in place go on");
        }
    }

    @Test
    void aNodeStoppedBeforeTheDecisionRollsBackWhenRestarted() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            load(session, 0, 300);
            long id = statement();
            applyEverywhere(session, id, 1000, 1600);
            for (String node : List.of("n1", "n2", "n3")) {
                prepare(session, node, id, "n1");
            }
            assertEquals(InPlaceWrites.PREPARED, outcome(session, "n1", id));
            cluster.stop("n3");
            // the coordinator rolls the statement back on the owners it reaches
            step(session, "n1", Messages.WRITE_ROLLBACK, id);
            step(session, "n2", Messages.WRITE_ROLLBACK, id);
            assertEquals(InPlaceWrites.NOT_DECIDED, outcome(session, "n1", id));
            assertTrue(Files.exists(journal(cluster, "n3", id, StatementJournal.PREPARED)));
            cluster.restart("n3"); // asks n1, which did not decide it
            assertEquals(ids(0, 300), scan(session), "the rows are on no node");
            assertEquals(300, manifestRows(session));
            for (String node : List.of("n1", "n2", "n3")) {
                assertEquals(List.of(), journals(cluster, node), node);
            }
            assertEquals(600, insert(session, 1000, 1600));
            assertEquals(900, scan(session).size());
        }
    }

    @Test
    void aStatementThatFailsToPrepareOnOneNodeLeavesTheTableAsItWas() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            load(session, 0, 300);
            String broken = session.spec().owners("t").get(1); // not the decider, the first owner
            Path writes = dataDir(cluster, broken).resolve("writes");
            org.oooengine.core.storage.Directories.deleteRecursively(writes);
            Files.writeString(writes, "not a directory"); // the journal cannot be written there
            ClusterWriter.Statement s = new ClusterWriter(session.peers()).begin(T, SplitPolicy.PREFIX);
            rows(1000, 1600).forEach(r -> s.add(ClusterWriter.RowWrite.INSERT, r));
            CompletionException e = assertThrows(CompletionException.class, s::commit);
            s.rollback();
            assertTrue(e.getMessage().contains("cannot write the journal"), e.getMessage());
            assertEquals(ids(0, 300), scan(session), "the table is as it was on every node");
            assertEquals(300, manifestRows(session));
            for (String node : List.of("n1", "n2", "n3")) {
                if (!node.equals(broken)) {
                    assertEquals(List.of(), journals(cluster, node), node);
                }
            }
            Files.delete(writes);
            Files.createDirectory(writes);
            assertEquals(600, insert(session, 1000, 1600));
            assertEquals(900, scan(session).size());
        }
    }

    /**
     * A node that stopped in the middle of its commit, some trees written and others not: its
     * committed journal writes them all again when it starts, and the rows and the index agree.
     */
    @Test
    void aCommitCutShortBetweenTreesIsRolledForwardFromItsJournal() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 1); ClusterSession session = cluster.session()) {
            load(session, 0, 300);
            long id = statement();
            applyEverywhere(session, id, 1000, 1600);
            apply(session, "n1", id, ClusterWriter.RowWrite.UPDATE, LongStream.range(0, 300).filter(i -> i % 3 == 0)
                    .mapToObj(i -> new Object[] {i, "renamed " + i}).toList());
            prepare(session, "n1", id, "n1");
            cluster.stop("n1");
            Path prepared = journal(cluster, "n1", id, StatementJournal.PREPARED);
            StatementJournal j = StatementJournal.read(prepared);
            assertEquals(2, j.trees().size(), "the rows and the name index");
            // the decision was taken (a .committed journal) and the first tree written, not the second
            Path committed = StatementJournal.markCommitted(prepared);
            Path store = dataDir(cluster, "n1").resolve("store");
            BTreeWriter.writeTo(StoreFiles.resolve(store, j.trees().get(0).file()), j.trees().get(0).flush());
            cluster.restart("n1");
            assertFalse(Files.exists(committed));
            List<Long> expected = new ArrayList<>(ids(0, 300));
            expected.addAll(ids(1000, 1600));
            assertEquals(expected, scan(session));
            assertEquals(900, manifestRows(session));
            cluster.stop("n1");
            try (Store s = Store.open(store, TestCluster.OPTIONS)) {
                Table t = s.table("t");
                assertEquals(List.of(), BTreeChecker.problems(t.tree()));
                assertEquals(List.of(), BTreeChecker.problems(t.index("t_name").tree()));
                assertEquals(900, t.tree().meta().entryCount());
                assertEquals(900, t.index("t_name").tree().meta().entryCount(), "an index entry per row");
                int[] renamed = {0};
                org.oooengine.core.storage.LeafScanner.forEachLeaf(t.index("t_name").tree(), leaf -> {
                    for (int i = 0; i < leaf.count(); i++) {
                        Object[] entry = t.index("t_name").codec().decode(leaf.key(i));
                        renamed[0] += ((String) entry[0]).startsWith("renamed ") ? 1 : 0;
                    }
                });
                assertEquals(100, renamed[0], "the index holds the updated names");
            }
        }
    }

    @Test
    void writesWaitForAnUnreachableDeciderAndGoOnOnceItIsBack() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            load(session, 0, 300);
            long id = statement();
            applyEverywhere(session, id, 1000, 1600);
            for (String node : List.of("n1", "n2", "n3")) {
                prepare(session, node, id, "n1");
            }
            step(session, "n1", Messages.WRITE_DECIDE, id);
            step(session, "n2", Messages.WRITE_COMMIT, id);
            cluster.stop("n3");
            cluster.stop("n1");
            cluster.restart("n3"); // its decider cannot be asked: the journal waits
            assertTrue(Files.exists(journal(cluster, "n3", id, StatementJournal.PREPARED)));
            CompletionException refused = assertThrows(CompletionException.class, () -> apply(session, "n3",
                    statement(), ClusterWriter.RowWrite.INSERT, List.<Object[]>of(new Object[] {7000L, "x"})));
            assertTrue(refused.getMessage().contains("waits for statement " + StatementJournal.name(id))
                    && refused.getMessage().contains("node n1"), refused.getMessage());
            cluster.restart("n1");
            List<Long> expected = new ArrayList<>(ids(0, 300));
            expected.addAll(ids(1000, 1600));
            long deadline = System.nanoTime() + 30_000_000_000L;
            // the prepared journal is renamed committed before the roll-forward, and deleted after it
            while (!journals(cluster, "n3").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(expected, scan(session), "n3 asked again and rolled forward");
            assertEquals(900, manifestRows(session));
            assertEquals(List.of(), journals(cluster, "n3"));
            assertEquals(100, insert(session, 7000, 7100));
        }
    }

    @Test
    void aDamagedJournalIsReportedAndNeverApplied() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            load(session, 0, 100);
            long id = statement();
            applyEverywhere(session, id, 1000, 1300);
            prepare(session, "n1", id, "n1");
            prepare(session, "n2", id, "n1");
            step(session, "n1", Messages.WRITE_DECIDE, id);
            cluster.stop("n2");
            Path journal = journal(cluster, "n2", id, StatementJournal.PREPARED);
            byte[] bytes = Files.readAllBytes(journal);
            int at = bytes.length / 2;
            bytes[at] ^= 0x10;
            Files.write(journal, bytes);
            RuntimeException e = assertThrows(RuntimeException.class, () -> cluster.restart("n2"));
            DataCorruptedException corrupt = cause(e, DataCorruptedException.class);
            String m = corrupt.getMessage();
            assertTrue(m.contains(journal.toString()) && m.contains("at offset ") && m.contains("checksum mismatch: expected 0x"),
                    m);
            assertEquals(journal, corrupt.file());
            bytes[at] ^= 0x10; // mended, the node starts and rolls the statement forward
            Files.write(journal, bytes);
            cluster.restart("n2");
            assertEquals(400, scan(session).size());
        }
    }

    // ---- The protocol's steps, as a coordinator sends them ----

    private static long statement() {
        return ThreadLocalRandom.current().nextLong();
    }

    private static void applyEverywhere(ClusterSession session, long id, long from, long to) {
        RowRouter router = new RowRouter(T, session.spec().owners("t"));
        Map<String, List<Object[]>> byOwner = new LinkedHashMap<>();
        for (Object[] row : rows(from, to)) {
            byOwner.computeIfAbsent(router.rowOwner(row), n -> new ArrayList<>()).add(row);
        }
        byOwner.forEach((node, rows) -> apply(session, node, id, ClusterWriter.RowWrite.INSERT, rows));
    }

    private static void apply(ClusterSession session, String node, long id, ClusterWriter.RowWrite kind,
                              List<Object[]> rows) {
        RowCodec codec = new RowCodec(T.schema());
        PayloadWriter w = new PayloadWriter(4096).put(Messages.WRITE_APPLY).putLong(id).putString("t").putString("prefix")
                .put((byte) kind.ordinal()).putVarInt(rows.size());
        rows.forEach(r -> w.putBytes(codec.encode(r)));
        call(session, node, w.toByteArray());
    }

    private static void prepare(ClusterSession session, String node, long id, String decider) {
        call(session, node, new PayloadWriter(64).put(Messages.WRITE_PREPARE).putLong(id).putString(decider).toByteArray());
    }

    private static void step(ClusterSession session, String node, byte step, long id) {
        call(session, node, new PayloadWriter(9).put(step).putLong(id).toByteArray());
    }

    private static byte outcome(ClusterSession session, String node, long id) {
        return call(session, node, new PayloadWriter(10).put(Messages.WRITE_OUTCOME).putLong(id).put((byte) 0)
                .toByteArray()).reader().get();
    }

    private static org.oooengine.core.net.Frame call(ClusterSession session, String node, byte[] payload) {
        return session.peers().client(node).call(OpCode.WRITE_ROWS, payload).join();
    }

    // ---- What the nodes hold ----

    private static Path dataDir(TestCluster cluster, String node) {
        return cluster.spec.dataDir(cluster.dir, cluster.spec.node(node));
    }

    private static Path journal(TestCluster cluster, String node, long id, String suffix) {
        return StatementJournal.file(dataDir(cluster, node).resolve("writes"), id, suffix);
    }

    private static List<String> journals(TestCluster cluster, String node) throws Exception {
        try (var files = Files.list(dataDir(cluster, node).resolve("writes"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.equals(WriteDecisions.FILE)).sorted()
                    .toList();
        }
    }

    private static long manifestRows(ClusterSession session) {
        long rows = 0;
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            StoreManifest.TableMeta meta = session.manifest(n.id()).table("t");
            rows += meta.rows();
        }
        return rows;
    }

    private static void load(ClusterSession session, long from, long to) throws Exception {
        new ClusterLoader(session.peers()).writeTable(T, rows(from, to).iterator(), false, (t, d, e) -> { });
    }

    /** Inserts rows {@code from} to {@code to} in place through a coordinator; returns the rows it says it wrote. */
    private static long insert(ClusterSession session, long from, long to) {
        ClusterWriter.Statement s = new ClusterWriter(session.peers()).begin(T, SplitPolicy.PREFIX);
        rows(from, to).forEach(r -> s.add(ClusterWriter.RowWrite.INSERT, r));
        return s.commit();
    }

    private static List<Object[]> rows(long from, long to) {
        return LongStream.range(from, to).mapToObj(i -> new Object[] {i, "name " + i}).toList();
    }

    private static List<Long> ids(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
    }

    private static List<Long> scan(ClusterSession session) {
        List<Long> out = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            session.scan(n.id(), "t", chunk -> {
                synchronized (out) {
                    chunk.forEach(r -> out.add(((Number) r[0]).longValue()));
                }
            }).join();
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static <E extends Throwable> E cause(Throwable e, Class<E> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + e, e);
    }
}
