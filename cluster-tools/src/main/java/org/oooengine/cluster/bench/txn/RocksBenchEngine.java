package org.oooengine.cluster.bench.txn;

import java.nio.file.Path;
import org.oooengine.core.txn.Durability;
import org.oooengine.core.txn.RocksNativeLibrary;
import org.rocksdb.OptimisticTransactionDB;
import org.rocksdb.OptimisticTransactionOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.Transaction;
import org.rocksdb.TransactionDB;
import org.rocksdb.TransactionDBOptions;
import org.rocksdb.TransactionOptions;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDB's own transactions, as a user would otherwise pick them: {@code OptimisticTransactionDB}
 * or the lock-based {@code TransactionDB}. Every key is read with {@code getForUpdate} (shared for
 * reads, exclusive for updates) so that both are serializable like TicToc.
 *
 * <p>Equal durability: {@code fsync} syncs RocksDB's WAL at every commit; {@code nvm-sim:<ns>}
 * writes the WAL without syncing and then waits the same simulated latency our log pays per
 * write (RocksDB has no memory-mapped log to put on NVM); {@code none} turns RocksDB's WAL off.
 */
final class RocksBenchEngine implements BenchEngine {
    static {
        RocksNativeLibrary.load();
    }

    private static final long LOCK_TIMEOUT_MILLIS = 50;

    private final boolean optimistic;
    private final Durability durability;
    private final Options options;
    private final TransactionDBOptions txnDbOptions;
    private final RocksDB db;

    RocksBenchEngine(Path dir, long rows, boolean optimistic, Durability durability) {
        this.optimistic = optimistic;
        this.durability = durability;
        options = new Options().setCreateIfMissing(true);
        try {
            java.nio.file.Files.createDirectories(dir);
            if (optimistic) {
                txnDbOptions = null;
                db = OptimisticTransactionDB.open(options, dir.toString());
            } else {
                txnDbOptions = new TransactionDBOptions().setTransactionLockTimeout(LOCK_TIMEOUT_MILLIS);
                db = TransactionDB.open(options, txnDbOptions, dir.toString());
            }
            try (WriteOptions wo = new WriteOptions().setDisableWAL(true)) {
                WriteBatch batch = new WriteBatch();
                for (long k = 0; k < rows; k++) {
                    batch.put(BenchEngine.key(k), new byte[VALUE_BYTES]);
                    if (batch.count() == 10_000) {
                        db.write(wo, batch);
                        batch.close();
                        batch = new WriteBatch();
                    }
                }
                db.write(wo, batch);
                batch.close();
                db.flushWal(true);
                try (org.rocksdb.FlushOptions fo = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
                    db.flush(fo);
                }
            }
        } catch (RocksDBException | java.io.IOException e) {
            throw new IllegalStateException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    private WriteOptions writeOptions() {
        WriteOptions wo = new WriteOptions();
        switch (durability.mode()) {
            case FSYNC -> wo.setSync(true);
            case NVM_SIM -> wo.setSync(false);
            case NONE -> wo.setDisableWAL(true);
        }
        return wo;
    }

    @Override
    public Session session() {
        WriteOptions wo = writeOptions();
        ReadOptions ro = new ReadOptions();
        OptimisticTransactionOptions oto = optimistic ? new OptimisticTransactionOptions() : null;
        TransactionOptions pto = optimistic ? null
                : new TransactionOptions().setDeadlockDetect(true).setLockTimeout(LOCK_TIMEOUT_MILLIS);
        return new Session() {
            private Transaction txn;

            @Override
            public int run(long[] keys, TxnWorkload workload, Runnable onDurable) {
                for (int attempt = 1; ; attempt++) {
                    txn = begin();
                    try {
                        body(txn, ro, keys, workload);
                        txn.commit();
                        if (workload.updates() > 0) {
                            simulatedLatency();
                        }
                        onDurable.run();
                        return attempt;
                    } catch (RocksDBException e) {
                        rollback();
                        if (!retryable(e)) {
                            throw new IllegalStateException("RocksDB transaction failed: " + e.getMessage(), e);
                        }
                    }
                }
            }

            /** Reuses the previous transaction object, as RocksDB allows, to save the native allocation. */
            private Transaction begin() {
                if (optimistic) {
                    OptimisticTransactionDB o = (OptimisticTransactionDB) db;
                    return txn == null ? o.beginTransaction(wo, oto) : o.beginTransaction(wo, oto, txn);
                }
                TransactionDB p = (TransactionDB) db;
                return txn == null ? p.beginTransaction(wo, pto) : p.beginTransaction(wo, pto, txn);
            }

            private void rollback() {
                try {
                    txn.rollback();
                } catch (RocksDBException e) {
                    throw new IllegalStateException("RocksDB rollback failed: " + e.getMessage(), e);
                }
            }

            @Override
            public void drain() {
            }
        };
    }

    private static void body(Transaction txn, ReadOptions ro, long[] keys, TxnWorkload workload) throws RocksDBException {
        for (int i = 0; i < keys.length; i++) {
            byte[] k = BenchEngine.key(keys[i]);
            boolean update = workload.updates(i);
            byte[] v = txn.getForUpdate(ro, k, update);
            if (update) {
                txn.put(k, BenchEngine.incremented(v));
            }
        }
        if (workload.readsSameTuples()) {
            for (int i = 0; i < workload.reads(); i++) {
                txn.getForUpdate(ro, BenchEngine.key(keys[i]), false);
            }
        }
    }

    /** Conflicts, lock timeouts and deadlocks abort the attempt; anything else is a failure. */
    private static boolean retryable(RocksDBException e) {
        Status s = e.getStatus();
        if (s == null) {
            return false;
        }
        return switch (s.getCode()) {
            case Busy, TryAgain, TimedOut -> true;
            default -> false;
        };
    }

    private void simulatedLatency() {
        if (durability.mode() == Durability.Mode.NVM_SIM && durability.latencyNanos() > 0) {
            long end = System.nanoTime() + durability.latencyNanos();
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void close() {
        db.close();
        options.close();
        if (txnDbOptions != null) {
            txnDbOptions.close();
        }
    }
}
