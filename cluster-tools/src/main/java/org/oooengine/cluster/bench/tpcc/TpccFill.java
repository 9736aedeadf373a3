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
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.PageFile;
import org.oooengine.core.storage.Reorganizer;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.TreeHealth;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.tpcc.TpccDatabase;
import org.oooengine.core.tpcc.TpccSchema;
import org.oooengine.core.tpcc.TpccTransactions;

/**
 * Seed 001's experiment: TPC-C's transactions run in place on B+tree tables under one split
 * policy, and how full the order tables' leaves end against their bulk load, with what Delivery
 * reads. The database is loaded once per warehouse count (into {@code <dir>/loaded-<W>}) and
 * copied for each run, so every policy runs the same transactions on the same data.
 */
public final class TpccFill {
    static final long SEED = 2026;
    static final long NOW = 1_764_000_000_000_000L;

    /** One tree's leaves after the run against its bulk load; fills are entries' bytes over their leaves' room. */
    public record TableFill(double fill, double fillLoaded, long leaves, long leavesLoaded, long[] histogram) {
        /** The fill kept, as a share of the loaded fill. */
        public double ofLoaded() {
            return fill / fillLoaded;
        }
    }

    /** The order tables' fill after {@code transactions}. */
    public record Sample(long transactions, double orderFill, double newOrderFill, double orderLineFill) {
    }

    /**
     * What one run measured: the order tables' fill and the orders-by-customer index's (its inserts
     * land all over its pages, not in runs), and leaf splits in all trees. Delivery's page visits count every page its lookups and scans went
     * through; its page reads, the pages of the order tables (new_order, orders, order_line) it
     * read from disk, missing the pool; its pool misses, those of every table it touched.
     */
    public record Result(String policy, int warehouses, long transactions, TableFill orders, TableFill newOrder,
                         TableFill orderLine, TableFill ordersByCustomer, long splits, long deliveries,
                         long deliveryPageVisits, long deliveryPageReads, long deliveryPoolMisses, double tpm,
                         double seconds, List<Sample> fillOverTime, Reorganization reorganization) {
    }

    /** Reorganize the order tables after the run, a step of {@code leavesPerStep} leaves every {@code every} transactions. */
    public record ReorganizeOptions(int leavesPerStep, int every) {
    }

    /**
     * The monitor's reorganization after the run, while transactions went on: how many ran meanwhile
     * and at what rate, what it cost (steps, leaves looked at, entries moved, leaves freed, the time
     * its steps took) and the order tables' fill once it was done.
     */
    public record Reorganization(long transactions, double seconds, double tpm, long steps, long leaves,
                                 long entriesMoved, long leavesFreed, double stepSeconds, TableFill orders,
                                 TableFill newOrder, TableFill orderLine) {
    }

    /** Key ranges whose leaves number this many times a fresh load's are reorganized. */
    static final double DETERIORATED = 1.25;
    static final int HEALTH_RANGES = 20;

    private static final String ORDERS_BY_CUSTOMER = "orders_by_customer";
    private static final List<String> ORDER_TABLES = List.of("new_order", "orders", "order_line");
    private static final List<String> DELIVERY_TABLES = List.of("new_order", "orders", "order_line", "customer");

    private TpccFill() {
    }

    /**
     * Runs {@code transactions} of the standard mix on a copy of the loaded database, flushing
     * every {@code flushEvery} and measuring the order tables' fill {@code samples} times on the way
     * (not counted in the run's time); {@code progress} hears how many ran, now and then.
     */
    public static Result run(Path dir, int warehouses, long transactions, SplitPolicy policy, int bufferPoolMb,
                             int flushEvery, int samples, ReorganizeOptions reorganize,
                             java.util.function.LongConsumer progress) throws Exception {
        Path loaded = dir.resolve("loaded-" + warehouses);
        if (!Files.exists(loaded.resolve("done")) || !StoreManifest.exists(loaded)) {
            deleteTree(loaded);
            TpccDatabase.load(loaded, warehouses, SEED, NOW);
            Files.writeString(loaded.resolve("done"), "loaded\n");
        }
        Path run = dir.resolve("run-" + policy.name().toLowerCase(java.util.Locale.ROOT));
        deleteTree(run);
        Files.createDirectories(run);
        try (Stream<Path> files = Files.list(loaded)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".data") || f.toString().endsWith(".idx")
                    || f.endsWith(StoreManifest.FILE_NAME)).toList()) {
                Files.copy(f, run.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        TreeHealth[] atLoad = orderTrees(run);
        TreeHealth indexAtLoad = health(ordersByCustomer(run));
        List<Sample> fillOverTime = new ArrayList<>();
        fillOverTime.add(sample(0, atLoad));
        ExecutorService io = Executors.newFixedThreadPool(4);
        try {
            BufferPool pool = new BufferPool((long) bufferPoolMb << 20, TpccDatabase.PAGE_SIZE, io, Runnable::run);
            long deliveries = 0;
            long deliveryVisits = 0;
            long deliveryReads = 0;
            long deliveryMisses = 0;
            long sampleEvery = Math.max(1, transactions / Math.max(1, samples));
            long sampling = 0;
            long t0 = System.nanoTime();
            long[] counts;
            double seconds;
            TreeHealth[] after;
            long splits = 0;
            Reorganization reorganization = null;
            try (TpccDatabase db = TpccDatabase.open(run, warehouses, policy, pool)) {
                TpccTransactions tx = new TpccTransactions(db, SEED + 1, NOW + 1);
                for (long i = 1; i <= transactions; i++) {
                    long visits = sum(db, DELIVERY_TABLES, TableWriter::pageAccesses);
                    long reads = sum(db, ORDER_TABLES, TableWriter::pagesRead);
                    long misses = pool.misses();
                    if (tx.next() == TpccTransactions.Kind.DELIVERY) {
                        deliveries++;
                        deliveryVisits += sum(db, DELIVERY_TABLES, TableWriter::pageAccesses) - visits;
                        deliveryReads += sum(db, ORDER_TABLES, TableWriter::pagesRead) - reads;
                        deliveryMisses += pool.misses() - misses;
                    }
                    if (i % flushEvery == 0) {
                        db.flush();
                    }
                    if (i % sampleEvery == 0 && i < transactions) {
                        long s0 = System.nanoTime();
                        db.flush();
                        fillOverTime.add(sample(i, orderTrees(run)));
                        sampling += System.nanoTime() - s0;
                    }
                    if (i % 10_000 == 0) {
                        progress.accept(i);
                    }
                }
                db.flush();
                counts = tx.counts();
                seconds = (System.nanoTime() - t0 - sampling) / 1e9;
                for (String table : TpccSchema.TABLES) {
                    splits += db.table(table).trees().values().stream().mapToLong(BTreeWriter::splits).sum();
                }
                after = orderTrees(run);
                if (reorganize != null) {
                    reorganization = reorganize(db, tx, reorganize, flushEvery, run, atLoad);
                }
            }
            fillOverTime.add(sample(transactions, after));
            return new Result(policy.name().toLowerCase(java.util.Locale.ROOT), warehouses, transactions,
                    fill(after[0], atLoad[0]), fill(after[1], atLoad[1]), fill(after[2], atLoad[2]),
                    fill(health(ordersByCustomer(run)), indexAtLoad), splits, deliveries,
                    deliveryVisits, deliveryReads, deliveryMisses,
                    counts[TpccTransactions.Kind.NEW_ORDER.ordinal()] / (seconds / 60), seconds, fillOverTime,
                    reorganization);
        } finally {
            io.shutdownNow();
        }
    }

    /**
     * The monitor checks the order tables and reorganizes what deteriorated, a budgeted step now
     * and then between transactions that go on meanwhile.
     */
    private static Reorganization reorganize(TpccDatabase db, TpccTransactions tx, ReorganizeOptions options,
                                             int flushEvery, Path run, TreeHealth[] atLoad) {
        List<Reorganizer> reorganizers = new ArrayList<>();
        for (String table : ORDER_TABLES) {
            Reorganizer r = new Reorganizer(table, db.table(table).data(), DETERIORATED, TpccSchema.runFill(table),
                    options.leavesPerStep());
            r.check(HEALTH_RANGES);
            reorganizers.add(r);
        }
        long newOrdersBefore = tx.counts()[TpccTransactions.Kind.NEW_ORDER.ordinal()];
        long t0 = System.nanoTime();
        long n = 0;
        while (reorganizers.stream().anyMatch(Reorganizer::pending)) {
            tx.next();
            n++;
            if (n % options.every() == 0) {
                reorganizers.forEach(Reorganizer::step);
            }
            if (n % flushEvery == 0) {
                db.flush();
            }
        }
        db.flush();
        double seconds = (System.nanoTime() - t0) / 1e9;
        long newOrders = tx.counts()[TpccTransactions.Kind.NEW_ORDER.ordinal()] - newOrdersBefore;
        TreeHealth[] after = orderTrees(run);
        return new Reorganization(n, seconds, newOrders / (seconds / 60),
                reorganizers.stream().mapToLong(r -> r.cost().steps()).sum(),
                reorganizers.stream().mapToLong(r -> r.cost().leaves()).sum(),
                reorganizers.stream().mapToLong(r -> r.cost().entriesMoved()).sum(),
                reorganizers.stream().mapToLong(r -> r.cost().leavesFreed()).sum(),
                reorganizers.stream().mapToDouble(r -> r.cost().seconds()).sum(),
                fill(after[0], atLoad[0]), fill(after[1], atLoad[1]), fill(after[2], atLoad[2]));
    }

    /** The health of orders, new_order and order_line, in that order. */
    private static TreeHealth[] orderTrees(Path run) {
        StoreManifest m = StoreManifest.read(run);
        return new TreeHealth[] {health(run.resolve(m.table("orders").file())),
            health(run.resolve(m.table("new_order").file())), health(run.resolve(m.table("order_line").file()))};
    }

    private static Path ordersByCustomer(Path run) {
        return run.resolve(StoreManifest.read(run).table("orders").indexes().stream()
                .filter(ix -> ix.name().equals(ORDERS_BY_CUSTOMER)).findFirst().orElseThrow().file());
    }

    private static Sample sample(long transactions, TreeHealth[] trees) {
        return new Sample(transactions, trees[0].fill(), trees[1].fill(), trees[2].fill());
    }

    private static TableFill fill(TreeHealth after, TreeHealth loaded) {
        return new TableFill(after.fill(), loaded.fill(), after.leaves(), loaded.leaves(), after.fillHistogram());
    }

    private static long sum(TpccDatabase db, List<String> tables, java.util.function.ToLongFunction<TableWriter> counter) {
        long sum = 0;
        for (String t : tables) {
            sum += counter.applyAsLong(db.table(t));
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
