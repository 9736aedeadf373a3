package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.threads.DaemonThreads;
import org.oooengine.core.wire.PayloadReader;

/**
 * The coordinator's failure detector and view of the nodes' load: a heartbeat to every node each
 * {@value #INTERVAL_MILLIS} ms. A node is DOWN when it has not answered one for
 * {@value #DOWN_AFTER_MILLIS} ms (or no connection to it can be made), SLOW when its median round
 * trip over the last {@value #WINDOW} heartbeats is over {@value #SLOWER} times a typical node's
 * and over {@value #SLOW_FLOOR_MICROS} µs (below that, a busy machine's noise), else UP. Where
 * partitions have copies, {@link ServingNodes} serves a slow node's partitions from another holder.
 */
public final class NodeHealth implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeHealth.class);
    static final long INTERVAL_MILLIS = 250;
    static final long DOWN_AFTER_MILLIS = 3_000;
    static final int WINDOW = 16;
    static final double SLOWER = 4.0;
    static final long SLOW_FLOOR_MICROS = 5_000;

    /** What the detector says of a node. */
    public enum State { UP, SLOW, DOWN }

    /**
     * One node as last heard: its state, median heartbeat round trip (-1 before a few answers), how
     * long ago it last answered (-1: never), and the load it reported.
     */
    public record Node(String node, State state, long medianRoundTripMicros, long lastAnswerMillisAgo,
                       int statementsRunning, int statementsWaiting, int pipelinesRunning) {
    }

    private record Load(int statementsRunning, int statementsWaiting, int pipelinesRunning) {
    }

    private final Peers peers;
    private final PeerLatencies roundTrips = new PeerLatencies(WINDOW, WINDOW / 4);
    private final Map<String, Long> lastAnswer = new ConcurrentHashMap<>();
    private final Map<String, Load> loads = new ConcurrentHashMap<>();
    /** The names of the tables each node stored when it last answered. */
    private final Map<String, java.util.Set<String>> stored = new ConcurrentHashMap<>();
    /** The nodes lacking a partition they should hold of a table the others hold. */
    private volatile java.util.Set<String> incomplete = java.util.Set.of();
    /** Per table some node stores, how many nodes keep its partitions ({@link TableCopies}). */
    private volatile Map<String, Integer> copies = Map.of();
    private final Map<String, State> logged = new ConcurrentHashMap<>();
    private final long startedAt = System.currentTimeMillis();
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    private NodeHealth(Peers peers) {
        this.peers = peers;
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("ooo-heartbeat"));
    }

    /** Starts the heartbeats to every node of {@code peers}' cluster. */
    static NodeHealth start(Peers peers) {
        NodeHealth h = new NodeHealth(peers);
        h.timer.scheduleWithFixedDelay(h::beat, 0, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return h;
    }

    /** Every node as last heard, in the cluster's order. */
    public List<Node> nodes() {
        List<Node> all = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            Long at = lastAnswer.get(n.id());
            Load load = loads.getOrDefault(n.id(), new Load(0, 0, 0));
            long median = roundTrips.quantile(n.id(), 0.5);
            all.add(new Node(n.id(), state(n.id()), median < 0 ? -1 : median / 1000, at == null ? -1 : now - at,
                    load.statementsRunning(), load.statementsWaiting(), load.pipelinesRunning()));
        }
        return all;
    }

    /**
     * Waits until every node has answered a heartbeat or at most {@code within}: what a reader of
     * the nodes' states wants right after the heartbeats started.
     */
    public void awaitHeard(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (lastAnswer.size() < peers.spec().nodes().size() && System.nanoTime() < deadline && !closed) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** What the detector says of {@code node} now. */
    public State state(String node) {
        long now = System.currentTimeMillis();
        Long at = lastAnswer.get(node);
        long silentSince = at != null ? at : startedAt;
        if (now - silentSince > DOWN_AFTER_MILLIS) {
            return State.DOWN;
        }
        long median = roundTrips.quantile(node, 0.5);
        long typical = roundTrips.typical(0.5);
        if (median > SLOW_FLOOR_MICROS * 1000 && typical > 0 && median > SLOWER * typical) {
            return State.SLOW;
        }
        return State.UP;
    }

    /**
     * The work {@code node} reported at its last heartbeat: fragments and pipelines it admitted
     * and runs, and those waiting for admission; 0 before it answered one.
     */
    public int queueDepth(String node) {
        Load load = loads.get(node);
        return load == null ? 0 : load.statementsRunning() + load.statementsWaiting();
    }

    /**
     * Whether {@code node} holds its part of every table the nodes keep copies of (in their stores, or
     * transactional), as they last told: a node restarted empty does not until its partitions are
     * copied back onto it ({@link ReplicaRepair}). True of a node not heard yet.
     */
    public boolean complete(String node) {
        return !incomplete.contains(node);
    }

    /**
     * How many nodes keep each partition of {@code table}, as the names the nodes last told show
     * ({@link TableCopies}): the cluster's number unless a load or CREATE TABLE asked for another
     * (or a transactional table's own program writes it alone, as TPC-C's); the cluster's number
     * too for a table no node stores yet.
     */
    public int copies(String table) {
        return copies.getOrDefault(table, peers.spec().replication());
    }

    /**
     * Takes stock of the names the nodes last told: the tables' copies, the nodes lacking some.
     * Answers from different nodes complete on different threads; one at a time, so that the last
     * to run has seen every answer put before it (else a stale count could be written last and,
     * the names changing no more, stay).
     */
    private synchronized void takeStock() {
        Map<String, Integer> counted = Map.copyOf(TableCopies.of(peers.spec(), stored));
        copies = counted;
        incomplete = incompleteNodes(counted);
    }

    /** The nodes lacking a partition they should hold of a table kept with copies. */
    private java.util.Set<String> incompleteNodes(Map<String, Integer> copies) {
        ClusterSpec spec = peers.spec();
        java.util.Set<String> lacking = new java.util.HashSet<>();
        stored.forEach((node, names) -> copies.forEach((table, n) -> {
            for (int p = 0; n > 1 && p < spec.owners(table).size() && !lacking.contains(node); p++) {
                if (spec.holders(table, p, n).contains(node) && !names.contains(spec.storedName(table, p, node))) {
                    lacking.add(node);
                }
            }
        }));
        if (!lacking.equals(incomplete)) {
            LOG.info("nodes lacking partitions they should hold: {}", lacking.isEmpty() ? "none" : lacking);
        }
        return java.util.Set.copyOf(lacking);
    }

    private void beat() {
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            if (closed) {
                return; // the session closed its connections while this round went on
            }
            String node = n.id();
            NodeClient c = peers.connected(node);
            if (c == null) {
                try {
                    c = peers.client(node); // on this timer's thread: a node that does not answer holds up only heartbeats
                } catch (RuntimeException unreachable) {
                    noteState(node);
                    continue;
                }
            }
            long t0 = System.nanoTime();
            c.call(OpCode.HEARTBEAT, new byte[0], Duration.ofMillis(DOWN_AFTER_MILLIS)).whenComplete((f, e) -> {
                if (e == null) {
                    roundTrips.record(node, System.nanoTime() - t0);
                    lastAnswer.put(node, System.currentTimeMillis());
                    PayloadReader r = f.reader();
                    loads.put(node, new Load(r.getVarInt(), r.getVarInt(), r.getVarInt()));
                    if (r.hasMore()) {
                        int count = r.getCount(1);
                        java.util.Set<String> names = new java.util.HashSet<>(count * 2);
                        for (int i = 0; i < count; i++) {
                            names.add(r.getString());
                        }
                        if (!names.equals(stored.put(node, names))) {
                            takeStock();
                        }
                    }
                }
                noteState(node);
            });
        }
    }

    /** Logs a node's change of state, once. */
    private void noteState(String node) {
        State now = state(node);
        State before = logged.put(node, now);
        if (before != null && before != now) {
            if (now == State.UP) {
                LOG.info("node {} is {} again (was {})", node, now, before);
            } else {
                LOG.warn("node {} is {} (was {})", node, now, before);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
    }
}
