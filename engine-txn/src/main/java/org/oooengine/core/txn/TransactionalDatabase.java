package org.oooengine.core.txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.Directories;

/**
 * Transactional tables in a directory: base data and checkpoints in RocksDB ({@code data/}), one
 * WAL file per worker ({@code wal/<epoch>-<worker>.wal}). Opening recovers: WAL files newer than
 * the last checkpoint are replayed, then checkpointed and deleted. Tables live in memory while
 * open; transactions run through {@link Worker}s.
 *
 * <pre>{@code
 * try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.FSYNC)) {
 *     TransactionalTable accounts = db.createTable("accounts");
 *     try (Worker w = db.newWorker()) {
 *         w.run(tx -> { tx.put(accounts, key, row); return null; });
 *     }
 * }
 * }</pre>
 */
public final class TransactionalDatabase implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(TransactionalDatabase.class);
    private static final Pattern WAL_NAME = Pattern.compile("(\\d+)-(\\w+)\\.wal");

    private final Path walDir;
    private final LogProtocol protocol;
    private final Durability durability;
    private final TableStore store;
    private final Map<String, TransactionalTable> tables = new ConcurrentHashMap<>();
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    /** Where commits are shipped (analytical copies); empty unless someone reads them. */
    private final List<CommitFeed> feeds = new CopyOnWriteArrayList<>();
    /** Two-phase commits this node voted for whose outcome it has not learned. */
    private final Map<TransactionId, PreparedTransaction> prepared = new ConcurrentHashMap<>();
    /** Two-phase commits this node decided that other participants may not have applied yet. */
    private final Map<TransactionId, Decision> decided = new ConcurrentHashMap<>();
    /** Two-phase commits this node decided in a worker's open group: logged, not durable yet (see Worker#decideInGroup). */
    private final java.util.Set<TransactionId> deciding = ConcurrentHashMap.newKeySet();
    /** ELR's global log sequence number; restarts with every epoch. */
    final AtomicLong lsn = new AtomicLong();
    /** Tables dropped since the last checkpoint, read at recovery: their rows in the WAL are not replayed. */
    private java.util.Set<String> dropped = java.util.Set.of();
    private long epoch;
    private int nextWorkerId;
    private SharedWal shared;
    private boolean closed;

    private TransactionalDatabase(Path dir, LogProtocol protocol, Durability durability) {
        this.walDir = dir.resolve("wal");
        this.protocol = protocol;
        this.durability = durability;
        this.store = TableStore.open(dir.resolve("data"));
    }

    /** Opens (creating if needed) and recovers the database in {@code dir}. */
    public static TransactionalDatabase open(Path dir, LogProtocol protocol, Durability durability) {
        TransactionalDatabase db = new TransactionalDatabase(dir, protocol, durability);
        try {
            db.recover();
        } catch (RuntimeException e) {
            db.store.close();
            throw e;
        }
        return db;
    }

    public LogProtocol protocol() {
        return protocol;
    }

    public Durability durability() {
        return durability;
    }

    private void recover() {
        long checkpointed = store.checkpointEpoch();
        for (String name : store.tableNames()) {
            TransactionalTable t = new TransactionalTable(name);
            store.forEach(name, t::reset);
            tables.put(name, t);
        }
        TreeMap<Long, List<Path>> byEpoch = new TreeMap<>();
        try {
            Directories.createPrivate(walDir);
            try (Stream<Path> files = Files.list(walDir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Matcher m = WAL_NAME.matcher(f.getFileName().toString());
                    if (m.matches()) {
                        byEpoch.computeIfAbsent(Long.parseLong(m.group(1)), e -> new ArrayList<>()).add(f);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list WAL directory " + walDir, e);
        }
        TwoPhaseReplay twoPhase = new TwoPhaseReplay(store.twoPhaseRecords());
        dropped = store.droppedTables();
        long last = checkpointed;
        for (Map.Entry<Long, List<Path>> e : byEpoch.entrySet()) {
            if (e.getKey() <= checkpointed) {
                continue;
            }
            List<WalReader.Contents> contents = new ArrayList<>();
            for (Path f : e.getValue()) {
                WalReader.Contents c = WalReader.read(f);
                if (c.header().epoch() != e.getKey()) {
                    throw new WalFormatException("WAL file " + f + " says epoch " + c.header().epoch()
                            + " but is named for epoch " + e.getKey());
                }
                contents.add(c);
            }
            LOG.info("recovering epoch {} from {} WAL files in {}", e.getKey(), contents.size(), walDir);
            Recovery.replay(contents, r -> twoPhase.accept(r, this::apply));
            last = e.getKey();
        }
        restoreTwoPhase(twoPhase);
        epoch = last;
        if (!byEpoch.isEmpty() || checkpointed == 0) {
            checkpointAndTruncate(byEpoch.values().stream().flatMap(List::stream).toList());
        }
        startEpoch();
    }

    private void apply(WalRecord r) {
        for (RowChange c : r.changes()) {
            if (!dropped.contains(c.table())) {
                tableForRecovery(c.table()).reset(c.key(), c.value());
            }
        }
    }

    private TransactionalTable tableForRecovery(String name) {
        TransactionalTable t = tables.get(name);
        if (t == null) {
            store.createTable(name);
            t = new TransactionalTable(name);
            tables.put(name, t);
        }
        return t;
    }

    /**
     * After replay: transactions still prepared are in doubt — their rows locked again until their
     * decider tells the outcome — and commits this node decided are kept for the participants that
     * may still ask.
     */
    private void restoreTwoPhase(TwoPhaseReplay replayed) {
        for (WalRecord r : replayed.inDoubt()) {
            List<Transaction.Write> writes = new ArrayList<>();
            for (RowChange c : r.changes()) {
                if (dropped.contains(c.table())) {
                    continue;
                }
                TransactionalTable t = tableForRecovery(c.table());
                Key key = new Key(c.key());
                Tuple tuple = t.tuple(key);
                tuple.casWord(tuple.word(), TimestampWord.lock(tuple.word()));
                writes.add(new Transaction.Write(t, key, tuple, c.value()));
            }
            prepared.put(r.txn(), new PreparedTransaction(r.txn(), r.order(), r.nodes().get(0), writes));
            mayCommit(r.txn());
        }
        for (WalRecord r : replayed.decisions()) {
            decided.put(r.txn(), new Decision(r.txn(), r.order(), r.nodes()));
        }
        if (!prepared.isEmpty() || !decided.isEmpty()) {
            LOG.info("recovered {} transactions in doubt (prepared, outcome unknown) and {} decided commits "
                    + "not yet applied everywhere", prepared.size(), decided.size());
        }
    }

    // ---- Two-phase commit state (see Worker#lock) ----

    void prepared(PreparedTransaction p) {
        mayCommit(p.id());
        prepared.put(p.id(), p);
    }

    /** Takes a prepared transaction out, its outcome known; null when it is not prepared here. */
    PreparedTransaction resolved(TransactionId id) {
        return prepared.remove(id);
    }

    // ---- Distributed commits not yet shown by the copies (a cut across nodes waits for them) ----

    /** Two-phase transactions that may commit here and that no copy has shown yet: 0 until shipped, then its shipment's number. */
    private final Map<TransactionId, Long> unshown = new ConcurrentHashMap<>();
    /** Commits of two-phase transactions shipped so far. */
    private final java.util.concurrent.atomic.AtomicLong distributedShipped = new java.util.concurrent.atomic.AtomicLong();

    /** Two-phase transaction {@code id} may commit here (it is prepared, or this node decides it). */
    void mayCommit(TransactionId id) {
        unshown.put(id, 0L);
    }

    /** Two-phase transaction {@code id} will not show here (it aborted, or nothing ships its commit). */
    void wontShow(TransactionId id) {
        unshown.remove(id);
    }

    /** A copy shows two-phase commit {@code id} (queries pinning the copies from now on see it), or passed it over. */
    public void shown(TransactionId id) {
        unshown.remove(id);
    }

    /**
     * Adds to {@code out} the two-phase transactions that may commit here and that the copies do not
     * show yet: prepared or being decided here, or committed and on their way into the copies.
     */
    public void unshown(java.util.Collection<TransactionId> out) {
        out.addAll(unshown.keySet());
    }

    /** The number of two-phase commits shipped so far: a feed opened now gets those after it. */
    public long distributedShipped() {
        return distributedShipped.get();
    }

    /**
     * Copies built from the rows read after a feed opened at {@code shippedBefore} ({@link
     * #distributedShipped}) hold every two-phase commit shipped up to then: none is waited for.
     */
    public void shownUpTo(long shippedBefore) {
        unshown.values().removeIf(n -> n > 0 && n <= shippedBefore);
    }

    /** Whether two-phase transaction {@code id} may commit here and no copy shows it yet. */
    public boolean isUnshown(TransactionId id) {
        return unshown.containsKey(id);
    }

    void decided(Decision d) {
        if (!d.waiting().isEmpty()) {
            decided.put(d.id(), d);
        }
        deciding.remove(d.id()); // after it is known as decided: an asker never finds it in neither
    }

    void deciding(TransactionId id) {
        deciding.add(id);
    }

    /**
     * Whether this node logged the decision of {@code id} and waits for its flush: the outcome is
     * not settled yet (a crash before the flush makes it an abort), so an asker must ask again.
     */
    public boolean isDeciding(TransactionId id) {
        return deciding.contains(id);
    }

    /** The transactions this node voted for and whose outcome it has not learned yet. */
    public Collection<PreparedTransaction> inDoubt() {
        return List.copyOf(prepared.values());
    }

    /** Whether {@code id} is prepared here. */
    public boolean isPrepared(TransactionId id) {
        return prepared.containsKey(id);
    }

    /**
     * The commit this node decided for {@code id} while a participant may not have applied it, or
     * null. A decider that knows nothing of a transaction it was asked about never committed it.
     */
    public Decision decision(TransactionId id) {
        return decided.get(id);
    }

    /** The commits this node decided that some participant may not have applied yet. */
    public Collection<Decision> decisions() {
        return List.copyOf(decided.values());
    }

    /** Notes that {@code participant} applied the commit of {@code id}; once all have, it is forgotten. */
    public void applied(TransactionId id, String participant) {
        Decision d = decided.get(id);
        if (d != null && d.applied(participant)) {
            decided.remove(id, d);
        }
    }

    /** Records the in-memory state as epoch {@code epoch + 1} and deletes the WAL files it covers. */
    private void checkpointAndTruncate(List<Path> covered) {
        epoch++;
        List<byte[]> twoPhase = new ArrayList<>();
        prepared.values().forEach(p -> twoPhase.add(p.checkpointRecord()));
        decided.values().forEach(d -> twoPhase.add(d.checkpointRecord()));
        store.checkpoint(epoch, lsn.get(), tables.values(), twoPhase);
        for (Path f : covered) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete checkpointed WAL file " + f, e);
            }
        }
    }

    /** New WAL files are written for the epoch after the last checkpoint. */
    private void startEpoch() {
        lsn.set(0);
        if (protocol.sharedWal()) {
            shared = new SharedWal(WalFile.create(walFile("shared"), header(), durability));
        }
    }

    private WalHeader header() {
        return WalHeader.current(epoch + 1, protocol.release() == LogProtocol.Release.NLR
                ? WalHeader.Ordering.COMMIT_TIMESTAMP : WalHeader.Ordering.LSN);
    }

    private Path walFile(String owner) {
        return walDir.resolve((epoch + 1) + "-" + owner + ".wal");
    }

    /** The table called {@code name}, created if it does not exist. Create tables before running transactions. */
    public synchronized TransactionalTable createTable(String name) {
        checkOpen();
        if (name.isEmpty() || name.length() > 1000) {
            throw new IllegalArgumentException("a table name needs 1 to 1000 characters: '" + name + "'");
        }
        return tables.computeIfAbsent(name, n -> {
            store.createTable(n);
            return new TransactionalTable(n);
        });
    }

    /**
     * Drops the table called {@code name} and its rows (nothing when there is none). Transactions
     * still running on it lose what they write to it. Give a new table a new name: a dropped name's
     * rows are kept out of recovery only until the next checkpoint.
     */
    public synchronized void dropTable(String name) {
        checkOpen();
        if (tables.remove(name) != null) {
            store.dropTable(name);
        }
    }

    /** The table called {@code name}; throws if there is none. */
    public TransactionalTable table(String name) {
        TransactionalTable t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no transactional table '" + name + "'; tables: " + tables.keySet());
        }
        return t;
    }

    public Collection<TransactionalTable> tables() {
        return List.copyOf(tables.values());
    }

    /**
     * Ships every commit from now on into a new feed of {@code capacity} commits, in the order they
     * become visible (see {@link CommitFeed} for how to start a copy from it and {@link #readRows}).
     */
    public CommitFeed openCommitFeed(int capacity) {
        checkOpen();
        CommitFeed feed = new CommitFeed(this, capacity);
        feeds.add(feed);
        return feed;
    }

    void closeFeed(CommitFeed feed) {
        feeds.remove(feed);
    }

    /** Whether any feed takes commits: a committing worker keeps what it would ship only then. */
    boolean shipping() {
        return !feeds.isEmpty();
    }

    /**
     * Ships a commit whose writes are installed and still locked: before any transaction can read
     * or overwrite them, so its dependents are shipped after it.
     */
    void ship(long commitTs, TransactionId distributed, List<Transaction.Write> writes) {
        if (feeds.isEmpty() || writes.isEmpty()) {
            if (distributed != null) {
                wontShow(distributed);
            }
            return;
        }
        List<RowChange> changes = new ArrayList<>(writes.size());
        for (Transaction.Write w : writes) {
            changes.add(new RowChange(w.table().name(), w.key().bytes(), w.value()));
        }
        ShippedCommit commit = new ShippedCommit(commitTs, distributed, changes, System.nanoTime());
        if (distributed != null) {
            unshown.put(distributed, distributedShipped.incrementAndGet());
        }
        for (CommitFeed f : feeds) {
            f.offer(commit);
        }
    }


    /** How long {@link #readRows} waits for a locked row: a commit's group flush or a two-phase commit's outcome. */
    private static final long READ_ROWS_LOCK_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    /**
     * The rows of table {@code name} in key order, for starting a copy after {@link #openCommitFeed}.
     * Not a snapshot of one instant: a row committed meanwhile may show its old or its new value.
     * Each value is read while its row is unlocked, so the commit that wrote it is in the feed
     * already, among the first {@link CommitFeed#offered()} commits read after this returns: a copy
     * holds whole transactions once it has applied that many.
     *
     * @throws TransactionAbortedException when a row stays locked for 10 s (a two-phase commit in doubt)
     */
    public void readRows(String name, java.util.function.BiConsumer<byte[], byte[]> row) {
        table(name).forEachUnlockedRow(row, System.nanoTime() + READ_ROWS_LOCK_WAIT_NANOS);
    }

    /** A worker with its own WAL file; use it from one thread at a time. */
    public synchronized Worker newWorker() {
        checkOpen();
        int id = nextWorkerId++;
        WalFile wal = protocol.sharedWal() ? null : WalFile.create(walFile("w" + id), header(), durability);
        Worker w = new Worker(this, id, protocol, wal, shared);
        workers.add(w);
        return w;
    }

    void workerClosed(Worker w) {
        workers.remove(w);
    }

    /** ELR: the LSN up to which every worker's records are durable. */
    long minDurableLsn() {
        long min = Long.MAX_VALUE;
        for (Worker w : workers) {
            min = Math.min(min, w.durableThrough.get());
        }
        return min;
    }

    /**
     * Sets rows directly, outside transactions, and checkpoints them: for loading a table before
     * workers start. {@code rows} holds key/value pairs; a null value deletes.
     */
    public synchronized void load(TransactionalTable table, Iterable<byte[][]> rows) {
        checkQuiet("load");
        for (byte[][] kv : rows) {
            table.reset(kv[0], kv[1]);
        }
        checkpoint();
    }

    /**
     * Writes the committed state to RocksDB and truncates the WAL. Call only while no worker is
     * open: a checkpoint needs every commit flushed and none in progress.
     */
    public synchronized void checkpoint() {
        checkQuiet("checkpoint");
        checkpointCurrentEpoch();
        startEpoch();
    }

    private void checkpointCurrentEpoch() {
        List<Path> covered = new ArrayList<>();
        if (shared != null) {
            shared.close();
            covered.add(walFile("shared"));
        }
        try (Stream<Path> files = Files.list(walDir)) {
            files.filter(f -> f.getFileName().toString().startsWith((epoch + 1) + "-")).forEach(covered::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list WAL directory " + walDir, e);
        }
        checkpointAndTruncate(covered);
        shared = null;
    }

    private void checkQuiet(String what) {
        checkOpen();
        if (!workers.isEmpty()) {
            throw new IllegalStateException("cannot " + what + " while " + workers.size() + " workers are open");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the transactional database is closed");
        }
    }

    /** Closes the workers (flushing them), checkpoints and closes RocksDB. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        for (Worker w : workers) {
            w.close();
        }
        checkpointCurrentEpoch();
        closed = true;
        store.close();
    }

    /** Stops without flushing or checkpointing, leaving the files as a killed process would. */
    void crash() {
        closed = true;
        for (Worker w : workers) {
            w.abandon();
        }
        if (shared != null) {
            shared.abandon();
        }
        store.close();
    }
}
