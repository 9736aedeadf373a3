package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.JSON;
import static org.oooengine.core.cluster.NodeCalls.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadWriter;

/**
 * Puts back the copies of partitions a node lacks ({@code ooo cluster rebalance}): a node that
 * came back empty (its disk replaced) or lost some tables gets each partition it should hold
 * copied from a node holding it, file by file, through the coordinator, no faster than a set
 * rate, while queries run. A node serves none of a table until the table is whole on it: the
 * copies of one table are published together, one table after another, and until then its
 * partitions are read from the nodes that have them ({@link ServingNodes}).
 *
 * <p>The files copied do not change under the copy: a write in place into one of these partitions
 * needs every holder of it, the node being repaired among them, and it refuses to prepare one while
 * its load is open; the source's description is taken again at the end and the copy refused if it
 * differs.
 */
public final class ReplicaRepair {
    private static final Logger LOG = LogManager.getLogger(ReplicaRepair.class);
    static final int CHUNK_BYTES = 1 << 20;
    /** Chunks on their way to the node being repaired at once. */
    static final int WINDOW = 4;
    /** How long a node has to say which tables it holds before it counts as down. */
    static final Duration ASK_WITHIN = Duration.ofSeconds(10);

    /**
     * Partition {@code partition} of {@code table}, copied from {@code from}'s {@code fromStored} to
     * {@code to}'s {@code toStored}: files of the nodes' stores, or a transactional table's rows
     * ({@link TransactionalCopy}).
     */
    public record Copy(String table, int partition, String from, String fromStored, String to, String toStored,
                       boolean transactional) {
    }

    /** A partition that no node up holds. */
    public record Lost(String table, int partition, List<String> holders) {
    }

    /** What a repair copies; what it cannot (every holder down or empty); the nodes that did not answer. */
    /**
     * @param otherCopies the tables in the nodes' stores kept on another number of nodes than the
     *                    cluster's (loaded so), with that number
     */
    public record Plan(List<Copy> copies, List<Lost> lost, List<String> down, Map<String, Integer> otherCopies) {
        public boolean nothingToDo() {
            return copies.isEmpty();
        }
    }

    /** What a repair reports as it goes: a table is a transactional partition's stored name where its rows are copied. */
    public interface Listener {
        /** A table's copies onto {@code node} begin: {@code bytes} in all. */
        void tableStarted(String node, String table, long bytes);

        /** {@code bytes} more of the table being copied arrived. */
        void copied(long bytes);

        /** A table's copies are served on {@code node}. */
        void tableDone(String node, String table, long rows, long bytes, Duration took);
    }

    private final Peers peers;
    private final ClusterSpec spec;
    private final long maxBytesPerSecond;

    /** @param maxBytesPerSecond the most bytes a second the copies move, all together (0: no limit) */
    public ReplicaRepair(Peers peers, long maxBytesPerSecond) {
        this.peers = peers;
        this.spec = peers.spec();
        this.maxBytesPerSecond = maxBytesPerSecond;
    }

    /**
     * What each node lacks of the partitions it should hold, and where to copy each from: of the
     * tables in the nodes' stores, each on as many nodes as the names the nodes store tell
     * ({@link TableCopies}), and of the transactional tables kept with copies.
     */
    public Plan plan() {
        Map<String, Set<String>> held = new LinkedHashMap<>();
        Map<String, Set<String>> transactional = new LinkedHashMap<>();
        List<String> down = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            try {
                held.put(n.id(), storedTables(n.id()));
                transactional.put(n.id(), TransactionalCopy.tables(peers, n.id()));
            } catch (RuntimeException e) {
                LOG.warn("node {} does not say which tables it holds: {}", n.id(), e.getMessage());
                held.remove(n.id());
                down.add(n.id());
            }
        }
        Map<String, Integer> stored = new TreeMap<>(TableCopies.of(spec, held));
        Map<String, Integer> copiedTransactional = new TreeMap<>(TableCopies.of(spec, transactional));
        copiedTransactional.values().removeIf(n -> n < 2); // one kept once has none to put back
        List<Copy> copies = new ArrayList<>();
        List<Lost> lost = new ArrayList<>();
        plan(stored, held, false, copies, lost);
        plan(copiedTransactional, transactional, true, copies, lost);
        Map<String, Integer> other = new TreeMap<>(stored);
        other.values().removeIf(n -> n == spec.replication());
        return new Plan(copies, lost, down, other);
    }

    /**
     * Adds to {@code copies} each partition of {@code tables} (each with its number of copies) a
     * node lacks, to {@code lost} each that none has.
     */
    private void plan(Map<String, Integer> tables, Map<String, Set<String>> held, boolean transactional,
                      List<Copy> copies, List<Lost> lost) {
        for (Map.Entry<String, Integer> t : tables.entrySet()) {
            String table = t.getKey();
            for (int p = 0; p < spec.owners(table).size(); p++) {
                List<String> holders = spec.holders(table, p, t.getValue());
                final int partition = p;
                List<String> having = holders.stream().filter(h -> held.getOrDefault(h, Set.of())
                        .contains(spec.storedName(table, partition, h))).toList();
                if (having.isEmpty()) {
                    lost.add(new Lost(table, p, holders));
                    continue;
                }
                for (String h : holders) {
                    if (held.containsKey(h) && !having.contains(h)) {
                        String from = having.get(0);
                        copies.add(new Copy(table, p, from, spec.storedName(table, p, from), h,
                                spec.storedName(table, p, h), transactional));
                    }
                }
            }
        }
    }

    /**
     * Copies everything {@code plan} lists, a table onto a node at a time: the transactional tables'
     * partitions first (a node serves again once it holds every table's), then the stores' tables.
     */
    public void run(Plan plan, Listener listener) throws InterruptedException {
        Pacer pacer = new Pacer(maxBytesPerSecond);
        for (Copy c : plan.copies()) {
            if (c.transactional()) {
                long t0 = System.nanoTime();
                listener.tableStarted(c.to(), c.toStored(), 0);
                long[] rowsAndBytes = TransactionalCopy.run(peers, c, pacer, listener);
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                LOG.info("node {} holds partition {} of transactional table {} again: {} rows in {} ms", c.to(),
                        c.partition(), c.table(), rowsAndBytes[0], took.toMillis());
                listener.tableDone(c.to(), c.toStored(), rowsAndBytes[0], rowsAndBytes[1], took);
            }
        }
        Map<String, Map<String, List<Copy>>> byNode = new LinkedHashMap<>();
        for (Copy c : plan.copies()) {
            if (!c.transactional()) {
                byNode.computeIfAbsent(c.to(), n -> new LinkedHashMap<>()).computeIfAbsent(c.table(), t -> new ArrayList<>())
                        .add(c);
            }
        }
        for (Map.Entry<String, Map<String, List<Copy>>> node : byNode.entrySet()) {
            for (Map.Entry<String, List<Copy>> table : node.getValue().entrySet()) {
                copyTable(node.getKey(), table.getKey(), table.getValue(), pacer, listener);
            }
        }
    }

    /** The names of the tables {@code node}'s store holds. */
    private Set<String> storedTables(String node) {
        Frame f = await(peers.client(node).call(OpCode.PARTITION_STATS, new byte[0], ASK_WITHIN));
        try {
            Set<String> names = new TreeSet<>();
            JsonNode rows = JSON.readTree(f.payload()).path("rows");
            rows.fieldNames().forEachRemaining(names::add);
            return names;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("node " + node + " sent unreadable statistics", e);
        }
    }

    /** One table's missing partitions onto {@code node}, published there together. */
    private void copyTable(String node, String table, List<Copy> copies, Pacer pacer, Listener listener)
            throws InterruptedException {
        long t0 = System.nanoTime();
        List<StoredTableFiles> sources = new ArrayList<>();
        for (Copy c : copies) {
            sources.add(describe(c.from(), c.fromStored()));
        }
        long bytes = sources.stream().mapToLong(StoredTableFiles::totalBytes).sum();
        listener.tableStarted(node, table, bytes);
        StoredTableFiles first = sources.get(0);
        PayloadWriter start = new PayloadWriter().put(Messages.LOAD_START).putVarInt(first.pageSize())
                .putLong(Double.doubleToLongBits(first.fillFactor())).put(Messages.LOAD_KEEP_TABLES).putVarInt(0);
        load(node, start.toByteArray(), null);
        long rows = 0;
        try {
            Iterator<StoredTableFiles> source = sources.iterator();
            for (Copy c : copies) {
                rows += copyFiles(c, source.next(), pacer, listener);
            }
            load(node, new PayloadWriter().put(Messages.LOAD_PREPARE).putBytes("{}".getBytes(
                    java.nio.charset.StandardCharsets.UTF_8)).toByteArray(), ClusterLoader.BUILD_TIMEOUT);
        } catch (RuntimeException | InterruptedException e) {
            load(node, new byte[] {Messages.LOAD_ABORT}, null);
            throw e;
        }
        load(node, new byte[] {Messages.LOAD_PUBLISH}, ClusterLoader.BUILD_TIMEOUT);
        load(node, new byte[] {Messages.LOAD_FORGET}, null);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("node {} holds its {} partitions of {} again: {} rows, {} bytes in {} ms", node, copies.size(), table,
                rows, bytes, took.toMillis());
        listener.tableDone(node, table, rows, bytes, took);
    }

    /** Copies one stored table's files; returns its rows. */
    private long copyFiles(Copy c, StoredTableFiles source, Pacer pacer, Listener listener) throws InterruptedException {
        load(c.to(), new PayloadWriter().put(Messages.LOAD_COPY_BEGIN).putString(c.toStored())
                .putBytes(json(source)).toByteArray(), null);
        Semaphore window = new Semaphore(WINDOW);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        for (Map.Entry<String, Long> file : source.fileBytes().entrySet()) {
            for (long offset = 0; offset < file.getValue(); ) {
                int length = (int) Math.min(CHUNK_BYTES, file.getValue() - offset);
                byte[] chunk = await(peers.client(c.from()).call(OpCode.STORED_FILES, new PayloadWriter()
                        .put(Messages.FILES_READ).putString(c.fromStored()).putString(file.getKey()).putLong(offset)
                        .putVarInt(length).toByteArray())).payload();
                if (chunk.length != length) {
                    throw new ClusterException("node " + c.from() + " sent " + chunk.length + " bytes of " + file.getKey()
                            + " at " + offset + " where " + length + " were asked: its table " + c.fromStored()
                            + " changed while it was copied; run the repair again");
                }
                window.acquire();
                rethrow(failed, c);
                loadAsync(c.to(), new PayloadWriter(length + 128).put(Messages.LOAD_COPY_CHUNK).putString(c.toStored())
                        .putString(file.getKey()).putLong(offset).putBytes(chunk).toByteArray()).whenComplete((f, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, e);
                            }
                            window.release();
                        });
                offset += length;
                listener.copied(length);
                pacer.paid(length);
            }
        }
        window.acquire(WINDOW);
        rethrow(failed, c);
        long rows = await(loadAsync(c.to(), new PayloadWriter().put(Messages.LOAD_COPY_FINISH).putString(c.toStored())
                .toByteArray())).reader().getLong();
        StoredTableFiles after = describe(c.from(), c.fromStored());
        if (!after.equals(source)) {
            throw new ClusterException("table " + c.fromStored() + " on node " + c.from()
                    + " changed while it was copied; run the repair again");
        }
        return rows;
    }

    private static void rethrow(AtomicReference<Throwable> failed, Copy c) {
        Throwable e = failed.get();
        if (e != null) {
            throw new ClusterException("copying " + c.toStored() + " onto node " + c.to() + " failed: " + e.getMessage(), e);
        }
    }

    private StoredTableFiles describe(String node, String stored) {
        Frame f = await(peers.client(node).call(OpCode.STORED_FILES, new PayloadWriter().put(Messages.FILES_DESCRIBE)
                .putString(stored).toByteArray()));
        return NodeCalls.json(node, f, new com.fasterxml.jackson.core.type.TypeReference<StoredTableFiles>() { },
                "an unreadable description of table " + stored);
    }

    private static byte[] json(StoredTableFiles files) {
        try {
            return JSON.writeValueAsBytes(files);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void load(String node, byte[] payload, Duration timeout) {
        await(timeout == null ? loadAsync(node, payload) : peers.client(node).call(OpCode.BULK_LOAD, payload, timeout));
    }

    private CompletableFuture<Frame> loadAsync(String node, byte[] payload) {
        return peers.client(node).call(OpCode.BULK_LOAD, payload);
    }

    /** Holds the copies to a rate: sleeps while they ran ahead of it. */
    static final class Pacer {
        private final long bytesPerSecond;
        private final long startNanos = System.nanoTime();
        private long bytes;

        Pacer(long bytesPerSecond) {
            this.bytesPerSecond = bytesPerSecond;
        }

        void paid(long more) throws InterruptedException {
            bytes += more;
            if (bytesPerSecond <= 0) {
                return;
            }
            long due = startNanos + (long) (bytes * 1e9 / bytesPerSecond);
            long ahead = due - System.nanoTime();
            if (ahead > 0) {
                Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
            }
        }
    }
}
