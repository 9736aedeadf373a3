package org.oooengine.core.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.StatementJournal;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.types.RowCodec;

/**
 * A node's side of writes in place ({@code WRITE_ROWS}), one statement at a time, on the node's
 * write thread. A statement's rows are applied to the tables' writers unseen ({@link #apply}); then
 * the coordinator has every owner {@link #prepare} it — the page images each changed tree's flush
 * would write go into the statement's journal ({@link StatementJournal}), synced, nothing published
 * — and one owner, the decider, {@link #decide} it: its record in {@link WriteDecisions}, synced,
 * is the commit point; it then marks its journal committed and applies it. The other owners
 * {@link #commit} it the same way when told. A node that restarts rolls its committed journals
 * forward before its store opens and asks the decider about its prepared ones ({@link #recover}).
 *
 * <p>A statement is known by the number its coordinator gave it. An open statement not yet prepared
 * is rolled back when another begins (its coordinator went away) or after {@link #ABANDONED_AFTER}
 * without a word; a prepared one is never rolled back without its decider: the decider gives up its
 * own after {@link #ABANDONED_AFTER} (presumed abort: no record, not committed), the others ask it
 * after {@link #ASK_AFTER} and then at every {@link #tick}. Meanwhile writes in place into the
 * tables of a prepared statement are refused, naming it and its decider, and no load starts. A
 * load that swapped the store in while a statement was open fails its prepare: its rows were in
 * the replaced store.
 */
final class InPlaceWrites {
    private static final Logger LOG = LogManager.getLogger(InPlaceWrites.class);
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(10);
    /** How long a prepared statement waits for its coordinator's word before it asks its decider. */
    static final Duration ASK_AFTER = Duration.ofSeconds(30);

    /** {@code WRITE_OUTCOME}'s answers. */
    static final byte NOT_DECIDED = 0;
    static final byte COMMITTED = 1;
    /** Prepared on the decider, not decided yet: ask again. */
    static final byte PREPARED = 2;

    /** Asks a decider what became of a statement ({@code WRITE_OUTCOME}, not settling it). */
    @FunctionalInterface
    interface Outcomes {
        CompletableFuture<Byte> ask(String decider, long statement);
    }

    private final String nodeId;
    /** Where the journals and the decision records are: {@code <dataDir>/writes}. */
    private final Path dir;
    private final Supplier<Store> store;
    /** Closes a store a load replaced if it is still open: it reads the files these writes change. */
    private final Runnable closeReplacedStore;
    /** Whether a load is under way on the node (a statement does not prepare meanwhile). */
    private final BooleanSupplier loading;
    private final Outcomes outcomes;
    /** The write thread, where the answers of deciders are acted on. */
    private final Executor writeThread;
    private final WriteDecisions decisions;
    private long statement;
    private Store statementStore;
    /** Tables the open statement wrote, and how many rows it added to each (negative: removed). */
    private final Map<String, Long> writing = new LinkedHashMap<>();
    private long lastHeard;
    /** The open statement once prepared: its journal, and the flushes that write it through the open writers. */
    private Prepared prepared;
    /** Journals on disk of statements not in memory (a restart, an apply that failed), by statement. */
    private final Map<Long, Pending> pending = new LinkedHashMap<>();
    /** Statements whose decider is being asked now. */
    private final Set<Long> asking = new HashSet<>();

    private record Prepared(StatementJournal journal, Path file, Map<String, List<TableWriter.TreeFlush>> flushes) {
    }

    /**
     * A statement's journal waiting on disk: prepared (its decider is asked until it answers) or
     * committed (rolled forward at the next {@link #tick}); {@code why} tells what it waits for.
     */
    private record Pending(long statement, Path file, String decider, Set<String> tables, boolean committed,
                           String why) {
        Pending waiting(String reason) {
            return new Pending(statement, file, decider, tables, committed, reason);
        }
    }

    InPlaceWrites(String nodeId, Path dataDir, Supplier<Store> store, Runnable closeReplacedStore,
                  BooleanSupplier loading, Outcomes outcomes, Executor writeThread) {
        this.nodeId = nodeId;
        this.dir = dataDir.resolve("writes");
        this.store = store;
        this.closeReplacedStore = closeReplacedStore;
        this.loading = loading;
        this.outcomes = outcomes;
        this.writeThread = writeThread;
        this.decisions = WriteDecisions.open(dir);
    }

    /** Whether no statement is open nor any journal waiting (a tree may be flushed without publishing a statement's rows). */
    boolean idle() {
        return writing.isEmpty() && pending.isEmpty();
    }

    /** Why a load may not start, publish or restore a store now (a statement prepared here), or null. */
    String loadRefusal() {
        if (prepared != null) {
            return "node " + nodeId + " holds statement " + name(statement) + " prepared (its decider is node "
                    + prepared.journal().decider() + "): a load waits until it is committed or rolled back";
        }
        if (!pending.isEmpty()) {
            Pending p = pending.values().iterator().next();
            return "node " + nodeId + " holds statement " + name(p.statement()) + " " + (p.committed() ? "committed"
                    : "prepared") + " and not yet applied (its decider is node " + p.decider() + "; " + p.why()
                    + "): a load waits until it is settled";
        }
        return null;
    }

    // ---- A statement's steps, as its coordinator sends them ----

    /** Applies {@code rows} (encoded in the table's row format) of statement {@code id}; returns the rows changed. */
    long apply(long id, String table, SplitPolicy policy, ClusterWriter.RowWrite kind, List<byte[]> rows) {
        refuseIfPending(table);
        if (prepared != null) {
            String decider = prepared.journal().decider();
            if (id != statement && !nodeId.equals(decider)
                    && System.nanoTime() - lastHeard > ASK_AFTER.toNanos() / 6) { // its coordinator may be gone: ask now
                ask(statement, decider);
            }
            throw new IllegalStateException(id == statement
                    ? "statement " + name(id) + " is prepared on node " + nodeId + ": it takes no more rows"
                    : "node " + nodeId + " holds statement " + name(statement) + " prepared, awaiting its outcome from "
                            + "its decider, node " + prepared.journal().decider() + ": statement " + name(id)
                            + " waits until it is settled");
        }
        Store st = store.get();
        if (id != statement && !writing.isEmpty()) {
            LOG.warn("node {}: statement {} began while statement {} was open; its coordinator went away: rolled back",
                    nodeId, name(id), name(statement));
            rollBack(statement);
        }
        if (writing.isEmpty()) {
            closeReplacedStore.run();
            statement = id;
            statementStore = st;
        }
        lastHeard = System.nanoTime();
        writing.putIfAbsent(table, 0L); // a failure half way forgets the rows applied so far too
        try {
            st.startWriting(table);
            TableWriter w = st.writer(table, policy);
            Table t = st.table(table);
            RowCodec codec = new RowCodec(t.schema());
            int[] pk = t.primaryKeyPositions();
            long changed = 0;
            long delta = 0;
            for (byte[] encoded : rows) {
                Object[] row = codec.decode(encoded);
                switch (kind) {
                    case INSERT -> {
                        w.insert(row);
                        changed++;
                        delta++;
                    }
                    case UPDATE -> changed += w.update(row) ? 1 : 0;
                    case DELETE -> {
                        Object[] key = new Object[pk.length];
                        for (int k = 0; k < pk.length; k++) {
                            key[k] = row[pk[k]];
                        }
                        if (w.delete(key)) {
                            changed++;
                            delta--;
                        }
                    }
                }
            }
            writing.merge(table, delta, Long::sum);
            return changed;
        } catch (RuntimeException e) {
            rollBack(id);
            throw e;
        }
    }

    /**
     * Makes statement {@code id} durable here and not yet seen: every changed tree's flush, as page
     * images, and each table's row count after it go into the statement's journal, synced (file and
     * directory). {@code decider} is the owner whose record will decide it.
     */
    void prepare(long id, String decider) {
        if (prepared != null && id == statement) {
            return; // asked again
        }
        if (id != statement || writing.isEmpty()) {
            throw new IllegalStateException("node " + nodeId + " holds no rows of statement " + name(id)
                    + " (it restarted, or rolled the statement back meanwhile): nothing prepared");
        }
        lastHeard = System.nanoTime();
        Store st = store.get();
        if (st != statementStore) {
            rollBack(id);
            throw new IllegalStateException("a load replaced node " + nodeId + "'s store while the statement ran: "
                    + "nothing written there");
        }
        if (loading.getAsBoolean()) {
            rollBack(id);
            throw new IllegalStateException("a load is under way on node " + nodeId + ": statement " + name(id)
                    + " was rolled back there");
        }
        try {
            List<StatementJournal.TableChange> tables = new ArrayList<>();
            List<StatementJournal.TreeImages> trees = new ArrayList<>();
            Map<String, List<TableWriter.TreeFlush>> flushes = new LinkedHashMap<>();
            for (Map.Entry<String, Long> e : writing.entrySet()) {
                String table = e.getKey();
                tables.add(new StatementJournal.TableChange(table, e.getValue(), st.table(table).rows() + e.getValue()));
                Optional<TableWriter> w = st.openWriter(table);
                List<TableWriter.TreeFlush> f = w.isPresent() ? w.get().pendingFlushes() : List.of();
                flushes.put(table, f);
                for (TableWriter.TreeFlush tf : f) {
                    trees.add(new StatementJournal.TreeImages(table, tf.tree().path().getFileName().toString(),
                            tf.flush()));
                }
            }
            StatementJournal journal = new StatementJournal(id, decider, st.manifest().loadedAt(), tables, trees);
            Path file = journal.writePrepared(dir);
            prepared = new Prepared(journal, file, flushes);
            LOG.debug("node {} prepared statement {} ({} trees, {} bytes of pages; decider {})", nodeId, name(id),
                    trees.size(), trees.stream().mapToLong(t -> t.flush().bytes()).sum(), decider);
        } catch (RuntimeException e) {
            rollBack(id);
            throw e;
        }
    }

    /**
     * The decision, on the deciding owner: the record that statement {@code id} committed, synced,
     * then its rows applied here. Once the record is written the statement is committed whatever
     * follows: an apply that fails then is logged and done again at the next {@link #tick}.
     */
    void decide(long id) {
        if (prepared == null || id != statement) {
            throw new IllegalStateException("statement " + name(id) + " is not prepared on node " + nodeId
                    + " (rolled back, or the node restarted): not committed");
        }
        if (!nodeId.equals(prepared.journal().decider())) {
            throw new IllegalStateException("node " + nodeId + " does not decide statement " + name(id) + ": node "
                    + prepared.journal().decider() + " does");
        }
        if (store.get() != statementStore) { // loads are refused while prepared: never, but never commit into another store
            throw new IllegalStateException("node " + nodeId + "'s store changed since statement " + name(id)
                    + " was prepared: not committed");
        }
        decisions.record(id); // the commit point
        try {
            commitPrepared();
        } catch (RuntimeException e) {
            LOG.error("node {}: statement {} is committed, and applying it here failed; done again shortly: {}", nodeId,
                    name(id), e.toString());
        }
    }

    /**
     * Statement {@code id} was decided committed: this node marks its journal committed, applies
     * it and forgets it. A statement held here only as a journal (the node restarted) is rolled
     * forward from it; one of which nothing is held was applied already.
     */
    void commit(long id) {
        if (prepared != null && id == statement) {
            commitPrepared();
            return;
        }
        Pending p = pending.get(id);
        if (p != null) {
            rollForward(p.committed() ? p : committedNow(p));
            return;
        }
        if (!writing.isEmpty() && id == statement) {
            throw new IllegalStateException("statement " + name(id) + " is not prepared on node " + nodeId
                    + ": nothing committed");
        }
        // none of its rows here, or applied already
    }

    /** Forgets what statement {@code id} applied and its prepared journal; a committed one is never rolled back. */
    void rollBack(long id) {
        if (decisions.committed(id)) {
            LOG.warn("node {}: statement {} is committed: not rolled back", nodeId, name(id));
            return;
        }
        Pending p = pending.get(id);
        if (p != null && !p.committed()) {
            StatementJournal.delete(p.file());
            pending.remove(id);
            LOG.info("node {}: prepared statement {} rolled back", nodeId, name(id));
            return;
        }
        if (id != statement || writing.isEmpty()) {
            return;
        }
        if (prepared != null) {
            StatementJournal.delete(prepared.file());
            prepared = null;
        }
        Store st = statementStore;
        for (String table : writing.keySet()) {
            try {
                st.openWriter(table).ifPresent(TableWriter::discard);
            } catch (RuntimeException e) { // a writer that failed in a flush cannot forget: it is dropped, and reopened
                st.closeWriter(table);
            }
        }
        writing.clear();
    }

    /**
     * What became of statement {@code id}, asked of its decider: committed (recorded here), prepared
     * (not decided yet), or not decided — never committed, and it never will be: a prepared
     * statement is rolled back first when {@code settle} (its coordinator asking after a decision
     * it did not hear the answer of).
     */
    byte outcome(long id, boolean settle) {
        if (decisions.committed(id)) {
            return COMMITTED;
        }
        if (prepared != null && id == statement) {
            if (settle && nodeId.equals(prepared.journal().decider())) {
                LOG.warn("node {}: statement {} asked about by its coordinator before it was decided: rolled back",
                        nodeId, name(id));
                rollBack(id);
                return NOT_DECIDED;
            }
            return PREPARED;
        }
        if (!writing.isEmpty() && id == statement) { // open here, not prepared: it never will be (presumed abort)
            LOG.warn("node {}: statement {} asked about before it was prepared here: rolled back", nodeId, name(id));
            rollBack(id);
            return NOT_DECIDED;
        }
        Pending p = pending.get(id);
        if (p != null) {
            return p.committed() ? COMMITTED : PREPARED;
        }
        return NOT_DECIDED;
    }

    // ---- What coordinators left, at every tick of the node's timer ----

    /**
     * Settles what no coordinator will: an open statement silent for {@link #ABANDONED_AFTER} is
     * rolled back, as is a prepared one on its decider; a prepared one elsewhere silent for
     * {@link #ASK_AFTER} asks its decider, as do the journals waiting here; committed ones waiting
     * are rolled forward.
     */
    void tick() {
        long silent = System.nanoTime() - lastHeard;
        if (!writing.isEmpty() && prepared == null && silent > ABANDONED_AFTER.toNanos()) {
            LOG.warn("node {}: statement {} heard nothing for {} s: rolled back", nodeId, name(statement),
                    ABANDONED_AFTER.toSeconds());
            rollBack(statement);
        } else if (prepared != null) {
            String decider = prepared.journal().decider();
            if (nodeId.equals(decider) && silent > ABANDONED_AFTER.toNanos()) {
                LOG.warn("node {}: prepared statement {} heard nothing from its coordinator for {} s: not committed "
                        + "(this node decides it), rolled back", nodeId, name(statement), ABANDONED_AFTER.toSeconds());
                rollBack(statement);
            } else if (!nodeId.equals(decider) && silent > ASK_AFTER.toNanos()) {
                ask(statement, decider);
            }
        }
        for (Pending p : List.copyOf(pending.values())) {
            if (p.committed()) {
                try {
                    rollForward(p);
                } catch (RuntimeException e) {
                    LOG.warn("node {}: rolling statement {} forward failed again: {}", nodeId, name(p.statement()),
                            e.toString());
                }
            } else {
                ask(p.statement(), p.decider());
            }
        }
    }

    /** Asks {@code decider} what became of {@code id}; the answer is acted on on the write thread. */
    private void ask(long id, String decider) {
        if (!asking.add(id)) {
            return;
        }
        CompletableFuture<Byte> answer;
        try {
            answer = outcomes.ask(decider, id);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((outcome, e) -> writeThread.execute(() -> {
            asking.remove(id);
            try {
                learned(id, decider, e == null ? outcome : null, e);
            } catch (RuntimeException failed) { // a committed journal stays, rolled forward at the next tick
                LOG.warn("node {}: settling statement {} as its decider node {} said failed: {}", nodeId, name(id),
                        decider, failed.toString());
            }
        }));
    }

    /** On the write thread: the decider's answer about {@code id} ({@code outcome} null: it could not be asked). */
    private void learned(long id, String decider, Byte outcome, Throwable failure) {
        boolean inMemory = prepared != null && id == statement;
        Pending p = pending.get(id);
        if (!inMemory && p == null) {
            return; // settled meanwhile
        }
        if (outcome == null || outcome == PREPARED) {
            String why = outcome == null ? "node " + decider + " cannot be asked (" + rootMessage(failure) + ")"
                    : "node " + decider + " has not decided it yet";
            if (p != null && !why.equals(p.why())) {
                LOG.info("node {}: statement {} stays prepared: {}", nodeId, name(id), why);
                pending.put(id, p.waiting(why));
            }
            return;
        }
        if (outcome == COMMITTED) {
            LOG.info("node {}: statement {} was committed, its decider node {} says: rolled forward", nodeId, name(id),
                    decider);
            if (inMemory) {
                commitPrepared();
            } else {
                rollForward(committedNow(p));
            }
        } else {
            LOG.info("node {}: statement {} was not committed, its decider node {} says: rolled back", nodeId,
                    name(id), decider);
            rollBack(id);
        }
    }

    // ---- Applying a decided statement ----

    /**
     * The prepared statement is committed: its journal is marked so, its flushes written in place
     * through the open writers and published to the readers tree by tree (the journal, kept until
     * they are synced, is their redo log), the manifest counts the rows and is synced, and the
     * journal goes. A failure half way leaves the journal committed, rolled forward at the next
     * {@link #tick} through writers opened anew.
     */
    private void commitPrepared() {
        Prepared p = prepared;
        Path committed = StatementJournal.markCommitted(p.file());
        Store st = statementStore;
        try {
            for (StatementJournal.TableChange t : p.journal().tables()) {
                List<TableWriter.TreeFlush> flushes = p.flushes().get(t.table());
                if (!flushes.isEmpty()) {
                    st.openWriter(t.table()).orElseThrow(() -> new IllegalStateException("no writer of table "
                            + t.table() + " is open on node " + nodeId)).writeJournaled(flushes);
                }
                st.wrote(t.table(), t.delta());
            }
            StatementJournal.syncManifest(st.dir());
            StatementJournal.delete(committed);
        } catch (RuntimeException e) { // the writers go; new ones redo what their redo logs hold, the journal the rest
            writing.keySet().forEach(st::closeWriter);
            pending.put(statement, new Pending(statement, committed, p.journal().decider(),
                    Set.copyOf(writing.keySet()), true, "applying it failed: " + e.getMessage()));
            prepared = null;
            writing.clear();
            throw e;
        }
        LOG.debug("node {} committed statement {} (tables {})", nodeId, name(statement), writing.keySet());
        prepared = null;
        writing.clear();
    }

    /** A prepared journal waiting here is decided committed: marked so. */
    private Pending committedNow(Pending p) {
        Pending c = new Pending(p.statement(), StatementJournal.markCommitted(p.file()), p.decider(), p.tables(), true,
                "committed, not yet applied");
        pending.put(p.statement(), c);
        return c;
    }

    /**
     * Rolls a committed journal forward into the open store: each table's writer opened anew (which
     * finishes a flush of its own cut short), every tree's images written through it, the manifest
     * set to the row counts after the statement; then the journal goes.
     */
    private void rollForward(Pending p) {
        StatementJournal j = StatementJournal.read(p.file());
        Store st = store.get();
        if (st == null) {
            throw new IllegalStateException("node " + nodeId + " has no store to roll statement " + name(p.statement())
                    + " forward into");
        }
        j.requireStore(st.manifest(), p.file());
        for (StatementJournal.TableChange t : j.tables()) {
            st.closeWriter(t.table());
            st.startWriting(t.table());
        }
        for (StatementJournal.TreeImages t : j.trees()) {
            TableWriter w = st.writer(t.table(), SplitPolicy.PREFIX);
            BTreeWriter tree = w.trees().values().stream()
                    .filter(b -> b.path().getFileName().toString().equals(t.file())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("table " + t.table() + " on node " + nodeId
                            + " has no tree in " + t.file() + ", which statement " + name(p.statement()) + " wrote"));
            tree.writeJournaled(t.flush()); // the journal is the redo log: kept until the trees and the manifest hold it
        }
        for (StatementJournal.TableChange t : j.tables()) {
            st.wrote(t.table(), t.rowsAfter() - st.table(t.table()).rows());
        }
        StatementJournal.syncManifest(st.dir());
        StatementJournal.delete(p.file());
        pending.remove(p.statement());
        LOG.info("node {} rolled statement {} forward (tables {})", nodeId, name(p.statement()), p.tables());
    }

    // ---- At the node's start, before its store opens ----

    /**
     * Settles the journals a stopped node left, before its store (in {@code storeDir}) opens: every
     * journal is read and checked first (a damaged one is a {@link
     * org.oooengine.core.storage.DataCorruptedException} naming the file, offset and checksum: the
     * node does not start on it); a committed one is rolled forward into the store's files; a
     * prepared one this node decides is rolled forward if it decided so, else rolled back; a prepared
     * one another node decides asks it ({@code askNow}: null when it cannot be asked) — committed:
     * rolled forward, not decided: rolled back, otherwise it waits ({@link #tick} asks again) and
     * writes into its tables are refused meanwhile.
     */
    void recover(Path storeDir, java.util.function.BiFunction<String, Long, Byte> askNow) {
        for (Path f : StatementJournal.list(dir, StatementJournal.PREPARING)) {
            StatementJournal.delete(f); // never prepared: its coordinator never heard it was
        }
        List<Path> committed = StatementJournal.list(dir, StatementJournal.COMMITTED);
        List<Path> preparedFiles = StatementJournal.list(dir, StatementJournal.PREPARED);
        Map<Path, StatementJournal> journals = new LinkedHashMap<>();
        for (Path f : committed) {
            journals.put(f, StatementJournal.read(f));
        }
        for (Path f : preparedFiles) {
            journals.put(f, StatementJournal.read(f));
        }
        for (Path f : committed) {
            rollForwardAtStart(storeDir, f, journals.get(f));
        }
        for (Path f : preparedFiles) {
            StatementJournal j = journals.get(f);
            long id = j.statement();
            Byte outcome;
            if (nodeId.equals(j.decider())) {
                outcome = decisions.committed(id) ? COMMITTED : NOT_DECIDED;
            } else {
                outcome = askNow.apply(j.decider(), id);
            }
            if (outcome != null && outcome == COMMITTED) {
                rollForwardAtStart(storeDir, StatementJournal.markCommitted(f), j);
            } else if (outcome != null && outcome == NOT_DECIDED) {
                StatementJournal.delete(f);
                LOG.warn("node {}: statement {} was prepared here and not committed (node {} decides it): rolled back",
                        nodeId, name(id), j.decider());
            } else {
                String why = outcome == null ? "node " + j.decider() + " cannot be asked" : "node " + j.decider()
                        + " has not decided it yet";
                Set<String> tables = new java.util.LinkedHashSet<>();
                j.tables().forEach(t -> tables.add(t.table()));
                pending.put(id, new Pending(id, f, j.decider(), tables, false, why));
                LOG.warn("node {}: statement {} is prepared here and its outcome unknown ({}); writes in place into {} "
                        + "wait until it is learned", nodeId, name(id), why, tables);
            }
        }
    }

    private void rollForwardAtStart(Path storeDir, Path file, StatementJournal j) {
        j.applyTo(storeDir, file);
        StatementJournal.delete(file);
        LOG.warn("node {}: statement {} was committed and not all applied here when the node stopped: rolled forward",
                nodeId, name(j.statement()));
    }

    /** Refuses a write into {@code table} while a statement's journal that changes it waits here. */
    private void refuseIfPending(String table) {
        for (Pending p : pending.values()) {
            if (p.tables().contains(table)) {
                throw new IllegalStateException("table " + table + " on node " + nodeId + " waits for statement "
                        + name(p.statement()) + (p.committed() ? " to be rolled forward (" + p.why() + ")"
                        : ", prepared here, whose outcome its decider, node " + p.decider() + ", has not told yet ("
                        + p.why() + ")") + ": writes in place into it are refused until it is settled");
            }
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t == null ? "" : t.getMessage();
    }

    static String name(long statement) {
        return StatementJournal.name(statement);
    }

    void close() {
        decisions.close();
    }

    /** The directory of the journals, for tests. */
    Path directory() {
        return dir;
    }
}
