package org.oooengine.core.cluster;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * What changes a node's tables: bulk loads (staged, then published, restored or forgotten as the
 * coordinator says) and writes in place ({@link InPlaceWrites}). Both run in turn on the node's one
 * load thread: a load's swap of the store never meets a write half done.
 */
final class TableWriteRequests implements RequestFamily, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LOAD_SORT_MEMORY = 64L << 20;
    /** How often the write thread settles what coordinators of writes in place left ({@link InPlaceWrites#tick}). */
    private static final Duration WRITE_TICK = Duration.ofSeconds(2);

    private final NodeContext node;
    private final ServedStore served;
    private LoadSession load;
    /** The manifest of {@link #load}, staged and ready to publish. */
    private StoreManifest prepared;
    /** Writes in place, a statement at a time, on the write thread (the node's load thread). */
    private final InPlaceWrites writes;
    private final AtomicBoolean writeTickQueued = new AtomicBoolean();

    TableWriteRequests(NodeContext node) {
        this.node = node;
        this.served = node.store();
        this.writes = new InPlaceWrites(node.nodeId(), node.dataDir(), served::current, served::closeReplaced,
                () -> load != null, this::askOutcome, work -> {
                    try {
                        node.loads().execute(work);
                    } catch (java.util.concurrent.RejectedExecutionException e) {
                        // the node is closing: what the answer settles is settled when it starts again
                    }
                });
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.BULK_LOAD, OpCode.WRITE_ROWS);
    }

    @Override
    public void handle(Frame request, Responder out) {
        byte[] payload = request.payload();
        switch (request.op()) {
            case BULK_LOAD -> node.loads().execute(() -> node.answer(out,
                    () -> out.reply(loadStep(new PayloadReader(payload)))));
            // in turn with loads: a load's swap never meets a write half done
            case WRITE_ROWS -> node.loads().execute(() -> node.answer(out,
                    () -> out.reply(writeStep(new PayloadReader(payload)))));
            default -> throw new IllegalStateException(request.op() + " is not a table write's");
        }
    }

    /** Whether the write thread has no statement to settle: when trees may be reorganized. */
    boolean idle() {
        return writes.idle();
    }

    /** Settles what coordinators of writes in place left, every {@link #WRITE_TICK} on the write thread. */
    void startTicks() {
        node.heartbeats().scheduleWithFixedDelay(() -> {
            if (writeTickQueued.compareAndSet(false, true)) {
                node.loads().execute(() -> {
                    writeTickQueued.set(false);
                    writes.tick();
                });
            }
        }, WRITE_TICK.toMillis(), WRITE_TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Rolls forward the committed statements of the store in place, before anything reads it. */
    void recover() {
        writes.recover(served.dir(), this::askOutcomeNow);
    }

    /** Asks {@code decider} what became of statement {@code statement} (connecting off the write thread). */
    private CompletableFuture<Byte> askOutcome(String decider, long statement) {
        byte[] payload = new PayloadWriter(10).put(Messages.WRITE_OUTCOME).putLong(statement).put((byte) 0).toByteArray();
        return CompletableFuture.supplyAsync(() -> node.peers().client(decider), node.fragments())
                .thenCompose(c -> c.call(OpCode.WRITE_ROWS, payload))
                .thenApply(f -> f.reader().get());
    }

    /** As above, waiting at most the request timeout: null when it cannot be asked (a node starting). */
    private Byte askOutcomeNow(String decider, long statement) {
        try {
            return askOutcome(decider, statement).get(node.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.info("node {}: cannot ask node {} about statement {}: {}", node.nodeId(), decider,
                    InPlaceWrites.name(statement), e.getCause() == null ? e.toString() : e.getCause().getMessage());
            return null;
        }
    }

    private byte[] loadStep(PayloadReader r) throws Exception {
        byte step = r.get();
        switch (step) {
            case Messages.LOAD_START -> {
                refuseLoadWhileWriting();
                int pageSize = r.getVarInt();
                double fillFactor = Double.longBitsToDouble(r.getLong());
                boolean keepTables = r.hasMore() && (r.get() & Messages.LOAD_KEEP_TABLES) != 0;
                List<String> replacing = keepTables ? Messages.readStrings(r) : List.of();
                Store current = keepTables ? served.current() : null;
                if (pageSize == 0) { // the store's own
                    pageSize = current == null ? LoadSession.DEFAULT_PAGE_SIZE : current.manifest().pageSize();
                    fillFactor = current == null ? LoadSession.DEFAULT_FILL_FACTOR : current.manifest().fillFactor();
                }
                if (load != null) {
                    LOG.warn("node {}: a new load replaces an unfinished one", node.nodeId());
                    load.close();
                }
                prepared = null;
                Directories.deleteRecursively(served.previousDir()); // the last load was published everywhere, or never will be
                load = new LoadSession(node.dataDir().resolve("staging"), pageSize, fillFactor, LOAD_SORT_MEMORY, current,
                        replacing);
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_BEGIN -> {
                TableDefinition def = Messages.readDefinition(r);
                requireLoad().begin(def, r.hasMore() && r.get() == Messages.LOAD_APPEND);
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_ABORT -> {
                if (load != null) {
                    load.close();
                    load = null;
                    prepared = null;
                    Directories.deleteRecursively(node.dataDir().resolve("staging"));
                }
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_DROP -> {
                requireLoad().drop(r.getString());
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_ROWS -> {
                String table = r.getString();
                int n = r.getVarInt();
                for (int i = 0; i < n; i++) {
                    int index = r.getVarInt() - 1;
                    requireLoad().add(table, index, r.getBytes());
                }
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_COPY_BEGIN -> {
                String stored = r.getString();
                requireLoad().beginCopy(stored, JSON.readValue(r.getBytes(), StoredTableFiles.class));
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_COPY_CHUNK -> {
                requireLoad().writeCopied(r.getString(), r.getString(), r.getLong(), r.getBytes());
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_COPY_FINISH -> {
                return new PayloadWriter().putLong(requireLoad().finishCopy(r.getString())).toByteArray();
            }
            case Messages.LOAD_FINISH_TABLE -> {
                return new PayloadWriter().putLong(requireLoad().finishTable(r.getString())).toByteArray();
            }
            case Messages.LOAD_PREPARE -> {
                Map<String, Object> source = JSON.readValue(r.getBytes(), new TypeReference<>() { });
                prepared = requireLoad().commit(source);
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_PUBLISH -> {
                refuseLoadWhileWriting();
                publish();
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_RESTORE -> {
                refuseLoadWhileWriting();
                restorePrevious();
                return NodeContext.EMPTY;
            }
            case Messages.LOAD_FORGET -> {
                Directories.deleteRecursively(served.previousDir());
                return NodeContext.EMPTY;
            }
            default -> throw new ProtocolException("unknown bulk-load step " + step);
        }
    }

    /** A load does not swap a store in or out under a statement prepared here: its journal names that store's pages. */
    private void refuseLoadWhileWriting() {
        String refusal = writes.loadRefusal();
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
    }

    /** A step of an in-place write (a coordinator's statement), on the write thread: see {@link InPlaceWrites}. */
    private byte[] writeStep(PayloadReader r) {
        byte step = r.get();
        long statement = r.getLong();
        switch (step) {
            case Messages.WRITE_APPLY -> {
                String table = r.getString();
                SplitPolicy policy = SplitPolicy.named(r.getString());
                ClusterWriter.RowWrite kind = ClusterWriter.RowWrite.values()[r.get()];
                int n = r.getVarInt();
                List<byte[]> rows = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    rows.add(r.getBytes());
                }
                served.require();
                return new PayloadWriter(8).putLong(writes.apply(statement, table, policy, kind, rows)).toByteArray();
            }
            case Messages.WRITE_PREPARE -> {
                served.require();
                writes.prepare(statement, r.getString());
                return NodeContext.EMPTY;
            }
            case Messages.WRITE_DECIDE -> {
                served.require();
                writes.decide(statement);
                return NodeContext.EMPTY;
            }
            case Messages.WRITE_COMMIT -> {
                served.require();
                writes.commit(statement);
                return NodeContext.EMPTY;
            }
            case Messages.WRITE_ROLLBACK -> {
                writes.rollBack(statement);
                return NodeContext.EMPTY;
            }
            case Messages.WRITE_OUTCOME -> {
                boolean settle = r.hasMore() && (r.get() & Messages.WRITE_SETTLE) != 0;
                return new byte[] {writes.outcome(statement, settle)};
            }
            default -> throw new ProtocolException("unknown write step " + step);
        }
    }

    private LoadSession requireLoad() {
        if (load == null) {
            throw new IllegalStateException("no bulk load in progress on node " + node.nodeId());
        }
        return load;
    }

    /**
     * Serves the prepared (staged) store in place of the current one, which is kept as the previous
     * store until the coordinator says every node published ({@code LOAD_FORGET}) or brings it back
     * because one could not ({@code LOAD_RESTORE}).
     */
    private synchronized void publish() throws Exception {
        if (prepared == null) {
            throw new IllegalStateException("no prepared load to publish on node " + node.nodeId());
        }
        StoreManifest manifest = prepared;
        List<String> changed = load.changedTables();
        load.close();
        load = null;
        prepared = null;
        Store old = served.current();
        Optional<StoreStatistics> previous = old == null ? Optional.empty() : StoreStatistics.read(old.dir());
        Path current = served.dir();
        Path previousDir = served.previousDir();
        Directories.deleteRecursively(previousDir);
        if (Files.exists(current)) {
            Files.move(current, previousDir, StandardCopyOption.ATOMIC_MOVE);
        } else {
            Directories.createPrivate(previousDir); // restoring "no store" serves none
        }
        Files.move(node.dataDir().resolve("staging"), current, StandardCopyOption.ATOMIC_MOVE);
        // The old store's open files outlive their directory's move: requests that began on it finish there.
        served.serve(current, old);
        LOG.info("node {} loaded {} tables in {} s", node.nodeId(), manifest.tables().size(),
                String.format("%.1f", manifest.loadSeconds()));
        StatisticsCollector.collectAfterLoad(served.current(), previous, changed);
    }

    /** Serves the store a publish replaced again (a load another node could not publish); nothing when there is none. */
    private synchronized void restorePrevious() throws Exception {
        Path previous = served.previousDir();
        if (!Files.exists(previous)) {
            return;
        }
        Store published = served.current();
        Path current = served.dir();
        Path retired = node.dataDir().resolve("retired");
        Directories.deleteRecursively(retired);
        if (Files.exists(current)) {
            Files.move(current, retired, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(previous, current, StandardCopyOption.ATOMIC_MOVE);
        Directories.deleteRecursively(retired);
        served.serve(current, published);
        LOG.warn("node {} serves its store as it was before the last load again: another node could not publish it",
                node.nodeId());
    }

    /** Closes the load under way, if any. */
    void closeLoad() {
        if (load != null) {
            load.close();
        }
    }

    /** Closes the writes in place (after the store they write: as the node always closed them). */
    @Override
    public void close() {
        writes.close();
    }
}
