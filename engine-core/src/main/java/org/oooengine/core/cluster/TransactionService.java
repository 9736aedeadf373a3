package org.oooengine.core.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.exec.DaemonThreads;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.PayloadReader;
import org.oooengine.core.net.PayloadWriter;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.net.Responder;
import org.oooengine.core.txn.Decision;
import org.oooengine.core.txn.Durability;
import org.oooengine.core.txn.LogProtocol;
import org.oooengine.core.txn.PreparedTransaction;
import org.oooengine.core.txn.Transaction;
import org.oooengine.core.txn.TransactionAbortedException;
import org.oooengine.core.txn.TransactionId;
import org.oooengine.core.txn.TransactionalDatabase;
import org.oooengine.core.txn.TransactionalTable;
import org.oooengine.core.txn.Worker;

/**
 * A node's transactional tables ({@code TXN} requests): each transaction's steps on this node run
 * in turn on one lane — a thread with its own {@link Worker} and WAL — chosen by its id, so its
 * {@link Transaction} is only ever used by one thread. Coordinators drive the two-phase commit
 * (see {@link DistributedTransaction}); this side also finishes what a dead coordinator left:
 * transactions that heard nothing for {@link Options#abandonedAfter} are aborted, a vote whose
 * outcome did not come within {@link Options#inDoubtAfter} asks its decider, and a decider tells
 * the participants that have not applied its commit.
 */
final class TransactionService implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(TransactionService.class);
    private static final byte[] EMPTY = new byte[0];
    /** How long an aborted transaction's id is refused (a late step of it must not start it again). */
    private static final long TOMBSTONE_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** Rows a SCAN answers at most; the coordinator asks again from where it stopped. */
    static final int SCAN_PAGE_ROWS = 4096;

    /** How the transactional tables keep their log, and when the node finishes what coordinators left. */
    record Options(LogProtocol protocol, Durability durability, int lanes, int maxOpen, Duration abandonedAfter,
                   Duration inDoubtAfter) {
        static Options defaults() {
            return new Options(LogProtocol.NLR, Durability.FSYNC, 2, 10_000, Duration.ofSeconds(60),
                    Duration.ofSeconds(5));
        }
    }

    /** A transaction open on this node: its reads and buffered writes, and when its coordinator last spoke. */
    private static final class Open {
        final Transaction tx;
        volatile long lastHeard = System.nanoTime();

        Open(Transaction tx) {
            this.tx = tx;
        }
    }

    /** A thread with its own worker: the transactions whose ids hash here run their steps in turn on it. */
    private final class Lane {
        final ExecutorService thread;
        final Worker worker;

        Lane(int n) {
            this.thread = Executors.newSingleThreadExecutor(DaemonThreads.named("ooo-txn-" + nodeId + "-" + n));
            this.worker = db.newWorker();
        }
    }

    private final String nodeId;
    private final Peers peers;
    private final Options options;
    private final BiConsumer<Responder, Throwable> fail;
    private final TransactionalDatabase db;
    private final Lane[] lanes;
    private final Map<TransactionId, Open> open = new ConcurrentHashMap<>();
    private final Map<TransactionId, Long> aborted = new ConcurrentHashMap<>();
    /** Ids this node is asking its decider about, or telling participants of, right now. */
    private final Set<TransactionId> resolving = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService housekeeping;
    private final ExecutorService resolver;

    /**
     * @param fail answers a request with the error frame its failure maps to (shared with the node's other requests)
     */
    TransactionService(String nodeId, Path dir, Peers peers, Options options, BiConsumer<Responder, Throwable> fail) {
        this.nodeId = nodeId;
        this.peers = peers;
        this.options = options;
        this.fail = fail;
        this.db = TransactionalDatabase.open(dir, options.protocol(), options.durability());
        this.lanes = new Lane[options.lanes()];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new Lane(i);
        }
        this.resolver = Executors.newSingleThreadExecutor(DaemonThreads.named("ooo-txn-resolver-" + nodeId));
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("ooo-txn-housekeeping-" + nodeId));
        housekeeping.scheduleWithFixedDelay(() -> resolver.execute(this::finishWhatCoordinatorsLeft), 1, 1, TimeUnit.SECONDS);
        if (!db.inDoubt().isEmpty()) {
            LOG.warn("node {}: {} transactions in doubt after recovery: asking their deciders", nodeId, db.inDoubt().size());
        }
    }

    /** The database, for tests and the node's stored procedures. */
    TransactionalDatabase database() {
        return db;
    }

    void handle(byte[] payload, Responder out) {
        PayloadReader r = new PayloadReader(payload);
        TxnOp op = TxnOp.of(r.get());
        switch (op) {
            case CREATE_TABLE -> {
                String name = r.getString();
                resolver.execute(() -> answer(out, () -> {
                    db.createTable(name);
                    out.reply(EMPTY);
                }));
            }
            case DROP_TABLE -> {
                String name = r.getString();
                resolver.execute(() -> answer(out, () -> {
                    db.dropTable(name);
                    out.reply(EMPTY);
                }));
            }
            case APPLIED -> {
                TransactionId id = readId(r);
                int n = r.getCount(1);
                for (int i = 0; i < n; i++) {
                    db.applied(id, r.getString());
                }
                out.reply(EMPTY);
            }
            default -> {
                TransactionId id = readId(r);
                Lane lane = laneOf(id);
                lane.thread.execute(() -> answer(out, () -> out.reply(step(op, id, r, lane))));
            }
        }
    }

    private Lane laneOf(TransactionId id) {
        return lanes[(int) Math.floorMod(id.low() ^ id.high(), (long) lanes.length)];
    }

    static TransactionId readId(PayloadReader r) {
        return new TransactionId(r.getLong(), r.getLong());
    }

    /** One step of transaction {@code id}, on its lane; returns the answer. */
    private byte[] step(TxnOp op, TransactionId id, PayloadReader r, Lane lane) {
        return switch (op) {
            case READ -> read(opened(id, lane).tx, r);
            case SCAN -> scan(opened(id, lane).tx, r);
            case WRITE -> write(opened(id, lane).tx, r);
            case LOCK -> {
                Open o = opened(id, lane);
                yield new PayloadWriter(8).putLong(lane.worker.lock(o.tx)).toByteArray();
            }
            case PREPARE -> {
                long ts = r.getLong();
                String decider = r.getString();
                Open o = taken(id);
                try {
                    lane.worker.prepare(o.tx, id, ts, decider);
                } catch (TransactionAbortedException e) {
                    throw aborted(id, e);
                }
                yield EMPTY;
            }
            case DECIDE -> {
                long ts = r.getLong();
                int n = r.getCount(1);
                List<String> others = new java.util.ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    others.add(r.getString());
                }
                Open o = taken(id);
                try {
                    lane.worker.decide(o.tx, id, ts, others);
                } catch (TransactionAbortedException e) {
                    throw aborted(id, e);
                }
                yield EMPTY;
            }
            case COMMIT_ONE -> {
                Open o = taken(id);
                try {
                    yield new PayloadWriter(8).putLong(o.tx.commit()).toByteArray();
                } catch (TransactionAbortedException e) {
                    throw aborted(id, e);
                }
            }
            case COMMIT -> {
                lane.worker.commitPrepared(id);
                yield EMPTY;
            }
            case ABORT -> {
                abortHere(id, lane);
                yield EMPTY;
            }
            case STATUS -> status(id, lane);
            default -> throw new IllegalStateException(op + " is not a step of a transaction");
        };
    }

    /** The open transaction {@code id}, begun here on its first step. */
    private Open opened(TransactionId id, Lane lane) {
        Open o = open.get(id);
        if (o == null) {
            if (aborted.containsKey(id)) {
                throw new TransactionAbortedException("transaction " + id + " was aborted on node " + nodeId);
            }
            if (open.size() >= options.maxOpen()) {
                throw new RemoteException(nodeId, ErrorCode.TOO_MANY_REQUESTS, "node " + nodeId + " has "
                        + open.size() + " transactions open, the most it takes: try again later");
            }
            o = new Open(lane.worker.begin());
            open.put(id, o);
        }
        o.lastHeard = System.nanoTime();
        return o;
    }

    /** Takes transaction {@code id} out of the open ones for its last step here. */
    private Open taken(TransactionId id) {
        Open o = open.remove(id);
        if (o == null) {
            throw new TransactionAbortedException("transaction " + id + " is not open on node " + nodeId
                    + " (aborted, or the node restarted)");
        }
        return o;
    }

    private TransactionAbortedException aborted(TransactionId id, TransactionAbortedException e) {
        aborted.put(id, System.nanoTime());
        return new TransactionAbortedException("transaction " + id + " conflicted on node " + nodeId + ": " + e.getMessage());
    }

    private void abortHere(TransactionId id, Lane lane) {
        aborted.put(id, System.nanoTime());
        Open o = open.remove(id);
        if (o != null) {
            o.tx.abort();
        }
        lane.worker.abortPrepared(id);
    }

    /**
     * Asked by a participant in doubt: committed if this node decided so; otherwise it never will
     * (presumed abort) — an open transaction here is aborted so that a late decide fails.
     */
    private byte[] status(TransactionId id, Lane lane) {
        Decision d = db.decision(id);
        if (d != null) {
            return new PayloadWriter(9).put(1).putLong(d.commitTimestamp()).toByteArray();
        }
        if (open.containsKey(id)) {
            LOG.info("node {}: transaction {} asked about by a participant in doubt before it was decided: aborted",
                    nodeId, id);
        }
        abortHere(id, lane);
        return new byte[] {0};
    }

    private byte[] read(Transaction tx, PayloadReader r) {
        TransactionalTable t = db.table(r.getString());
        int n = r.getCount(1);
        PayloadWriter w = new PayloadWriter(64 + n * 64);
        for (int i = 0; i < n; i++) {
            byte[] row = tx.get(t, r.getBytes());
            putNullable(w, row);
        }
        return w.toByteArray();
    }

    private byte[] scan(Transaction tx, PayloadReader r) {
        TransactionalTable t = db.table(r.getString());
        byte[] from = getNullable(r);
        byte[] to = getNullable(r);
        List<Transaction.KeyValue> rows = tx.scanRange(t, from, to, SCAN_PAGE_ROWS);
        PayloadWriter w = new PayloadWriter(64 + rows.size() * 64).putVarInt(rows.size());
        for (Transaction.KeyValue kv : rows) {
            w.putBytes(kv.key()).putBytes(kv.value());
        }
        return w.toByteArray();
    }

    private byte[] write(Transaction tx, PayloadReader r) {
        TransactionalTable t = db.table(r.getString());
        int m = r.get();
        if (m < 0 || m >= TransactionalWrite.values().length) {
            throw new org.oooengine.core.net.ProtocolException("unknown write mode " + m);
        }
        TransactionalWrite mode = TransactionalWrite.values()[m];
        int n = r.getCount(1);
        long changed = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = r.getBytes();
            byte[] row = mode == TransactionalWrite.DELETE ? null : r.getBytes();
            boolean exists = mode != TransactionalWrite.PUT && tx.get(t, key) != null; // read: validated at commit
            switch (mode) {
                case INSERT -> {
                    if (exists) {
                        throw new ConstraintViolation("duplicate primary key in transactional table " + t.name());
                    }
                    tx.put(t, key, row);
                    changed++;
                }
                case UPDATE -> {
                    if (exists) {
                        tx.put(t, key, row);
                        changed++;
                    }
                }
                case PUT -> {
                    tx.put(t, key, row);
                    changed++;
                }
                case DELETE -> {
                    if (exists) {
                        tx.delete(t, key);
                        changed++;
                    }
                }
            }
        }
        return new PayloadWriter(8).putLong(changed).toByteArray();
    }

    static void putNullable(PayloadWriter w, byte[] b) {
        if (b == null) {
            w.put(0);
        } else {
            w.put(1).putBytes(b);
        }
    }

    static byte[] getNullable(PayloadReader r) {
        return r.get() == 0 ? null : r.getBytes();
    }

    /** A write that broke a constraint; the transaction goes on only to be aborted. */
    static final class ConstraintViolation extends RuntimeException {
        ConstraintViolation(String message) {
            super(message);
        }
    }

    private void answer(Responder out, ThrowingRunnable work) {
        try {
            work.run();
        } catch (TransactionAbortedException e) {
            out.fail(ErrorCode.CONFLICT, e.getMessage());
        } catch (ConstraintViolation e) {
            out.fail(ErrorCode.CONSTRAINT, e.getMessage());
        } catch (Throwable e) {
            fail.accept(out, e);
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    // ---- What coordinators left (on the resolver thread, once a second) ----

    private void finishWhatCoordinatorsLeft() {
        try {
            long now = System.nanoTime();
            for (Map.Entry<TransactionId, Open> e : open.entrySet()) {
                if (now - e.getValue().lastHeard > options.abandonedAfter().toNanos()) {
                    TransactionId id = e.getKey();
                    LOG.warn("node {}: transaction {} heard nothing from its coordinator for {} s: aborted", nodeId, id,
                            options.abandonedAfter().toSeconds());
                    Lane lane = laneOf(id);
                    lane.thread.execute(() -> abortHere(id, lane));
                }
            }
            aborted.values().removeIf(t -> now - t > TOMBSTONE_NANOS);
            for (PreparedTransaction p : db.inDoubt()) {
                if (p.waitingNanos() > options.inDoubtAfter().toNanos() && resolving.add(p.id())) {
                    askDecider(p);
                }
            }
            for (Decision d : db.decisions()) {
                if (d.ageNanos() > options.inDoubtAfter().toNanos() && resolving.add(d.id())) {
                    tellParticipants(d);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("node {}: finishing transactions left by coordinators failed: {}", nodeId, e.toString());
        }
    }

    /** Asks the decider of a transaction in doubt for its outcome, and applies it. */
    private void askDecider(PreparedTransaction p) {
        byte[] payload = new PayloadWriter(24).put(TxnOp.STATUS.code()).putLong(p.id().high()).putLong(p.id().low())
                .toByteArray();
        call(p.decider(), payload).whenComplete((answer, e) -> {
            if (e != null) {
                resolving.remove(p.id());
                LOG.info("node {}: transaction {} stays in doubt: its decider cannot be asked ({})", nodeId, p.id(),
                        e.getMessage());
                return;
            }
            boolean committed = answer.get() == 1;
            Lane lane = laneOf(p.id());
            lane.thread.execute(() -> {
                try {
                    if (committed) {
                        lane.worker.commitPrepared(p.id());
                    } else {
                        lane.worker.abortPrepared(p.id());
                    }
                    LOG.info("node {}: transaction {} in doubt learned from node {}: {}", nodeId, p.id(), p.decider(),
                            committed ? "committed" : "aborted");
                    if (committed) {
                        call(p.decider(), applied(p.id(), List.of(nodeId)));
                    }
                } finally {
                    resolving.remove(p.id());
                }
            });
        });
    }

    /** Tells the participants that have not applied a commit this node decided. */
    private void tellParticipants(Decision d) {
        byte[] commit = new PayloadWriter(24).put(TxnOp.COMMIT.code()).putLong(d.id().high()).putLong(d.id().low())
                .toByteArray();
        List<java.util.concurrent.CompletableFuture<?>> told = new java.util.ArrayList<>();
        for (String participant : d.waiting()) {
            told.add(call(participant, commit).thenRun(() -> db.applied(d.id(), participant)));
        }
        java.util.concurrent.CompletableFuture.allOf(told.toArray(java.util.concurrent.CompletableFuture[]::new))
                .whenComplete((v, e) -> resolving.remove(d.id()));
    }

    static byte[] applied(TransactionId id, List<String> participants) {
        PayloadWriter w = new PayloadWriter(64).put(TxnOp.APPLIED.code()).putLong(id.high()).putLong(id.low())
                .putVarInt(participants.size());
        participants.forEach(w::putString);
        return w.toByteArray();
    }

    private java.util.concurrent.CompletableFuture<PayloadReader> call(String node, byte[] payload) {
        try {
            return peers.client(node).call(OpCode.TXN, payload).thenApply(f -> f.reader());
        } catch (RuntimeException e) {
            return java.util.concurrent.CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        housekeeping.shutdownNow();
        resolver.shutdownNow();
        for (Lane lane : lanes) {
            lane.thread.shutdown();
        }
        for (Lane lane : lanes) {
            try {
                if (!lane.thread.awaitTermination(10, TimeUnit.SECONDS)) {
                    lane.thread.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Open o : open.values()) {
            o.tx.abort();
        }
        open.clear();
        db.close();
    }
}
