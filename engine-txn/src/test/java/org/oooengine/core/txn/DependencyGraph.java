package org.oooengine.core.txn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The serialization graph of committed read-modify-write transactions, for tests. Every row
 * value names the transaction that wrote it, so a committed transaction is described by the
 * versions it read and the keys it wrote. Edges: write-read (writer of a version before its
 * readers), write-write (a version before the one that replaced it) and read-write (readers of a
 * version before the transaction that replaced it). The history is serializable iff the graph
 * has no cycle.
 */
final class DependencyGraph {
    /** The initial load, writer of every first version. */
    static final long INITIAL = 0;

    /** Key {@code k} of a history's table. */
    static byte[] key(int k) {
        return java.nio.ByteBuffer.allocate(4).putInt(k).array();
    }

    static int keyOf(byte[] key) {
        return java.nio.ByteBuffer.wrap(key).getInt();
    }

    /** A row's value: the id of the transaction that wrote it. */
    static byte[] version(long id) {
        return java.nio.ByteBuffer.allocate(8).putLong(id).array();
    }

    static long writerOf(byte[] value) {
        return java.nio.ByteBuffer.wrap(value).getLong();
    }

    record Committed(long id, Map<Integer, Long> readVersions, Set<Integer> written) {
    }

    private final Map<Long, Set<Long>> edges = new HashMap<>();
    /** key -> version -> the transaction that overwrote it. */
    private final Map<Integer, Map<Long, Long>> overwrittenBy = new HashMap<>();

    DependencyGraph(List<Committed> history) {
        for (Committed c : history) {
            edges.computeIfAbsent(c.id(), x -> new HashSet<>());
            for (int k : c.written()) {
                Long prev = c.readVersions().get(k);
                if (prev == null) {
                    throw new IllegalArgumentException("transaction " + c.id() + " wrote key " + k + " without reading it");
                }
                Long other = overwrittenBy.computeIfAbsent(k, x -> new HashMap<>()).putIfAbsent(prev, c.id());
                if (other != null) {
                    throw new AssertionError("lost update: transactions " + other + " and " + c.id()
                            + " both replaced version " + prev + " of key " + k);
                }
                edge(prev, c.id());
            }
        }
        for (Committed c : history) {
            for (Map.Entry<Integer, Long> r : c.readVersions().entrySet()) {
                edge(r.getValue(), c.id());
                Long next = overwrittenBy.getOrDefault(r.getKey(), Map.of()).get(r.getValue());
                if (next != null && next != c.id()) {
                    edge(c.id(), next);
                }
            }
        }
    }

    private void edge(long from, long to) {
        edges.computeIfAbsent(from, x -> new HashSet<>()).add(to);
        edges.computeIfAbsent(to, x -> new HashSet<>());
    }

    int nodes() {
        return edges.size();
    }

    /** A cycle as a list of transaction ids, or an empty list. */
    List<Long> findCycle() {
        Map<Long, Integer> state = new HashMap<>(); // 1 on the stack, 2 done
        for (Long start : edges.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            // Iterative DFS: the histories are long enough to overflow the call stack.
            List<Long> path = new ArrayList<>();
            List<java.util.Iterator<Long>> its = new ArrayList<>();
            path.add(start);
            its.add(edges.get(start).iterator());
            state.put(start, 1);
            while (!path.isEmpty()) {
                java.util.Iterator<Long> it = its.get(its.size() - 1);
                if (it.hasNext()) {
                    Long next = it.next();
                    Integer s = state.get(next);
                    if (s == null) {
                        state.put(next, 1);
                        path.add(next);
                        its.add(edges.get(next).iterator());
                    } else if (s == 1) {
                        return new ArrayList<>(path.subList(path.indexOf(next), path.size()));
                    }
                } else {
                    state.put(path.remove(path.size() - 1), 2);
                    its.remove(its.size() - 1);
                }
            }
        }
        return List.of();
    }
}
