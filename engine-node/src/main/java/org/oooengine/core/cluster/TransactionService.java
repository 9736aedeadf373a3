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
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.net.Responder;
import org.oooengine.core.threads.DaemonThreads;
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
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * A node's transactional tables ({@code TXN} requests): each transaction's steps on this node run
 * in turn on one lane — a thread with its own {@link Worker} and WAL — chosen by its id, so its
 * {@link Transaction} is only ever used by one thread. Coordinators drive the two-phase commit
 * (see {@link DistributedTransaction}); this side also finishes what a dead coordinator left:
 * transactions that heard nothing for {@link Options#abandonedAfter} are aborted, a vote whose
 * outcome did not come within {@link Options#inDoubtAfter} asks its decider, and a decider tells
 * the participants that have not applied its commit.
 */
final class TransactionService implements RequestFamily, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(TransactionService.class);
    private static final byte[] EMPTY = new byte[0];
    /** How long an aborted transaction's id is refused (a late step of it must not start it again). */
    private static final long TOMBSTONE_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** Rows a SCAN answers at most; the coordinator asks again from where it stopped. */
    static final int SCAN_PAGE_ROWS = 4096;

    /** How long a lane's step waits for a row locked by another transaction, as {@link Transaction}'s waits do. */
    private static final long LOCK_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** The pauses between its tries: the step that releases the row is a round trip from its coordinator away. */
    private static final long MIN_LOCK_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long MAX_LOCK_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /**
     * Commits a worker groups into one flush at most: the stored procedures' commits on a node's
     * procedure thread share flushes (their answers wait for them); the lanes' commits, which their
     * coordinators wait for, are each flushed at once.
     */
    static final int GROUP = 32;

    /** How the transactional tables keep their log, and when the node finishes what coordinators left. */
    record Options(LogProtocol protocol, Durability durability, int lanes, int maxOpen, Duration abandonedAfter,
                   Duration inDoubtAfter) {
        static Options defaults() {
            return new Options(LogProtocol.nlrGroup(GROUP), Durability.FSYNC, 2, 10_000, Duration.ofSeconds(60),
                    Duration.ofSeconds(5));
        }
    }

    /**
     * A transaction open on this node: its reads and buffered writes, and when its coordinator last
     * spoke. Its steps hold its monitor: one run by its coordinator's thread on this node (a stored
     * procedure) never meets one run for it by a lane (a participant in doubt asking, a timeout).
     */
    private static final class Open {
        final Transaction tx;
        volatile long lastHeard = System.nanoTime();
        /** Set, under the monitor, by the step that ended it here: committed, voted, decided or aborted. */
        boolean finished;
        /** A step failed (a duplicate key, say): its coordinator aborts it, and it never votes to commit. */
        boolean stepFailed;

        Open(Transaction tx) {
            this.tx = tx;
        }
    }

    /** A thread with its own worker: the transactions whose ids hash here run their steps in turn on it. */
    private final class Lane {
        final java.util.concurrent.ThreadPoolExecutor thread;
        final Worker worker;
        /**
         * Time tasks spent in this lane, queued or running (paused for the OLTP role's share
         * too), summed: over a period, the mean number of transactions it was serving.
         */
        final java.util.concurrent.atomic.AtomicLong servedNanos = new java.util.concurrent.atomic.AtomicLong();
        long servedBefore;

        Lane(String name) {
            // each task run paying its CPU time to the OLTP role, its time in the lane counted
            this.thread = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                    new java.util.concurrent.LinkedBlockingQueue<>(), DaemonThreads.named(name)) {
                @Override
                public void execute(Runnable task) {
                    long queued = System.nanoTime();
                    super.execute(() -> {
                        try {
                            cores.runShared(CoreRoles.Role.OLTP, task);
                        } finally {
                            servedNanos.addAndGet(System.nanoTime() - queued);
                        }
                    });
                }
            };
            this.worker = db.newWorker();
        }

        /** Whether nothing waits to run here: the time to flush an open group of commits. */
        boolean idle() {
            return thread.getQueue().isEmpty();
        }

        /**
         * Runs {@code step} here, then flushes the worker's log when nothing else waits: the commits
         * this node learns of share flushes, and none waits for one longer than its lane is busy.
         */
        void execute(Runnable step) {
            thread.execute(() -> {
                try {
                    step.run();
                } finally {
                    if (idle()) {
                        try {
                            worker.flush();
                        } catch (RuntimeException e) {
                            LOG.error("node {}: flushing the log of {} failed", nodeId, Thread.currentThread().getName(), e);
                        }
                    }
                }
            });
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
    /** Steps of cuts across the copies: one may wait for a two-phase commit, which the resolver may have to settle. */
    private final ExecutorService copyCuts;
    private final ExecutorService resolver;
    /** Threads that run stored procedures, each with its own worker; a procedure's routing number picks one. */
    private final Lane[] procedureThreads;
    private final Map<String, NodeProcedure> procedures = new java.util.HashMap<>();
    /** What procedures keep on this node ({@link NodeProcedure.Context#resource}), by name; closed with the service. */
    private final Map<String, AutoCloseable> resources = new ConcurrentHashMap<>();
    private final Path dir;
    /** The analytical copies of the tables registered for them (HTAP), built and rebuilt on a thread of their own. */
    private final NodeCopies copies;
    private final ExecutorService copyWork;
    /** The node's core roles (seed 000), which its lanes, copy scans and log shipping run in. */
    private final CoreRoles cores = new CoreRoles(HtapConfig.SEED_SLOTS);
    /** The node's HTAP mode and, under HTAL, its balancer. */
    private final NodeHtap htap;
    /** Which procedure thread each routing number runs on. */
    private final LaneAssignment procedureLanes;

    /**
     * @param fail answers a request with the error frame its failure maps to (shared with the node's other requests)
     */
    TransactionService(String nodeId, Path dir, Peers peers, Options options, BiConsumer<Responder, Throwable> fail) {
        this.nodeId = nodeId;
        this.dir = dir;
        this.peers = peers;
        this.options = options;
        this.fail = fail;
        this.db = TransactionalDatabase.open(dir, options.protocol(), options.durability());
        this.copyWork = Executors.newSingleThreadExecutor(DaemonThreads.named("ooo-htap-" + nodeId));
        this.copyCuts = Executors.newFixedThreadPool(4, DaemonThreads.named("ooo-copy-cut-" + nodeId));
        this.copies = new NodeCopies(nodeId, dir, db, NodeCopies.DEFAULT_OPTIONS, copyWork, cores);
        copyWork.execute(() -> {
            try {
                copies.start();
            } catch (RuntimeException e) {
                LOG.error("node {}: the analytical copies cannot start", nodeId, e);
            }
        });
        this.lanes = new Lane[options.lanes()];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new Lane("ooo-txn-" + nodeId + "-" + i);
        }
        this.procedureThreads = new Lane[options.lanes()];
        for (int i = 0; i < procedureThreads.length; i++) {
            procedureThreads[i] = new Lane("ooo-procedure-" + nodeId + "-" + i);
        }
        this.procedureLanes = new LaneAssignment(procedureThreads.length);
        this.htap = new NodeHtap(nodeId, cores, copies, this::laneLoads, procedureLanes::resplit, hostShare(peers.spec()));
        runSavedHtapMode();
        for (NodeProcedure p : java.util.ServiceLoader.load(NodeProcedure.class)) {
            procedures.put(p.name(), p);
        }
        this.resolver = Executors.newSingleThreadExecutor(DaemonThreads.named("ooo-txn-resolver-" + nodeId));
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("ooo-txn-housekeeping-" + nodeId));
        housekeeping.scheduleWithFixedDelay(() -> resolver.execute(this::finishWhatCoordinatorsLeft), 1, 1, TimeUnit.SECONDS);
        if (!db.inDoubt().isEmpty()) {
            LOG.warn("node {}: {} transactions in doubt after recovery: asking their deciders", nodeId, db.inDoubt().size());
        }
    }

    @Override
    public Set<OpCode> ops() {
        return java.util.EnumSet.of(OpCode.TXN);
    }

    @Override
    public void handle(Frame request, Responder out) {
        byte[] payload = request.payload();
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
                    copies.unregister(name);
                    db.dropTable(name);
                    out.reply(EMPTY);
                }));
            }
            case APPLIED -> out.reply(applied(r));
            case COPY_TABLES -> {
                Map<String, org.oooengine.core.store.TableDefinition> tables = new java.util.LinkedHashMap<>();
                int n = r.getCount(2);
                for (int i = 0; i < n; i++) {
                    tables.put(r.getString(), Messages.readDefinition(r));
                }
                resolver.execute(() -> answer(out, () -> {
                    copies.register(tables); // returns at once: the copies are built on copyWork
                    out.reply(EMPTY);
                }));
            }
            case COPY_STATUS -> out.reply(copyStatus());
            case TABLES -> {
                List<String> names = tableNames();
                PayloadWriter w = new PayloadWriter(16 + 32 * names.size()).putVarInt(names.size());
                names.forEach(w::putString);
                out.reply(w.toByteArray());
            }
            case COPY_RELEASE -> {
                copies.release(r.getLong());
                out.reply(EMPTY);
            }
            case COPY_CUT -> {
                long snapshot = r.getLong();
                CopyCut.Step step = CopyCut.step(r);
                java.util.Set<TransactionId> ids = CopyCut.readIds(r);
                copyCuts.execute(() -> answer(out, () -> { // a step may wait for a commit to show
                    PayloadWriter w = new PayloadWriter(64);
                    try {
                        CopyCut.writeIds(w, copies.cut(snapshot, step, ids));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("node " + nodeId + " was interrupted cutting copies", e);
                    }
                    out.reply(w.toByteArray());
                }));
            }
            case HTAP_MODE -> {
                HtapConfig next = HtapConfig.read(r);
                resolver.execute(() -> answer(out, () -> {
                    next.save(dir);
                    htap.configure(next);
                    out.reply(EMPTY);
                }));
            }
            case UNCOPY_TABLE -> {
                String name = r.getString();
                resolver.execute(() -> answer(out, () -> {
                    copies.unregister(name);
                    out.reply(EMPTY);
                }));
            }
            case PROCEDURE -> {
                String name = r.getString();
                int routing = r.getInt();
                byte[] args = r.getBytes();
                NodeProcedure p = procedures.get(name);
                if (p == null) {
                    out.fail(ErrorCode.NOT_FOUND, "node " + nodeId + " has no stored procedure " + name
                            + "; it has " + procedures.keySet());
                    return;
                }
                Lane thread = p.waitsOnOtherNodes() ? procedureThreads[procedureLanes.laneOf(routing)]
                        : lanes[Math.floorMod(routing, lanes.length)];
                thread.thread.execute(() -> {
                    try {
                        answer(out, () -> {
                            byte[] answer = p.run(new PayloadReader(args), procedureContext(thread.worker));
                            // its commits join the worker's open group: answered once they are durable
                            thread.worker.whenDurable(() -> out.reply(answer));
                        });
                    } finally {
                        if (thread.idle()) { // also after a failure: earlier procedures wait for this flush
                            answer(out, thread.worker::flush);
                        }
                    }
                });
            }
            default -> onLane(op, payload, out, System.nanoTime() + LOCK_WAIT_NANOS, MIN_LOCK_PAUSE_NANOS);
        }
    }

    /**
     * Runs a step of a transaction on its lane. One that locks the write set (LOCK, LOCK_PREPARE)
     * does not wait there for a row another transaction holds: the step that releases it may be
     * queued behind it on this very lane, and every step queued there would wait too. It gives the
     * lane up and runs again after a pause, until {@code deadline}; then it conflicts.
     */
    private void onLane(TxnOp op, byte[] payload, Responder out, long deadline, long pause) {
        PayloadReader r = new PayloadReader(payload);
        r.get(); // the op
        TransactionId id = readId(r);
        Lane lane = laneOf(id);
        lane.execute(() -> answer(out, () -> {
            Locking locking = System.nanoTime() < deadline ? Locking.TRY : Locking.LAST_TRY;
            byte[] answer = step(op, id, r, lane.worker, false, locking);
            if (answer == BUSY) {
                housekeeping.schedule(() -> onLane(op, payload, out, deadline, Math.min(2 * pause, MAX_LOCK_PAUSE_NANOS)),
                        pause, TimeUnit.NANOSECONDS);
            } else if (op == TxnOp.COMMIT) { // its record joined the lane's next flush: the decider may forget only then
                lane.worker.whenDurable(() -> out.reply(answer));
            } else {
                out.reply(answer);
            }
        }));
    }

    /** How a step that locks the write set meets a row another transaction holds. */
    private enum Locking {
        /** Waits for it, as a commit does (a coordinator's own thread, which no other step needs). */
        WAIT,
        /** Answers {@link #BUSY} at once, nothing locked: the step runs again later. */
        TRY,
        /** Conflicts at once: the step has tried for as long as a lock is waited for. */
        LAST_TRY
    }

    /** The answer of a step that found a row locked by another transaction, with {@link Locking#TRY} (by identity). */
    private static final byte[] BUSY = new byte[0];

    /** {@code tx}'s write set locked, and the lowest commit timestamp this node allows; empty when {@link Locking#TRY} met a held row. */
    private static java.util.OptionalLong lock(Worker worker, Transaction tx, Locking locking) {
        if (locking == Locking.WAIT) {
            return java.util.OptionalLong.of(worker.lock(tx));
        }
        java.util.OptionalLong ts = worker.tryLock(tx);
        if (ts.isEmpty() && locking == Locking.LAST_TRY) {
            throw new TransactionAbortedException("could not lock a tuple of the write set");
        }
        return ts;
    }

    /**
     * The rows of transactional table {@code table} on this node as read by transaction {@code id}
     * (each joining its read set here, as a scan step would), decoded by {@code schema}: for a
     * pipeline that runs on this node over them. Each page is read on the transaction's lane,
     * between its other steps; the pipeline runs on the caller's thread.
     */
    public PartitionPipeline.RowSource rows(TransactionId id, String table, Schema schema) {
        RowCodec codec = new RowCodec(schema);
        return new PartitionPipeline.RowSource() {
            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public void forEachPage(java.util.function.Predicate<List<Object[]>> page) {
                Lane lane = laneOf(id);
                TransactionalTable t = db.table(table);
                byte[] from = null;
                while (true) {
                    List<Transaction.KeyValue> rows = readPage(id, lane, t, from);
                    List<Object[]> decoded = new java.util.ArrayList<>(rows.size());
                    for (Transaction.KeyValue kv : rows) {
                        decoded.add(codec.decode(kv.value()));
                    }
                    if (!page.test(decoded) || rows.size() < Pipeline.BATCH_ROWS) {
                        return;
                    }
                    byte[] last = rows.get(rows.size() - 1).key();
                    from = java.util.Arrays.copyOf(last, last.length + 1); // the smallest key after the last one
                }
            }
        };
    }

    /**
     * A page of {@code table} from key {@code from} as transaction {@code id} reads it, on its lane.
     * A row another transaction holds locked (a commit between its two phases) is waited for off
     * the lane, for as long as a read waits for a lock: the commit that holds it may be queued on
     * this very lane, so waiting on it would only end in a timeout, and hold up every other step
     * queued there meanwhile.
     */
    private List<Transaction.KeyValue> readPage(TransactionId id, Lane lane, TransactionalTable table, byte[] from) {
        long deadline = System.nanoTime() + LOCK_WAIT_NANOS;
        long pause = MIN_LOCK_PAUSE_NANOS;
        while (true) {
            List<Transaction.KeyValue> rows = onLane(lane, () -> inOpenHere(id, lane.worker,
                    o -> o.tx.scanRangeUnlessLocked(table, from, null, Pipeline.BATCH_ROWS)));
            if (rows != null) {
                return rows;
            }
            if (System.nanoTime() > deadline) {
                throw new TransactionAbortedException("a tuple stayed locked while being read");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(pause);
            pause = Math.min(2 * pause, MAX_LOCK_PAUSE_NANOS);
        }
    }

    /** Runs {@code step} on {@code lane}'s thread and waits for it; its failure is thrown here as it was. */
    private static <T> T onLane(Lane lane, java.util.function.Supplier<T> step) {
        try {
            return java.util.concurrent.CompletableFuture.supplyAsync(step, lane.thread).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    /** The names of this node's transactional tables, its copies of other nodes' partitions among them. */
    List<String> tableNames() {
        return db.tables().stream().map(TransactionalTable::name).sorted().toList();
    }

    /** The rows of transactional table {@code table} as this node's analytical copy holds them (see {@link NodeCopies#rows}). */
    PartitionPipeline.RowSource copyRows(String table, Schema schema, long snapshot) {
        return copies.rows(table, schema, snapshot);
    }

    private byte[] copyStatus() {
        NodeCopies.Status st = copies.status();
        PayloadWriter w = new PayloadWriter(64 + 64 * st.tables().size()).putLong(st.switches()).putLong(st.applied())
                .putLong(st.rebuilds()).putLong(st.reads()).putLong(st.owedCommits()).putLong(st.deltaKeys())
                .putVarInt(st.tables().size());
        for (org.oooengine.core.htap.Freshness f : st.tables()) {
            w.putString(f.table()).putLong(f.rows()).putLong(f.staleRows()).putLong(Double.doubleToLongBits(f.rate()))
                    .putLong(Double.doubleToLongBits(f.lagSeconds()));
        }
        htap.status().write(w);
        return w.toByteArray();
    }

    /**
     * This node's share of its host's cores: the host's cores over the cluster's nodes on it (4 local
     * nodes on a 2-core machine: half a core each; one node a host: all of them).
     */
    private double hostShare(ClusterSpec spec) {
        String host = spec.nodes().stream().filter(n -> n.id().equals(nodeId)).map(ClusterSpec.NodeSpec::host)
                .findFirst().orElse(null);
        long onHost = Math.max(1, spec.nodes().stream().filter(n -> n.host().equals(host)).count());
        return Runtime.getRuntime().availableProcessors() / (double) onHost;
    }

    /** Runs the HTAP mode the node was last given, if any: a restart does not fall back to the default. */
    private void runSavedHtapMode() {
        try {
            HtapConfig.load(dir).ifPresent(htap::configure);
        } catch (RuntimeException e) { // a mode is no data: the node serves in the default one and says why
            LOG.error("node {}: running in the default HTAP mode: {}", nodeId, e.getMessage());
        }
    }

    /** The mean number of transactions each procedure thread and each lane served since the last call. */
    private synchronized NodeHtap.LaneLoads laneLoads() {
        long now = System.nanoTime();
        double period = Math.max(1, now - lanesSampledAt);
        lanesSampledAt = now;
        return new NodeHtap.LaneLoads(served(procedureThreads, period), served(lanes, period));
    }

    private static double[] served(Lane[] threads, double period) {
        double[] out = new double[threads.length];
        for (int i = 0; i < threads.length; i++) {
            long served = threads[i].servedNanos.get();
            out[i] = (served - threads[i].servedBefore) / period;
            threads[i].servedBefore = served;
        }
        return out;
    }

    private long lanesSampledAt = System.nanoTime();

    private byte[] applied(PayloadReader r) {
        TransactionId id = readId(r);
        int n = r.getCount(1);
        for (int i = 0; i < n; i++) {
            db.applied(id, r.getString());
        }
        return EMPTY;
    }

    /** Where a stored procedure runs: on a procedure thread of this node, reaching this node's rows with its worker. */
    private NodeProcedure.Context procedureContext(Worker worker) {
        DistributedTransaction.LocalNode here = new DistributedTransaction.LocalNode() {
            @Override
            public String id() {
                return nodeId;
            }

            @Override
            public PayloadReader call(byte[] payload) {
                return new PayloadReader(local(payload, worker));
            }

            @Override
            public void whenDurable(Runnable then) {
                worker.whenDurable(then);
            }

            @Override
            public void beforeWaitingOnAnotherNode() {
                worker.flush();
            }

            @Override
            public byte[] get(TransactionId id, String table, byte[] key) {
                return inOpenHere(id, worker, o -> o.tx.get(db.table(table), key));
            }

            @Override
            public boolean write(TransactionId id, String table, TransactionalWrite mode, byte[] key, byte[] row) {
                return inOpenHere(id, worker, o -> applyWrite(o.tx, db.table(table), mode, key, row));
            }

            @Override
            public List<DistributedTransaction.Row> scan(TransactionId id, String table, byte[] from, byte[] to, int limit) {
                return inOpenHere(id, worker, o -> o.tx.scanRange(db.table(table), from, to, Math.max(1, limit)).stream()
                        .map(kv -> new DistributedTransaction.Row(kv.key(), kv.value())).toList());
            }
        };
        List<String> nodes = peers.spec().nodes().stream().map(ClusterSpec.NodeSpec::id).toList();
        return new NodeProcedure.Context() {
            @Override
            public String node() {
                return nodeId;
            }

            @Override
            public List<String> nodes() {
                return nodes;
            }

            @Override
            public DistributedTransaction begin() {
                return new DistributedTransaction(peers, here);
            }

            @Override
            public Peers peers() {
                return peers;
            }

            @Override
            @SuppressWarnings("unchecked")
            public <T extends AutoCloseable> T resource(String name, java.util.function.Function<Path, T> open) {
                return (T) resources.computeIfAbsent(name, n -> open.apply(dir.resolveSibling("procedures").resolve(n)));
            }
        };
    }

    /** As {@link #inOpen}, for a step run in process (typed: no request is encoded); a constraint error as a node's. */
    private <T> T inOpenHere(TransactionId id, Worker worker, java.util.function.Function<Open, T> body) {
        Object[] result = new Object[1];
        try {
            inOpen(id, worker, o -> {
                result[0] = body.apply(o);
                return EMPTY;
            });
        } catch (ConstraintViolation e) {
            throw new RemoteException(nodeId, ErrorCode.CONSTRAINT, e.getMessage());
        }
        @SuppressWarnings("unchecked")
        T t = (T) result[0];
        return t;
    }

    /** A step of a transaction coordinated on this node, run on the caller's thread with its worker. */
    private byte[] local(byte[] payload, Worker worker) {
        PayloadReader r = new PayloadReader(payload);
        TxnOp op = TxnOp.of(r.get());
        if (op == TxnOp.APPLIED) {
            return applied(r);
        }
        try {
            byte[] answer = step(op, readId(r), r, worker, true, Locking.WAIT);
            if (op == TxnOp.COMMIT) {
                worker.flush(); // answered when durable, as a lane answers it
            }
            return answer;
        } catch (ConstraintViolation e) {
            throw new RemoteException(nodeId, ErrorCode.CONSTRAINT, e.getMessage());
        }
    }

    private Lane laneOf(TransactionId id) {
        return lanes[(int) Math.floorMod(id.low() ^ id.high(), (long) lanes.length)];
    }

    static TransactionId readId(PayloadReader r) {
        return new TransactionId(r.getLong(), r.getLong());
    }

    /**
     * One step of transaction {@code id}, run with {@code worker} (its lane's, or its local
     * coordinator's); returns the answer. {@code grouped}: a commit on this node alone, or a
     * decision, joins the worker's open group instead of waiting for its flush (a stored
     * procedure's, whose answer waits for it instead). {@code locking}: how locking the write set
     * meets a row another transaction holds.
     */
    private byte[] step(TxnOp op, TransactionId id, PayloadReader r, Worker worker, boolean grouped, Locking locking) {
        return switch (op) {
            case READ -> inOpen(id, worker, o -> read(o.tx, r));
            case SCAN -> inOpen(id, worker, o -> scan(o.tx, r));
            case WRITE -> inOpen(id, worker, o -> write(o.tx, r));
            case LOCK -> inOpen(id, worker, o -> {
                java.util.OptionalLong ts = lock(worker, o.tx, locking);
                return ts.isEmpty() ? BUSY : new PayloadWriter(8).putLong(ts.getAsLong()).toByteArray();
            });
            case PREPARE -> {
                long ts = r.getLong();
                String decider = r.getString();
                yield lastStep(id, o -> {
                    worker.prepare(o.tx, id, ts, decider);
                    return EMPTY;
                });
            }
            case LOCK_PREPARE -> {
                long floor = r.getLong();
                String decider = r.getString();
                yield lastStep(id, o -> {
                    if (o.stepFailed) {
                        throw new TransactionAbortedException("transaction " + id + ": an earlier step failed on node "
                                + nodeId);
                    }
                    java.util.OptionalLong locked = lock(worker, o.tx, locking);
                    if (locked.isEmpty()) {
                        return BUSY; // still open here: the step runs again
                    }
                    long ts = Math.max(floor, locked.getAsLong());
                    worker.prepare(o.tx, id, ts, decider);
                    return new PayloadWriter(8).putLong(ts).toByteArray();
                });
            }
            case DECIDE -> {
                long ts = r.getLong();
                int n = r.getCount(1);
                List<String> others = new java.util.ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    others.add(r.getString());
                }
                yield lastStep(id, o -> {
                    if (grouped) { // its coordinator tells the others once the worker's group is flushed
                        worker.decideInGroup(o.tx, id, ts, others);
                    } else {
                        worker.decide(o.tx, id, ts, others);
                    }
                    return EMPTY;
                });
            }
            case COMMIT_ONE -> lastStep(id, o -> new PayloadWriter(8)
                    .putLong(grouped ? o.tx.commitInGroup() : o.tx.commit()).toByteArray());
            case COMMIT -> {
                worker.commitPreparedInGroup(id);
                yield EMPTY;
            }
            case ABORT -> {
                abortHere(id, worker);
                yield EMPTY;
            }
            case STATUS -> status(id, worker);
            default -> throw new IllegalStateException(op + " is not a step of a transaction");
        };
    }

    private interface StepBody {
        byte[] run(Open o);
    }

    /** A step of transaction {@code id} that keeps it open, begun here on its first step. */
    private byte[] inOpen(TransactionId id, Worker worker, StepBody body) {
        Open o = open.get(id);
        if (o == null) {
            if (aborted.containsKey(id)) {
                throw new TransactionAbortedException("transaction " + id + " was aborted on node " + nodeId);
            }
            if (open.size() >= options.maxOpen()) {
                throw new RemoteException(nodeId, ErrorCode.TOO_MANY_REQUESTS, "node " + nodeId + " has "
                        + open.size() + " transactions open, the most it takes: try again later");
            }
            o = new Open(worker.begin());
            open.put(id, o);
        }
        o.lastHeard = System.nanoTime();
        synchronized (o) {
            requireOpen(id, o);
            try {
                return body.run(o);
            } catch (RuntimeException e) {
                o.stepFailed = true;
                throw e;
            }
        }
    }

    /**
     * The step that ends transaction {@code id} here (a vote, the decision, a commit on this node
     * alone). It stays in the open ones while it runs, so that a participant in doubt asking
     * meanwhile waits for its outcome; a conflict aborts it. One that answers {@link #BUSY} (its
     * write set not locked yet) leaves it open, to run again.
     */
    private byte[] lastStep(TransactionId id, StepBody body) {
        Open o = open.get(id);
        if (o == null) {
            throw new TransactionAbortedException("transaction " + id + " is not open on node " + nodeId
                    + " (aborted, or the node restarted)");
        }
        synchronized (o) {
            requireOpen(id, o);
            byte[] answer = null;
            try {
                answer = body.run(o);
                return answer;
            } catch (TransactionAbortedException e) {
                aborted.put(id, System.nanoTime());
                throw new TransactionAbortedException("transaction " + id + " conflicted on node " + nodeId + ": "
                        + e.getMessage());
            } finally {
                if (answer != BUSY) { // a step that will run again leaves it open
                    o.finished = true;
                    open.remove(id, o);
                }
            }
        }
    }

    private void requireOpen(TransactionId id, Open o) {
        if (o.finished) {
            throw new TransactionAbortedException("transaction " + id + " was aborted on node " + nodeId);
        }
    }

    /** Aborts transaction {@code id} here, open or prepared, and refuses its later steps. */
    private void abortHere(TransactionId id, Worker worker) {
        aborted.put(id, System.nanoTime());
        Open o = open.get(id);
        if (o != null) {
            synchronized (o) {
                if (!o.finished) {
                    o.finished = true;
                    o.tx.abort();
                }
                open.remove(id, o);
            }
        }
        worker.abortPrepared(id);
    }

    /** {@link TxnOp#STATUS}'s answers. */
    static final byte ABORTED = 0;
    static final byte COMMITTED = 1;
    /** The decision is logged and not yet durable: ask again. */
    static final byte DECIDING = 2;

    /**
     * Asked by a participant in doubt: committed if this node decided so; otherwise it never will
     * (presumed abort) — an open transaction here is aborted so that a late decide fails. A
     * decision being made meanwhile is waited for (the open transaction's monitor), one logged and
     * not yet flushed is answered {@link #DECIDING}.
     */
    private byte[] status(TransactionId id, Worker worker) {
        Open o = open.get(id);
        if (o != null) {
            synchronized (o) {
                if (!o.finished) {
                    LOG.info("node {}: transaction {} asked about by a participant in doubt before it was decided: "
                            + "aborted", nodeId, id);
                    o.finished = true;
                    o.tx.abort();
                    open.remove(id, o);
                }
            }
        }
        if (db.isDeciding(id)) {
            return new byte[] {DECIDING};
        }
        Decision d = db.decision(id);
        if (d != null) {
            return new PayloadWriter(9).put(COMMITTED).putLong(d.commitTimestamp()).toByteArray();
        }
        abortHere(id, worker);
        return new byte[] {ABORTED};
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
        int limit = r.getVarInt();
        List<Transaction.KeyValue> rows = tx.scanRange(t, from, to, Math.max(1, Math.min(limit, SCAN_PAGE_ROWS)));
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
            throw new org.oooengine.core.wire.ProtocolException("unknown write mode " + m);
        }
        TransactionalWrite mode = TransactionalWrite.values()[m];
        int n = r.getCount(1);
        long changed = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = r.getBytes();
            byte[] row = mode == TransactionalWrite.DELETE ? null : r.getBytes();
            changed += applyWrite(tx, t, mode, key, row) ? 1 : 0;
        }
        return new PayloadWriter(8).putLong(changed).toByteArray();
    }

    /** One write as {@code mode} says; whether it changed a row. All but PUT read the key: validated at commit. */
    private static boolean applyWrite(Transaction tx, TransactionalTable t, TransactionalWrite mode, byte[] key, byte[] row) {
        boolean exists = mode != TransactionalWrite.PUT && tx.get(t, key) != null;
        switch (mode) {
            case INSERT -> {
                if (exists) {
                    throw new ConstraintViolation("duplicate primary key in transactional table " + t.name());
                }
                tx.put(t, key, row);
                return true;
            }
            case UPDATE -> {
                if (exists) {
                    tx.put(t, key, row);
                }
                return exists;
            }
            case PUT -> {
                tx.put(t, key, row);
                return true;
            }
            default -> {
                if (exists) {
                    tx.delete(t, key);
                }
                return exists;
            }
        }
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
                    lane.execute(() -> abortHere(id, lane.worker));
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
            byte outcome = answer.get();
            if (outcome == DECIDING) {
                resolving.remove(p.id()); // asked again at the next round
                return;
            }
            boolean committed = outcome == COMMITTED;
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
        htap.close();
        housekeeping.shutdownNow();
        resolver.shutdownNow();
        copyWork.shutdownNow();
        copyCuts.shutdownNow();
        copies.close();
        List<Lane> all = new java.util.ArrayList<>(List.of(lanes));
        all.addAll(List.of(procedureThreads));
        for (Lane lane : all) {
            lane.thread.shutdown();
        }
        for (Lane lane : all) {
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
        for (Map.Entry<String, AutoCloseable> r : resources.entrySet()) {
            try {
                r.getValue().close();
            } catch (Exception e) {
                LOG.warn("node {}: closing {} failed: {}", nodeId, r.getKey(), e.toString());
            }
        }
        db.close();
    }
}
