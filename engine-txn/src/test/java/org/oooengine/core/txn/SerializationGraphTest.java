package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.core.txn.DependencyGraph.key;
import static org.oooengine.core.txn.DependencyGraph.version;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Read-modify-write transactions on a few hot keys: the recorded dependency graph has no cycle. */
class SerializationGraphTest {
    private static final int KEYS = 8;
    private static final int PER_THREAD = 3000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"nlr", "nlr-group:8", "elr", "elr-group:8", "elr-swal"})
    void readModifyWriteHistoryIsSerializable(String protocol) throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.parse(protocol), Durability.NONE)) {
            TransactionalTable t = db.createTable("rmw");
            List<byte[][]> rows = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                rows.add(new byte[][] {key(k), version(DependencyGraph.INITIAL)});
            }
            db.load(t, rows);
            List<DependencyGraph.Committed> history = Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int n = 0; n < 2; n++) {
                Worker w = db.newWorker();
                long base = (n + 1) * 1_000_000L;
                threads.add(new Thread(() -> runWorker(w, t, base, history)));
            }
            threads.forEach(Thread::start);
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(2 * PER_THREAD, history.size());
            DependencyGraph g = new DependencyGraph(history);
            assertEquals(List.of(), g.findCycle());
            assertTrue(g.nodes() > 2 * PER_THREAD);
        }
    }

    private static void runWorker(Worker w, TransactionalTable t, long base, List<DependencyGraph.Committed> history) {
        SplittableRandom r = new SplittableRandom(base);
        for (int i = 1; i <= PER_THREAD; i++) {
            long id = base + i;
            int reads = 1 + r.nextInt(3);
            int writes = r.nextInt(reads + 1);
            List<Integer> keys = new ArrayList<>();
            while (keys.size() < reads) {
                int k = r.nextInt(KEYS);
                if (!keys.contains(k)) {
                    keys.add(k);
                }
            }
            Map<Integer, Long> seen = new HashMap<>();
            Set<Integer> written = new HashSet<>();
            w.execute(tx -> {
                seen.clear();
                written.clear();
                for (int k : keys) {
                    seen.put(k, DependencyGraph.writerOf(tx.get(t, key(k))));
                }
                for (int j = 0; j < writes; j++) {
                    tx.put(t, key(keys.get(j)), version(id));
                    written.add(keys.get(j));
                }
            }, () -> history.add(new DependencyGraph.Committed(id, Map.copyOf(seen), Set.copyOf(written))));
        }
        w.flush();
    }

    /** The checker itself finds the cycle of a write skew. */
    @Test
    void checkerDetectsWriteSkew() {
        List<DependencyGraph.Committed> skew = List.of(
                new DependencyGraph.Committed(1, Map.of(0, 0L, 1, 0L), Set.of(0)),
                new DependencyGraph.Committed(2, Map.of(0, 0L, 1, 0L), Set.of(1)));
        assertEquals(2, new DependencyGraph(skew).findCycle().size());
        List<DependencyGraph.Committed> lost = List.of(
                new DependencyGraph.Committed(1, Map.of(0, 0L), Set.of(0)),
                new DependencyGraph.Committed(2, Map.of(0, 0L), Set.of(0)));
        assertThrows(AssertionError.class, () -> new DependencyGraph(lost));
    }
}
