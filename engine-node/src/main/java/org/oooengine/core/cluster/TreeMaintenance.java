package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.Reorganizer;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.store.TreeReport;

/**
 * A node's deterioration monitor at work: every {@code interval} it checks the trees of the tables
 * written in place since its last look ({@link Reorganizer#check}, which logs what deteriorated),
 * then reorganizes the deteriorated key ranges a budgeted step at a time with a pause between steps,
 * so that queries and writes go on meanwhile. Checks and steps run on the node's write thread,
 * only between statements: a step flushes the tree, which must not publish a statement's writes
 * before it commits.
 */
final class TreeMaintenance {
    private static final Logger LOG = LogManager.getLogger(TreeMaintenance.class);

    /**
     * @param interval      between checks
     * @param leavesPerStep the most leaves one step compacts
     * @param pause         between steps
     */
    record Options(Duration interval, int leavesPerStep, Duration pause) {
        static Options defaults() {
            return new Options(Duration.ofSeconds(60), 64, Duration.ofMillis(20));
        }
    }

    private final String nodeId;
    private final Supplier<Store> store;
    private final Executor writeThread;
    private final ScheduledExecutorService timer;
    private final BooleanSupplier betweenStatements;
    private final Options options;
    /** Per table, the writes it had at its last check: one not written since is not checked again. */
    private final Map<String, Long> checkedAt = new HashMap<>();
    /** Reorganizations to do, by tree (one per tree), in the order found. */
    private final java.util.LinkedHashMap<String, Reorganizer> queued = new java.util.LinkedHashMap<>();
    private Store queuedFor;
    /** Whether a chain of steps is under way (a step schedules the next). */
    private boolean stepping;

    TreeMaintenance(String nodeId, Supplier<Store> store, Executor writeThread, ScheduledExecutorService timer,
                    BooleanSupplier betweenStatements, Options options) {
        this.nodeId = nodeId;
        this.store = store;
        this.writeThread = writeThread;
        this.timer = timer;
        this.betweenStatements = betweenStatements;
        this.options = options;
    }

    void start() {
        long every = options.interval().toMillis();
        timer.scheduleWithFixedDelay(() -> writeThread.execute(this::check), every, every, TimeUnit.MILLISECONDS);
    }

    /** On the write thread: checks the trees of the tables written since their last check, and starts the steps. */
    void check() {
        Store st = store.get();
        if (st == null || !betweenStatements.getAsBoolean()) {
            return; // the next check comes soon enough
        }
        if (st != queuedFor) { // a load swapped the store in: its trees are fresh
            queued.clear();
            checkedAt.clear();
            queuedFor = st;
        }
        for (Table t : st.tables().values()) {
            if (t.writes() == checkedAt.getOrDefault(t.name(), 0L)) {
                continue;
            }
            checkedAt.put(t.name(), t.writes());
            TableWriter w = st.openWriter(t.name()).orElse(null);
            if (w == null) {
                continue;
            }
            for (Map.Entry<String, BTreeWriter> tree : w.trees().entrySet()) {
                String name = "node " + nodeId + " " + t.name() + "." + tree.getKey();
                if (queued.containsKey(name)) {
                    continue; // still at it: its next check comes when it is done
                }
                Reorganizer r = new Reorganizer(name, tree.getValue(), TreeReport.DETERIORATED, SplitPolicy.RUN_FILL,
                        options.leavesPerStep());
                r.check(TreeReport.RANGES);
                if (r.pending()) {
                    queued.put(name, r);
                }
            }
        }
        if (!queued.isEmpty() && !stepping) {
            stepping = true;
            step();
        }
    }

    /** On the write thread: one step of the first queued reorganization, the next after a pause. */
    private void step() {
        Store st = store.get();
        if (st != queuedFor || queued.isEmpty()) {
            queued.clear();
            stepping = false;
            return;
        }
        Map.Entry<String, Reorganizer> first = queued.entrySet().iterator().next();
        if (betweenStatements.getAsBoolean()) {
            try {
                if (!first.getValue().step() || !first.getValue().pending()) {
                    queued.remove(first.getKey());
                }
            } catch (RuntimeException e) { // the next check starts over; queries go on reading the tree as it is
                LOG.warn("node {}: a reorganization step failed: {}", nodeId, e.toString());
                queued.clear();
                checkedAt.clear();
                stepping = false;
                return;
            }
        }
        if (queued.isEmpty()) {
            stepping = false;
        } else {
            timer.schedule(() -> writeThread.execute(this::step), options.pause().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Whether reorganizations are queued (for tests). */
    boolean busy() {
        return !queued.isEmpty();
    }
}
