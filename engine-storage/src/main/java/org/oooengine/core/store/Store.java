package org.oooengine.core.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.PageFile;
import org.oooengine.core.storage.OpenFilesExhaustedException;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.Schema;

/**
 * An opened store directory: its tables and indexes, one buffer pool, the I/O threads that read
 * pages and the compute threads that run what their completion unblocks.
 */
public final class Store implements AutoCloseable {
    private final Path dir;
    private volatile StoreManifest manifest;
    private final StoreOptions options;
    private final IoStats stats = new IoStats();
    private final ExecutorService io;
    private final ExecutorService compute;
    private final BufferPool bufferPool;
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final List<PageFile> files = new ArrayList<>();
    private final List<ColumnarFile> columnarFiles = new ArrayList<>();
    private boolean closed;
    /** Tables being written in place, by name: one writer each, opened on first use. */
    private final Map<String, Writing> writers = new HashMap<>();

    private record Writing(TableWriter writer, SplitPolicy policy) {
    }

    private Store(Path dir, StoreManifest manifest, StoreOptions options) {
        this.dir = dir;
        this.manifest = manifest;
        this.options = options;
        this.compute = computePool(options.computeThreads());
        if (options.synchronousReads()) {
            // Reads run where they are asked for, and their continuations right after them.
            this.io = null;
            this.bufferPool = new BufferPool(options.bufferPoolBytes(), manifest.pageSize(), Runnable::run, Runnable::run);
        } else {
            this.io = Executors.newFixedThreadPool(options.ioThreads(), org.oooengine.core.threads.DaemonThreads.named("ooo-io"));
            this.bufferPool = new BufferPool(options.bufferPoolBytes(), manifest.pageSize(), io, compute);
        }
    }

    public static Store open(Path dir, StoreOptions options) {
        StoreManifest manifest = StoreManifest.read(dir);
        Store store = new Store(dir, manifest, options);
        try {
            for (StoreManifest.TableMeta t : manifest.tables()) {
                try {
                    store.tables.put(t.name(), store.openTable(t));
                } catch (RuntimeException e) {
                    throw outOfFiles(e) ? new StorageException("cannot open table " + t.name() + ": " + e.getMessage(), e)
                            : e;
                }
            }
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private static boolean outOfFiles(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof OpenFilesExhaustedException) {
                return true;
            }
        }
        return false;
    }

    private Table openTable(StoreManifest.TableMeta meta) {
        Schema schema = meta.schema();
        int[] pk = schema.indexesOf(meta.primaryKey());
        Map<String, SecondaryIndex> indexes = new HashMap<>();
        for (StoreManifest.IndexMeta ix : meta.indexes()) {
            int[] ixCols = schema.indexesOf(ix.columns());
            DataType[] types = new DataType[ixCols.length + pk.length];
            System.arraycopy(schema.types(ixCols), 0, types, 0, ixCols.length);
            System.arraycopy(schema.types(pk), 0, types, ixCols.length, pk.length);
            indexes.put(ix.name(), new SecondaryIndex(ix.name(), ix.columns(), ixCols, new KeyCodec(types), tree(ix.file()),
                    ix.scopeOrLocal()));
        }
        ColumnarFile columnar = null;
        if (meta.columnsFile() != null) {
            columnar = ColumnarFile.open(StoreFiles.resolve(dir, meta.columnsFile()), schema, stats);
            columnarFiles.add(columnar);
        }
        return new Table(meta.name(), schema, meta.primaryKey(), tree(meta.file()), indexes, meta.rows(), columnar);
    }

    private BTree tree(String file) {
        Path path = StoreFiles.resolve(dir, file);
        BTreeWriter.recover(path); // a flush a crash cut short is finished before anything reads
        PageFile f = PageFile.open(path, manifest.pageSize(), options.directIo(), stats);
        files.add(f);
        return new BTree(f, bufferPool);
    }

    /**
     * A fork-join pool in FIFO mode: continuations handed over by I/O threads are picked up with
     * less signalling than a queue-backed thread pool needs, which matters at tens of thousands of
     * completions per second.
     */
    private static ExecutorService computePool(int threads) {
        AtomicInteger n = new AtomicInteger();
        ForkJoinPool.ForkJoinWorkerThreadFactory factory = pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("ooo-compute-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ForkJoinPool(threads, factory, null, true);
    }

    public Path dir() {
        return dir;
    }

    public StoreManifest manifest() {
        return manifest;
    }

    public StoreOptions options() {
        return options;
    }

    public Table table(String name) {
        Table t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no table '" + name + "' in store " + dir + "; tables: " + tables.keySet());
        }
        return t;
    }

    public Map<String, Table> tables() {
        return tables;
    }

    public IoStats ioStats() {
        return stats;
    }

    public BufferPool bufferPool() {
        return bufferPool;
    }

    /** The executor that runs continuations (about one thread per core). */
    public ExecutorService computeExecutor() {
        return compute;
    }

    /**
     * The writer of table {@code name}'s partition, in place, publishing to this store's readers;
     * opened on first use, again when the split policy changed. Callers write one at a time.
     */
    public synchronized TableWriter writer(String name, SplitPolicy policy) {
        Writing w = writers.get(name);
        if (w != null && w.policy() == policy) {
            return w.writer();
        }
        if (w != null) {
            w.writer().flush();
            w.writer().close();
        }
        TableWriter writer = TableWriter.over(table(name), policy, SplitPolicy.RUN_FILL);
        writers.put(name, new Writing(writer, policy));
        return writer;
    }

    /** The writer of table {@code name}, if one is open. */
    public synchronized java.util.Optional<TableWriter> openWriter(String name) {
        return java.util.Optional.ofNullable(writers.get(name)).map(Writing::writer);
    }

    /**
     * Rows are about to be written into table {@code name} in place: its columnar copy is dropped
     * (scans read the tree from now on) and the manifest says so, with no column ranges (the writes
     * may lie outside them) — before anything is flushed, so that a crash cannot leave a manifest
     * naming a copy without the rows.
     */
    public synchronized void startWriting(String name) {
        Table t = table(name);
        if (t.written()) {
            return;
        }
        t.wrote(0);
        String dropped = rewriteManifest(name, m -> new StoreManifest.TableMeta(m.name(), m.columns(), m.primaryKey(),
                m.rows(), m.dataBytes(), m.file(), m.indexes(), null, null)).columnsFile();
        if (dropped != null) {
            try { // scans that have it open read on; nothing opens it again
                java.nio.file.Files.deleteIfExists(StoreFiles.resolve(dir, dropped));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot delete the stale columnar copy " + dropped, e);
            }
        }
    }

    /** Rows were written into table {@code name} in place and flushed, {@code delta} more (or fewer): the manifest counts them. */
    /**
     * Rows were written in table {@code name}, {@code delta} more (or fewer), without recording
     * its new count in the manifest: for stores built anew after a crash (the analytical copies),
     * whose manifest nobody reads again.
     */
    public synchronized void wroteUnrecorded(String name, long delta) {
        table(name).wrote(delta);
    }

    public synchronized void wrote(String name, long delta) {
        Table t = table(name);
        t.wrote(delta);
        rewriteManifest(name, m -> new StoreManifest.TableMeta(m.name(), m.columns(), m.primaryKey(), t.rows(),
                StoreFiles.resolve(dir, m.file()).toFile().length(), m.file(), m.indexes(), m.columnsFile(), m.columnRanges()));
    }

    /** Drops table {@code name}'s writer, forgetting what it did not flush (a reopened one redoes a committed batch). */
    public synchronized void closeWriter(String name) {
        Writing w = writers.remove(name);
        if (w != null) {
            w.writer().close();
        }
    }

    /** Writes the manifest with table {@code name}'s entry changed; returns the entry as it was. */
    private StoreManifest.TableMeta rewriteManifest(String name,
                                                    java.util.function.UnaryOperator<StoreManifest.TableMeta> change) {
        List<StoreManifest.TableMeta> metas = new ArrayList<>();
        StoreManifest.TableMeta before = null;
        for (StoreManifest.TableMeta m : manifest.tables()) {
            if (m.name().equals(name)) {
                before = m;
                m = change.apply(m);
            }
            metas.add(m);
        }
        manifest = new StoreManifest(manifest.formatVersion(), manifest.pageSize(), manifest.fillFactor(),
                manifest.source(), manifest.loadedAt(), manifest.loadSeconds(), metas);
        manifest.write(dir);
        return before;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            writers.values().forEach(w -> w.writer().close()); // what a statement did not commit is dropped
            writers.clear();
        }
        if (io != null) {
            io.shutdownNow();
        }
        compute.shutdownNow();
        columnarFiles.forEach(ColumnarFile::close);
        files.forEach(PageFile::close);
    }
}
