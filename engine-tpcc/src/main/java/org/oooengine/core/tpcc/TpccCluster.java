package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.RowAccess;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.wire.PayloadWriter;

/**
 * TPC-C on a cluster's transactional tables: loading it, dispatching each transaction to the node
 * of its home warehouse (which runs it as {@link TpccNodeProcedure}), and checking the consistency
 * conditions afterwards.
 */
public final class TpccCluster {
    /** Rows written per transaction while loading. */
    private static final int LOAD_BATCH = 4000;

    /** Which engine keeps the rows: the transactional tables, or RocksDB's TransactionDB on each node (the baseline). */
    public enum Engine {
        OOO("ooo", TpccNodeProcedure.NAME), ROCKSDB_PESSIMISTIC("rocksdb-pessimistic", RocksTpccProcedure.NAME);

        private final String label;
        private final String procedure;

        Engine(String label, String procedure) {
            this.label = label;
            this.procedure = procedure;
        }

        public String label() {
            return label;
        }

        /** The engine called {@code label} ({@code ooo} or {@code rocksdb-pessimistic}). */
        public static Engine named(String label) {
            for (Engine e : values()) {
                if (e.label.equals(label)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("unknown engine '" + label + "'; use ooo or rocksdb-pessimistic");
        }
    }

    private final Peers peers;
    private final TpccPlacement placement;
    private final Engine engine;

    public TpccCluster(Peers peers, int warehouses, Engine engine) {
        this.peers = peers;
        this.placement = new TpccPlacement(warehouses, peers.spec().nodes().stream().map(n -> n.id()).toList());
        this.engine = engine;
    }

    /** A transaction over the engine's rows, coordinated here. */
    private RowAccess begin() {
        return engine == Engine.OOO ? new DistributedTransaction(peers) : new RocksTransaction(peers, null, null);
    }

    public TpccPlacement placement() {
        return placement;
    }

    /** The table that says how many warehouses were loaded, once they all were. */
    static final String LOADED = TransactionalTpccTables.PREFIX + "loaded";

    /** How many warehouses the nodes hold, 0 when TPC-C was not loaded (or not to its end). */
    public int loadedWarehouses() {
        String first = placement.nodes().get(0);
        RowAccess tx = begin();
        try {
            byte[] w = tx.get(first, LOADED, new byte[] {0});
            tx.commit();
            return w == null ? 0 : java.nio.ByteBuffer.wrap(w).getInt();
        } catch (RuntimeException e) {
            tx.abort();
            return 0; // no such table
        }
    }

    /** Drops TPC-C's tables from every node. */
    public void drop() {
        if (engine != Engine.OOO) {
            throw new IllegalStateException("the baseline's TPC-C tables are dropped by deleting procedures/"
                    + RocksTpccStore.RESOURCE + " under each node's data directory while the cluster is stopped");
        }
        TransactionalTables.drop(peers, LOADED);
        for (String name : TransactionalTpccTables.tableNames()) {
            TransactionalTables.drop(peers, name);
        }
    }

    /**
     * Generates and writes the warehouses' rows (clause 4.3.3) to the nodes that hold them, the items
     * to every node, then notes how many warehouses there are ({@link #loadedWarehouses});
     * {@code progress} hears each table as it is done and its rows.
     */
    public void load(long seed, long now, BiConsumer<String, Long> progress) {
        if (engine == Engine.OOO) {
            for (String name : TransactionalTpccTables.tableNames()) {
                TransactionalTables.create(peers, name);
            }
        }
        TpccGenerator generator = new TpccGenerator(placement.warehouses(), seed, now);
        for (String table : TpccSchema.TABLES) {
            Batches batches = new Batches();
            long[] rows = {0};
            generator.rows(table, row -> {
                rows[0]++;
                if (table.equals("item")) {
                    for (String node : placement.nodes()) {
                        batches.of(node).putItem(node, row);
                    }
                } else {
                    batches.of(placement.owner((Integer) row[TransactionalTpccTables.warehouseColumn(table)])).put(table, row);
                }
            });
            batches.commitAll();
            progress.accept(table, rows[0]);
        }
        if (engine == Engine.OOO) {
            TransactionalTables.create(peers, LOADED);
        }
        RowAccess done = begin();
        done.write(placement.nodes().get(0), LOADED, org.oooengine.core.cluster.TransactionalWrite.PUT, new byte[] {0},
                java.nio.ByteBuffer.allocate(4).putInt(placement.warehouses()).array());
        done.commit();
    }

    /** Loading transactions, one open per node, each committed after {@link #LOAD_BATCH} rows. */
    private final class Batches {
        private final Map<String, RowAccess> open = new HashMap<>();
        private final Map<String, Integer> counts = new HashMap<>();

        TransactionalTpccTables of(String node) {
            RowAccess tx = open.computeIfAbsent(node, n -> begin());
            if (counts.merge(node, 1, Integer::sum) > LOAD_BATCH) {
                tx.commit();
                counts.put(node, 1);
                tx = begin();
                open.put(node, tx);
            }
            return new TransactionalTpccTables(tx, placement, node);
        }

        void commitAll() {
            open.values().forEach(RowAccess::commit);
            open.clear();
            counts.clear();
        }
    }

    /** What a dispatched transaction did. */
    public record Outcome(boolean committed, int conflicts, boolean remote) {
    }

    /** Sends {@code input} to the node of its home warehouse, which runs it to its commit; the answer completes the future. */
    public CompletableFuture<Outcome> dispatch(TpccInput input, long historyKey, long now) {
        PayloadWriter args = new PayloadWriter(256).putInt(placement.warehouses());
        TpccInputCodec.write(input, args);
        args.putLong(historyKey).putLong(now).putLong(ThreadLocalRandom.current().nextLong());
        // the same warehouse, the same procedure thread on its node
        return TransactionalTables.procedure(peers, placement.owner(input.warehouse()), engine.procedure,
                input.warehouse(), args.toByteArray()).thenApply(r -> new Outcome(r.get() == 1, r.getInt(), r.get() == 1));
    }

    /**
     * What breaks consistency conditions 1 to 4 in any warehouse (each read in a transaction of its
     * own). Rows still locked by transactions the nodes are settling, and nodes still starting, are
     * waited for, up to a minute.
     */
    public List<String> consistencyProblems() {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
        List<String> problems = new ArrayList<>();
        for (int w = 1; w <= placement.warehouses(); w++) {
            while (true) {
                RowAccess tx = begin();
                try {
                    List<String> found = TpccConsistency.problems(
                            new TransactionalTpccTables(tx, placement, placement.owner(w)), w);
                    tx.commit();
                    problems.addAll(found);
                    break;
                } catch (RuntimeException e) { // a conflict, or a node not back yet
                    tx.abort();
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        }
        return problems;
    }
}
