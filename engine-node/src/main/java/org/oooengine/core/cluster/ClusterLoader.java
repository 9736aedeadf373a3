package org.oooengine.core.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.RowCodec;

/**
 * Loads generated TPC-H into a running cluster: every row is sent to the node owning its primary
 * key, and every entry of a GLOBAL index to the node owning the index key. Rows travel in bulk-load
 * requests of about {@value #CHUNK_BYTES} bytes with at most {@value #WINDOW} unanswered per node,
 * so a slow node slows the generator instead of filling memory. A load commits on every node or
 * on none: the nodes prepare their new stores, then publish them ({@link #commit}). Loads change the tables they write and keep the nodes' others.
 */
public final class ClusterLoader {
    private static final Logger LOG = LogManager.getLogger(ClusterLoader.class);
    static final int CHUNK_BYTES = 256 << 10;
    static final int WINDOW = 4;
    /** Sorting and writing a large partition's trees takes minutes, not a request's seconds. */
    static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Peers peers;
    private final ClusterSpec spec;
    /** On how many nodes the tables written keep each partition. */
    private final int copies;

    /** A loader keeping each partition on the cluster's number of nodes. */
    public ClusterLoader(Peers peers) {
        this(peers, peers.spec().replication());
    }

    /**
     * A loader keeping each partition of the tables it writes on {@code copies} nodes
     * ({@link #copiesAllowed}); the nodes' stored names tell every coordinator ({@link TableCopies}).
     */
    public ClusterLoader(Peers peers, int copies) {
        this.peers = peers;
        this.spec = peers.spec();
        String refused = copiesAllowed(spec, copies);
        if (refused != null) {
            throw new IllegalArgumentException(refused);
        }
        this.copies = copies;
    }

    /**
     * Why a table of the nodes' stores cannot keep each partition on {@code copies} nodes of
     * {@code spec}'s cluster, or null where it can: from 1 to the number of nodes on a cluster that
     * keeps copies; 1 on one that does not (its coordinators do not follow the nodes' tables).
     */
    public static String copiesAllowed(ClusterSpec spec, int copies) {
        int most = spec.replication() == 1 ? 1 : spec.nodes().size();
        return copies >= 1 && copies <= most ? null : "cluster " + spec.name() + " keeps " + spec.replication()
                + " copies of each partition; a table may keep " + (most == 1 ? "1" : "1 to " + most) + ", not " + copies;
    }

    /** Loads TPC-H, replacing the nodes' TPC-H tables; other tables (created through SQL) stay. */
    public void loadTpch(TpchLoader generator, TpchLoader.Progress progress) throws Exception {
        long t0 = System.nanoTime();
        List<String> tpchTables = storedNames(TpchSchema.tables().stream().map(t -> TpchSchema.definition(t).name()).toList());
        startKeepingTables(spec.nodes().stream().map(ClusterSpec.NodeSpec::id).toList(), generator.pageSize(),
                generator.fillFactor(), tpchTables);
        for (TpchTable<?> table : TpchSchema.tables()) {
            loadTable(generator, table, progress);
        }
        commit(spec.nodes().stream().map(ClusterSpec.NodeSpec::id).toList(), node -> {
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("generator", "tpch");
            source.put("library", "io.trino.tpch");
            source.put("scaleFactor", generator.scaleFactor());
            source.put("cluster", spec.name());
            source.put("node", node);
            source.put("nodes", spec.nodes().size());
            return source;
        });
        LOG.info("loaded TPC-H SF {} into cluster {} ({} nodes) in {} s", generator.scaleFactor(), spec.name(),
                spec.nodes().size(), String.format("%.1f", (System.nanoTime() - t0) / 1e9));
    }

    /**
     * Loads generated tables, replacing these tables on every node in one commit (other tables
     * stay): {@code rows} gives each table's rows, {@code expected} about how many for progress,
     * and {@code source} is what each node's manifest records as the data's source.
     */
    public void loadGenerated(List<TableDefinition> tables, Function<TableDefinition, Iterator<Object[]>> rows,
                              ToLongFunction<TableDefinition> expected, int pageSize, double fillFactor,
                              Map<String, Object> source, TpchLoader.Progress progress) throws Exception {
        List<String> nodes = spec.nodes().stream().map(ClusterSpec.NodeSpec::id).toList();
        startKeepingTables(nodes, pageSize, fillFactor, storedNames(tables.stream().map(TableDefinition::name).toList()));
        try {
            for (TableDefinition def : tables) {
                TableRows sent = new TableRows(def, false, expected.applyAsLong(def), progress);
                for (Iterator<Object[]> it = rows.apply(def); it.hasNext(); ) {
                    sent.add(it.next());
                }
                sent.finish();
            }
        } catch (Exception | Error e) {
            abort(nodes);
            throw e;
        }
        commit(nodes, node -> {
            Map<String, Object> s = new LinkedHashMap<>(source);
            s.put("cluster", spec.name());
            s.put("node", node);
            s.put("nodes", spec.nodes().size());
            return s;
        });
    }

    private <E extends TpchEntity> void loadTable(TpchLoader generator, TpchTable<E> table, TpchLoader.Progress progress)
            throws Exception {
        TableDefinition def = TpchSchema.definition(table);
        TableRows rows = new TableRows(def, false, generator.expectedRows(def.name()), progress);
        for (Iterator<Object[]> it = generator.rows(table); it.hasNext(); ) {
            rows.add(it.next());
        }
        rows.finish();
    }

    /**
     * Writes one table on every node that holds a partition of it, keeping the nodes' other tables:
     * the rows replace the table's rows (creating it if new), or with {@code append} are added to
     * them. Each node swaps in the changed table when it commits.
     *
     * @return the rows the table holds afterwards
     */
    public long writeTable(TableDefinition def, Iterator<Object[]> rows, boolean append, TpchLoader.Progress progress)
            throws Exception {
        TableWrite w = beginWrite(def, append, progress);
        try {
            while (rows.hasNext()) {
                w.add(rows.next());
            }
            return w.commit();
        } catch (Exception | Error e) {
            w.abort();
            throw e;
        }
    }

    /** A write of one table whose rows the caller pushes: {@link TableWrite#commit} or {@link TableWrite#abort} ends it. */
    public TableWrite beginWrite(TableDefinition def, boolean append, TpchLoader.Progress progress) throws Exception {
        List<String> owners = spec.owners(def.name());
        startKeepingTables(owners, storedNames(List.of(def.name())));
        try {
            return new TableWrite(owners, new TableRows(def, append, -1, progress));
        } catch (Exception | Error e) {
            abort(owners);
            throw e;
        }
    }

    /** Rows on their way into one table, the nodes' other tables kept. */
    public final class TableWrite {
        private final List<String> owners;
        private final TableRows rows;

        private TableWrite(List<String> owners, TableRows rows) {
            this.owners = owners;
            this.rows = rows;
        }

        /** A row in the table's stored values. */
        public void add(Object[] row) throws InterruptedException {
            rows.add(row);
        }

        /** Has every node build and swap in its partition; returns the rows the table holds. */
        public long commit() throws Exception {
            long total = rows.finish();
            ClusterLoader.this.commit(owners, node -> Map.of());
            return total;
        }

        /** Drops what was sent: the nodes keep the table as it was. */
        public void abort() {
            ClusterLoader.this.abort(owners);
        }
    }

    /** Discards the nodes' unfinished loads, so their staging directories go now rather than at the next load. */
    private void abort(List<String> nodes) {
        for (String n : nodes) {
            call(n, new byte[] {Messages.LOAD_ABORT}).exceptionally(e -> {
                LOG.warn("node {} did not discard its unfinished load: {}", n, e.getMessage());
                return null;
            });
        }
    }

    /** Drops a table from every node, keeping their other tables. */
    public void dropTable(String table) {
        List<String> owners = spec.owners(table);
        List<String> stored = storedNames(List.of(table));
        startKeepingTables(owners, stored);
        List<CompletableFuture<?>> dropped = new ArrayList<>();
        for (String node : owners) {
            for (String name : stored) {
                dropped.add(call(node, new PayloadWriter().put(Messages.LOAD_DROP).putString(name).toByteArray()));
            }
        }
        CompletableFuture.allOf(dropped.toArray(CompletableFuture[]::new)).join();
        commit(owners, node -> Map.of());
    }

    /**
     * The names {@code tables} are stored under on the nodes: each table's own and, where the
     * cluster keeps copies, each partition's replica name (replaced by the load's, or dropped by a
     * load keeping one copy).
     */
    private List<String> storedNames(List<String> tables) {
        List<String> names = new ArrayList<>();
        for (String table : tables) {
            names.add(table);
            int partitions = spec.owners(table).size();
            for (int p = 0; spec.replication() > 1 && p < partitions; p++) {
                names.add(ClusterSpec.replicaName(table, p));
            }
        }
        return names;
    }

    /** Starts a load on {@code nodes} that keeps their tables other than {@code replacing}, in their store's page size. */
    private void startKeepingTables(List<String> nodes, List<String> replacing) {
        startKeepingTables(nodes, 0, 0, replacing);
    }

    private void startKeepingTables(List<String> nodes, int pageSize, double fillFactor, List<String> replacing) {
        PayloadWriter w = new PayloadWriter().put(Messages.LOAD_START).putVarInt(pageSize)
                .putLong(Double.doubleToLongBits(fillFactor)).put(Messages.LOAD_KEEP_TABLES).putVarInt(replacing.size());
        replacing.forEach(w::putString);
        byte[] payload = w.toByteArray();
        for (String n : nodes) {
            call(n, payload).join();
        }
    }

    /**
     * Ends a load on {@code nodes} on all of them or on none: each prepares its staged store, then
     * each publishes it; a node that cannot has the others serve their previous store again. What
     * each node's manifest records as the data's source is {@code source} of that node.
     */
    private void commit(List<String> nodes, Function<String, Map<String, Object>> source) {
        List<CompletableFuture<Frame>> prepared = new ArrayList<>();
        for (String n : nodes) {
            prepared.add(call(n, new PayloadWriter().put(Messages.LOAD_PREPARE).putBytes(json(source.apply(n)))
                    .toByteArray(), BUILD_TIMEOUT));
        }
        try {
            CompletableFuture.allOf(prepared.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            abort(nodes);
            throw new ClusterException("the load was not committed, the tables are as they were: "
                    + cause(e).getMessage(), cause(e));
        }
        List<String> published = new ArrayList<>();
        for (String n : nodes) {
            try {
                call(n, new byte[] {Messages.LOAD_PUBLISH}, BUILD_TIMEOUT).join();
                published.add(n);
            } catch (CompletionException e) {
                restore(published, nodes.subList(published.size(), nodes.size()));
                throw new ClusterException("node " + n + " could not publish the load, so no node did; the tables are "
                        + "as they were: " + cause(e).getMessage(), cause(e));
            }
        }
        for (String n : nodes) {
            call(n, new byte[] {Messages.LOAD_FORGET}).exceptionally(e -> {
                LOG.debug("node {} keeps the store the load replaced until its next load: {}", n, e.getMessage());
                return null;
            });
        }
    }

    /** Brings back the replaced store on the nodes that published, and discards the load on the others. */
    private void restore(List<String> published, List<String> others) {
        for (String n : published) {
            try {
                call(n, new byte[] {Messages.LOAD_RESTORE}, BUILD_TIMEOUT).join();
            } catch (CompletionException e) {
                LOG.error("node {} published a load that another node could not, and did not restore its store: {}", n,
                        cause(e).getMessage());
            }
        }
        abort(others);
    }

    private static byte[] json(Map<String, Object> source) {
        try {
            return JSON.writeValueAsBytes(source);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write load source " + source, e);
        }
    }

    private static Throwable cause(CompletionException e) {
        return e.getCause() == null ? e : e.getCause();
    }

    /**
     * One table's rows sent to the nodes holding them, each row and GLOBAL index entry to every
     * holder of its partition: the owner stores it under the table's name, the others under the
     * partition's replica name ({@link ClusterSpec#replicaName}).
     */
    private final class TableRows {
        private final TableDefinition def;
        private final RowRouter router;
        /** Per partition, a batch per node holding it, the owner's first. */
        private final List<List<NodeBatch>> holders = new ArrayList<>();
        private final RowCodec codec;
        private final long expected;
        private final TpchLoader.Progress progress;
        private long done;

        /** Has the holders begin the table (with {@code append}, from the rows they hold). */
        TableRows(TableDefinition def, boolean append, long expected, TpchLoader.Progress progress) {
            this.def = def;
            List<String> owners = spec.owners(def.name());
            this.router = new RowRouter(def, owners);
            this.codec = new RowCodec(def.schema());
            this.expected = expected;
            this.progress = progress;
            List<CompletableFuture<?>> begun = new ArrayList<>();
            for (int p = 0; p < owners.size(); p++) {
                List<NodeBatch> batches = new ArrayList<>();
                for (String node : spec.holders(def.name(), p, copies)) {
                    String stored = batches.isEmpty() ? def.name() : ClusterSpec.replicaName(def.name(), p);
                    PayloadWriter w = new PayloadWriter(512).put(Messages.LOAD_BEGIN);
                    Messages.writeDefinition(w, new TableDefinition(stored, def.schema(), def.primaryKey(), def.indexes(),
                            def.inputSorted()));
                    w.put(append ? Messages.LOAD_APPEND : 0);
                    begun.add(call(node, w.toByteArray()));
                    batches.add(new NodeBatch(node, stored));
                }
                holders.add(batches);
            }
            CompletableFuture.allOf(begun.toArray(CompletableFuture[]::new)).join();
            progress.update(def.name(), 0, expected);
        }

        void add(Object[] row) throws InterruptedException {
            byte[] encoded = codec.encode(row);
            for (NodeBatch b : holders.get(router.rowPartition(row))) {
                b.add(0, encoded);
            }
            for (int i = 0; i < def.indexes().size(); i++) {
                if (router.global(i)) {
                    for (NodeBatch b : holders.get(router.indexPartition(i, row))) {
                        b.add(i + 1, encoded);
                    }
                }
            }
            if (++done % 50_000 == 0) {
                progress.update(def.name(), done, expected);
            }
        }

        /** Sends what is left and has the nodes build their partitions; returns the rows the owners hold. */
        long finish() throws InterruptedException {
            List<NodeBatch> all = holders.stream().flatMap(List::stream).toList();
            for (NodeBatch b : all) {
                b.send();
            }
            for (NodeBatch b : all) {
                b.drain();
            }
            List<CompletableFuture<Frame>> owned = new ArrayList<>();
            List<CompletableFuture<Frame>> finished = new ArrayList<>();
            for (List<NodeBatch> partition : holders) {
                for (NodeBatch b : partition) {
                    CompletableFuture<Frame> f = call(b.node, new PayloadWriter().put(Messages.LOAD_FINISH_TABLE)
                            .putString(b.table).toByteArray(), BUILD_TIMEOUT);
                    finished.add(f);
                    if (b == partition.get(0)) {
                        owned.add(f);
                    }
                }
            }
            // The nodes sort and build their partitions in parallel.
            CompletableFuture.allOf(finished.toArray(CompletableFuture[]::new)).join();
            progress.update(def.name(), done, done);
            long total = 0;
            for (CompletableFuture<Frame> f : owned) {
                total += f.join().reader().getLong();
            }
            return total;
        }
    }

    /** A request to {@code node}; a node that cannot be reached fails the future, naming it, as one that fails to answer. */
    private CompletableFuture<Frame> call(String node, byte[] payload) {
        return call(node, payload, null);
    }

    private CompletableFuture<Frame> call(String node, byte[] payload, Duration timeout) {
        try {
            return timeout == null ? peers.client(node).call(OpCode.BULK_LOAD, payload)
                    : peers.client(node).call(OpCode.BULK_LOAD, payload, timeout);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Rows and entries on their way to one node, with its window of unanswered requests. */
    private final class NodeBatch {
        private final String node;
        private final String table;
        private final Semaphore window = new Semaphore(WINDOW);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private PayloadWriter body = new PayloadWriter(CHUNK_BYTES + 4096);
        private int count;

        NodeBatch(String node, String table) {
            this.node = node;
            this.table = table;
        }

        /** @param kind 0 for a row of this node's partition, i + 1 for an entry of index i */
        void add(int kind, byte[] encodedRow) throws InterruptedException {
            body.putVarInt(kind).putBytes(encodedRow);
            if (++count >= 1 && body.length() >= CHUNK_BYTES) {
                send();
            }
        }

        void send() throws InterruptedException {
            if (count == 0) {
                return;
            }
            rethrow();
            byte[] rows = body.toByteArray();
            byte[] payload = new PayloadWriter(rows.length + 64).put(Messages.LOAD_ROWS).putString(table)
                    .putVarInt(count).putBytesRaw(rows).toByteArray();
            body = new PayloadWriter(CHUNK_BYTES + 4096);
            count = 0;
            window.acquire();
            call(node, payload).whenComplete((r, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                }
                window.release();
            });
        }

        void drain() throws InterruptedException {
            window.acquire(WINDOW);
            window.release(WINDOW);
            rethrow();
        }

        private void rethrow() {
            Throwable e = failure.get();
            if (e != null) {
                throw new ClusterException("loading " + table + " on node " + node + " failed: " + e.getMessage(), e);
            }
        }
    }
}
