package org.oooengine.cluster.bench.tpcc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.PageFile;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.TreeHealth;
import org.oooengine.core.tpcc.TpccDatabase;
import org.oooengine.core.tpcc.TpccTransactions;

/**
 * Seed 001's experiment: TPC-C's transactions run in place on B+tree tables under one split
 * policy, and how full the order tables' leaves end against their bulk load, with what Delivery
 * reads. The database is loaded once per warehouse count (into {@code <dir>/loaded-<W>}) and
 * copied for each run, so every policy runs the same transactions on the same data.
 */
public final class TpccFill {
    static final long SEED = 2026;
    static final long NOW = 1_764_000_000_000L;

    /** What one run measured; fills are entries' bytes over their leaves' room. */
    public record Result(String policy, int warehouses, long transactions, double orderFill, double orderFillLoaded,
                         long orderPages, long orderPagesLoaded, double newOrderFill, double orderLineFill,
                         long deliveries, long deliveryPageReads, long deliveryPoolMisses, double tpm, double seconds,
                         long[] fillHistogram) {
    }

    private TpccFill() {
    }

    /**
     * Runs {@code transactions} of the standard mix on a copy of the loaded database, flushing
     * every {@code flushEvery}; {@code progress} hears how many ran, now and then.
     */
    public static Result run(Path dir, int warehouses, long transactions, SplitPolicy policy, int bufferPoolMb,
                             int flushEvery, java.util.function.LongConsumer progress) throws Exception {
        Path loaded = dir.resolve("loaded-" + warehouses);
        if (!Files.exists(loaded.resolve("done"))) {
            deleteTree(loaded);
            TpccDatabase.load(loaded, warehouses, SEED, NOW);
            Files.writeString(loaded.resolve("done"), "loaded\n");
        }
        Path run = dir.resolve("run-" + policy.name().toLowerCase(java.util.Locale.ROOT));
        deleteTree(run);
        Files.createDirectories(run);
        try (Stream<Path> files = Files.list(loaded)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".data") || f.toString().endsWith(".idx")).toList()) {
                Files.copy(f, run.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        TreeHealth ordersLoaded = health(run.resolve("orders.data"));
        ExecutorService io = Executors.newFixedThreadPool(4);
        try {
            BufferPool pool = new BufferPool((long) bufferPoolMb << 20, TpccDatabase.PAGE_SIZE, io, Runnable::run);
            long deliveries = 0;
            long deliveryReads = 0;
            long deliveryMisses = 0;
            long t0 = System.nanoTime();
            long[] counts;
            try (TpccDatabase db = TpccDatabase.open(run, warehouses, policy, pool)) {
                TpccTransactions tx = new TpccTransactions(db, SEED + 1, NOW + 1);
                List<String> deliveryTables = List.of("new_order", "orders", "order_line", "customer");
                for (long i = 1; i <= transactions; i++) {
                    long reads = accesses(db, deliveryTables);
                    long misses = pool.misses();
                    if (tx.next() == TpccTransactions.Kind.DELIVERY) {
                        deliveries++;
                        deliveryReads += accesses(db, deliveryTables) - reads;
                        deliveryMisses += pool.misses() - misses;
                    }
                    if (i % flushEvery == 0) {
                        db.flush();
                    }
                    if (i % 10_000 == 0) {
                        progress.accept(i);
                    }
                }
                db.flush();
                counts = tx.counts();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            TreeHealth orders = health(run.resolve("orders.data"));
            return new Result(policy.name().toLowerCase(java.util.Locale.ROOT), warehouses, transactions, orders.fill(),
                    ordersLoaded.fill(), orders.leaves(), ordersLoaded.leaves(), health(run.resolve("new_order.data")).fill(),
                    health(run.resolve("order_line.data")).fill(), deliveries, deliveryReads, deliveryMisses,
                    counts[TpccTransactions.Kind.NEW_ORDER.ordinal()] / (seconds / 60), seconds, orders.fillHistogram());
        } finally {
            io.shutdownNow();
        }
    }

    private static long accesses(TpccDatabase db, List<String> tables) {
        long sum = 0;
        for (String t : tables) {
            sum += db.table(t).pageAccesses();
        }
        return sum;
    }

    private static TreeHealth health(Path tree) {
        ExecutorService io = Executors.newFixedThreadPool(2);
        try (PageFile file = PageFile.open(tree, TpccDatabase.PAGE_SIZE, false, new IoStats())) {
            return TreeHealth.of(new BTree(file, new BufferPool(64L << 20, TpccDatabase.PAGE_SIZE, io, Runnable::run)), 20);
        } finally {
            io.shutdownNow();
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            List<Path> paths = new ArrayList<>(all.toList());
            java.util.Collections.reverse(paths);
            for (Path p : paths) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
