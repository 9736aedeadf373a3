package org.oooengine.core.txn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.oooengine.core.storage.Directories;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The base data of transactional tables in node-local RocksDB: one column family per table, keys
 * are primary-key bytes, values the rows. RocksDB's own WAL is off — the transaction WAL is the
 * durability log — so a checkpoint writes one batch and flushes every column family atomically;
 * the default column family records the checkpoint's epoch in the same batch.
 */
final class TableStore implements AutoCloseable {
    private static final byte[] EPOCH_KEY = "checkpoint.epoch".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ORDER_KEY = "checkpoint.last-order".getBytes(StandardCharsets.UTF_8);
    /** Prefix of the two-phase commit records a checkpoint keeps (prepared, decided); '/' + 1 ends the range. */
    private static final byte[] TWO_PHASE_FROM = "2pc/".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TWO_PHASE_TO = "2pc0".getBytes(StandardCharsets.UTF_8);
    /** Prefix of the names of tables dropped since the last checkpoint: the WAL may still hold their rows. */
    private static final byte[] DROPPED_FROM = "dropped/".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DROPPED_TO = "dropped0".getBytes(StandardCharsets.UTF_8);

    static {
        RocksNativeLibrary.load();
    }

    private final Path dir;
    private final DBOptions options;
    private final ColumnFamilyOptions cfOptions;
    private final RocksDB db;
    private final ColumnFamilyHandle meta;
    private final Map<String, ColumnFamilyHandle> tables = new LinkedHashMap<>();

    private TableStore(Path dir, DBOptions options, ColumnFamilyOptions cfOptions, RocksDB db,
                       List<ColumnFamilyDescriptor> descriptors, List<ColumnFamilyHandle> handles) {
        this.dir = dir;
        this.options = options;
        this.cfOptions = cfOptions;
        this.db = db;
        this.meta = handles.get(0);
        for (int i = 1; i < handles.size(); i++) {
            tables.put(new String(descriptors.get(i).getName(), StandardCharsets.UTF_8), handles.get(i));
        }
    }

    static TableStore open(Path dir) {
        try {
            // RocksDB creates its files with the umask's mode: the directory keeps them private, and
            // narrowFiles() takes group and others off them after every step that creates files.
            Directories.createPrivate(dir);
            List<byte[]> names = List.of();
            if (Files.exists(dir.resolve("CURRENT"))) {
                try (Options o = new Options()) {
                    names = RocksDB.listColumnFamilies(o, dir.toString());
                }
            }
            ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
            for (byte[] n : names) {
                if (!java.util.Arrays.equals(n, RocksDB.DEFAULT_COLUMN_FAMILY)) {
                    descriptors.add(new ColumnFamilyDescriptor(n, cfOptions));
                }
            }
            DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                    .setAtomicFlush(true);
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles);
            TableStore store = new TableStore(dir, options, cfOptions, db, descriptors, handles);
            store.narrowFiles();
            return store;
        } catch (RocksDBException | java.io.IOException e) {
            throw new IllegalStateException("cannot open the table store in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Takes group and others permissions off RocksDB's files (it creates them with the process's umask). */
    private void narrowFiles() {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                try {
                    Directories.narrow(f);
                } catch (java.nio.file.NoSuchFileException gone) {
                    // RocksDB deleted it meanwhile (an obsolete log or manifest)
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot make the files of " + dir + " private", e);
        }
    }

    List<String> tableNames() {
        return new ArrayList<>(tables.keySet());
    }

    void createTable(String name) {
        if (tables.containsKey(name)) {
            return;
        }
        try {
            tables.put(name, db.createColumnFamily(
                    new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), cfOptions)));
            narrowFiles();
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot create table " + name + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Drops a table's column family and notes, durably, that it was dropped: until the next
     * checkpoint its rows in the WAL are not replayed.
     */
    void dropTable(String name) {
        ColumnFamilyHandle cf = tables.remove(name);
        try (WriteOptions synced = new WriteOptions().setSync(true)) {
            db.put(meta, synced, concat(DROPPED_FROM, name.getBytes(StandardCharsets.UTF_8)), new byte[0]);
            if (cf != null) {
                db.dropColumnFamily(cf);
                cf.close();
            }
            narrowFiles();
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot drop table " + name + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Tables dropped since the last checkpoint. */
    java.util.Set<String> droppedTables() {
        java.util.Set<String> names = new java.util.HashSet<>();
        try (RocksIterator it = db.newIterator(meta)) {
            for (it.seek(DROPPED_FROM); it.isValid() && java.util.Arrays.compareUnsigned(it.key(), DROPPED_TO) < 0;
                 it.next()) {
                byte[] k = it.key();
                names.add(new String(k, DROPPED_FROM.length, k.length - DROPPED_FROM.length, StandardCharsets.UTF_8));
            }
        }
        return names;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    void forEach(String table, BiConsumer<byte[], byte[]> action) {
        try (RocksIterator it = db.newIterator(tables.get(table))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                action.accept(it.key(), it.value());
            }
        }
    }

    /** The epoch of the last checkpoint: WAL files of this epoch or older are in the base data. */
    long checkpointEpoch() {
        return readLong(EPOCH_KEY);
    }

    private long readLong(byte[] key) {
        try {
            byte[] v = db.get(meta, key);
            return v == null ? 0 : ByteBuffer.wrap(v).getLong();
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read checkpoint metadata in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The two-phase commit records the last checkpoint kept: transactions in doubt and decisions not yet applied everywhere. */
    List<byte[]> twoPhaseRecords() {
        List<byte[]> records = new ArrayList<>();
        try (RocksIterator it = db.newIterator(meta)) {
            for (it.seek(TWO_PHASE_FROM); it.isValid() && java.util.Arrays.compareUnsigned(it.key(), TWO_PHASE_TO) < 0;
                 it.next()) {
                records.add(it.value());
            }
        }
        return records;
    }

    /**
     * Writes every table's committed state, the new epoch and the two-phase commit records to keep
     * (replacing the last checkpoint's) in one batch, then flushes to SST files.
     */
    void checkpoint(long epoch, long lastOrder, Iterable<TransactionalTable> state, List<byte[]> twoPhase) {
        try (WriteBatch batch = new WriteBatch(); WriteOptions wo = new WriteOptions().setDisableWAL(true);
             FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
            for (TransactionalTable t : state) {
                ColumnFamilyHandle cf = tables.get(t.name());
                RocksDBException[] failure = new RocksDBException[1];
                t.forEachCommitted((k, v) -> {
                    try {
                        if (v == null) {
                            batch.delete(cf, k);
                        } else {
                            batch.put(cf, k, v);
                        }
                    } catch (RocksDBException e) {
                        failure[0] = e;
                    }
                });
                if (failure[0] != null) {
                    throw failure[0];
                }
            }
            batch.deleteRange(meta, TWO_PHASE_FROM, TWO_PHASE_TO);
            batch.deleteRange(meta, DROPPED_FROM, DROPPED_TO); // the WAL that held their rows goes with this checkpoint
            for (int i = 0; i < twoPhase.size(); i++) {
                batch.put(meta, ByteBuffer.allocate(TWO_PHASE_FROM.length + 4).put(TWO_PHASE_FROM).putInt(i).array(),
                        twoPhase.get(i));
            }
            batch.put(meta, EPOCH_KEY, ByteBuffer.allocate(8).putLong(epoch).array());
            batch.put(meta, ORDER_KEY, ByteBuffer.allocate(8).putLong(lastOrder).array());
            db.write(wo, batch);
            List<ColumnFamilyHandle> all = new ArrayList<>(tables.values());
            all.add(meta);
            db.flush(fo, all);
            narrowFiles();
        } catch (RocksDBException e) {
            throw new IllegalStateException("checkpoint to " + dir + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        for (ColumnFamilyHandle h : tables.values()) {
            h.close();
        }
        meta.close();
        db.close();
        options.close();
        cfOptions.close();
    }
}
