package org.oooengine.core.tpcc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.txn.RocksNativeLibrary;
import org.oooengine.core.txn.TransactionAbortedException;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Status;
import org.rocksdb.Transaction;
import org.rocksdb.TransactionDB;
import org.rocksdb.TransactionDBOptions;
import org.rocksdb.TransactionOptions;
import org.rocksdb.WriteOptions;

/**
 * The baseline's rows of TPC-C on one node: RocksDB's own lock-based {@code TransactionDB}, one
 * column family per table, with the durability of the transactional tables' default (the WAL
 * synced at every commit and prepare). Reads take shared locks and writes exclusive ones (two-phase
 * locking: serializable, as TicToc is); a lock not had within {@value #LOCK_TIMEOUT_MILLIS} ms or a
 * deadlock aborts the transaction. Transactions another node coordinates are kept open here by name
 * between their steps.
 */
final class RocksTpccStore implements AutoCloseable {
    static {
        RocksNativeLibrary.load();
    }

    static final String RESOURCE = "tpcc-rocksdb";
    private static final long LOCK_TIMEOUT_MILLIS = 50;

    private final DBOptions options;
    private final ColumnFamilyOptions cfOptions;
    private final TransactionDBOptions txnDbOptions;
    private final TransactionDB db;
    private final Map<String, ColumnFamilyHandle> tables = new HashMap<>();
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private final WriteOptions synced = new WriteOptions().setSync(true);
    private final ReadOptions reads = new ReadOptions();
    /** Transactions other nodes coordinate, by name, between their steps. */
    private final Map<String, Transaction> named = new ConcurrentHashMap<>();

    RocksTpccStore(Path dir) {
        try {
            Directories.createPrivate(dir);
            List<String> names = new ArrayList<>(TransactionalTpccTables.tableNames());
            names.add(TpccCluster.LOADED);
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            cfOptions = new ColumnFamilyOptions();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
            for (String n : names) {
                descriptors.add(new ColumnFamilyDescriptor(n.getBytes(StandardCharsets.UTF_8), cfOptions));
            }
            options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
            txnDbOptions = new TransactionDBOptions().setTransactionLockTimeout(LOCK_TIMEOUT_MILLIS);
            db = TransactionDB.open(options, txnDbOptions, dir.toString(), descriptors, handles);
            for (int i = 0; i < names.size(); i++) {
                tables.put(names.get(i), handles.get(i + 1));
            }
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Directories.narrow(f);
                }
            }
        } catch (RocksDBException | java.io.IOException e) {
            throw new IllegalStateException("cannot open RocksDB's TPC-C tables in " + dir + ": " + e.getMessage(), e);
        }
    }

    Transaction begin() {
        return db.beginTransaction(synced, new TransactionOptions().setDeadlockDetect(true)
                .setLockTimeout(LOCK_TIMEOUT_MILLIS));
    }

    /** The transaction {@code name} another node coordinates, begun here on its first step. */
    Transaction named(String name) {
        return named.computeIfAbsent(name, n -> {
            Transaction t = begin();
            try {
                t.setName(n);
            } catch (RocksDBException e) {
                throw failure(e);
            }
            return t;
        });
    }

    /** Takes the transaction {@code name} out, for its last step; null when it is not here. */
    Transaction finished(String name) {
        return named.remove(name);
    }

    private ColumnFamilyHandle table(String name) {
        ColumnFamilyHandle h = tables.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no TPC-C table " + name + " in RocksDB");
        }
        return h;
    }

    byte[] get(Transaction t, String table, byte[] key) {
        try {
            return t.getForUpdate(reads, table(table), key, false);
        } catch (RocksDBException e) {
            throw failure(e);
        }
    }

    /** Applies a write as the transactional tables do (INSERT refuses an existing key); returns whether it changed a row. */
    boolean write(Transaction t, String table, TransactionalWrite mode, byte[] key, byte[] row) {
        ColumnFamilyHandle cf = table(table);
        try {
            boolean exists = mode != TransactionalWrite.PUT && t.getForUpdate(reads, cf, key, true) != null;
            switch (mode) {
                case INSERT -> {
                    if (exists) {
                        throw new IllegalStateException("duplicate primary key in " + table);
                    }
                    t.put(cf, key, row);
                }
                case UPDATE -> {
                    if (!exists) {
                        return false;
                    }
                    t.put(cf, key, row);
                }
                case PUT -> t.put(cf, key, row);
                case DELETE -> {
                    if (!exists) {
                        return false;
                    }
                    t.delete(cf, key);
                }
            }
            return true;
        } catch (RocksDBException e) {
            throw failure(e);
        }
    }

    /** The first {@code limit} rows in [from, to), each locked shared. */
    List<DistributedTransaction.Row> scan(Transaction t, String table, byte[] from, byte[] to, int limit) {
        ColumnFamilyHandle cf = table(table);
        List<DistributedTransaction.Row> rows = new ArrayList<>();
        try (RocksIterator it = t.getIterator(reads, cf)) {
            if (from == null) {
                it.seekToFirst();
            } else {
                it.seek(from);
            }
            for (; it.isValid() && rows.size() < limit; it.next()) {
                byte[] key = it.key();
                if (to != null && java.util.Arrays.compareUnsigned(key, to) >= 0) {
                    break;
                }
                byte[] value = t.getForUpdate(reads, cf, key, false);
                if (value != null) {
                    rows.add(new DistributedTransaction.Row(key, value));
                }
            }
        } catch (RocksDBException e) {
            throw failure(e);
        }
        return rows;
    }

    /** A lock not had in time, a deadlock or a busy key is a conflict; anything else a failure. */
    static RuntimeException failure(RocksDBException e) {
        Status s = e.getStatus();
        if (s != null && switch (s.getCode()) {
            case Busy, TryAgain, TimedOut -> true;
            default -> false;
        }) {
            return new TransactionAbortedException("RocksDB: " + e.getMessage());
        }
        return new IllegalStateException("RocksDB transaction failed: " + e.getMessage(), e);
    }

    @Override
    public void close() {
        for (Transaction t : named.values()) {
            try {
                t.rollback();
            } catch (RocksDBException e) {
                // closing anyway
            }
            t.close();
        }
        named.clear();
        handles.forEach(ColumnFamilyHandle::close);
        db.close();
        txnDbOptions.close();
        options.close();
        cfOptions.close();
        synced.close();
        reads.close();
    }
}
