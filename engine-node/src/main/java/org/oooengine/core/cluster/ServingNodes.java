package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Which node serves each partition of a table: its owner while the owner is up, not slow and holds
 * all it should (a node restarted empty does not until {@link ReplicaRepair} copies it back), else
 * the first other node holding a replica of it that is ({@link ClusterSpec#holders}); a slow holder
 * (as {@link NodeHealth}'s heartbeats tell) serves only when no holder up is faster, and one whose
 * queue of work is much longer than another holder's gives its partitions to the less loaded
 * ({@link #relieved}). A holder the heartbeats last saw lacking a partition serves only where no
 * other holder answers: their names lag behind a table created a moment ago. A node is down when a
 * connection to it cannot be made; it is tried again {@link #RETRY_AFTER_MILLIS} later, or at once
 * after a statement lost a node ({@link #probeAgain}). Where partitions are not replicated every partition is its
 * owner's, up or not: a request to a node that is down fails naming it, and nothing else could
 * answer for it.
 */
public final class ServingNodes implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ServingNodes.class);
    /** A request's partition when it runs over whatever the node holds as its own: a table not partitioned in its store. */
    public static final int OWN_PARTITION = -1;
    /** How long a node found down is passed over before it is tried again. */
    static final long RETRY_AFTER_MILLIS = 2_000;
    /** How long the first choice of a partition's node waits for every node's first heartbeat. */
    static final java.time.Duration FIRST_HEARTBEATS = java.time.Duration.ofMillis(500);
    /** How many times another holder's queue of work a partition's first holder must have to be passed over... */
    static final double BUSIER = 2.0;
    /** ...plus this many: see {@link #relieved}. */
    static final int QUEUE_MARGIN = 2;

    /** Partition {@code partition} of a table, served by {@code node}. */
    public record Served(int partition, String node) {
    }

    private final Peers peers;
    private final ClusterSpec spec;
    /** When each node found down was last tried, in milliseconds. */
    private final Map<String, Long> downAt = new ConcurrentHashMap<>();

    /**
     * The heartbeats, from the first time they are asked for: where partitions have copies, when a
     * partition's node is first chosen (a session that only loads or checks the cluster sends none).
     */
    private NodeHealth health;
    private boolean closed;

    ServingNodes(Peers peers) {
        this.peers = peers;
        this.spec = peers.spec();
    }

    /** The nodes as the heartbeats tell, which start now if they have not yet; empty once closed. */
    public synchronized java.util.Optional<NodeHealth> health() {
        if (health == null && !closed) {
            health = NodeHealth.start(peers);
            health.awaitHeard(FIRST_HEARTBEATS); // which tables each node holds: a node restarted empty serves none
        }
        return java.util.Optional.ofNullable(health);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (health != null) {
            health.close();
        }
    }

    /**
     * The node serving each partition of {@code table}, in partition order.
     *
     * @throws ClusterException naming the partition and its nodes when none of them is up
     */
    public List<Served> of(String table) {
        return of(table, true);
    }

    /** As above; unless {@code avoidSlow}, a slow holder serves as readily as any other that is up. */
    public List<Served> of(String table, boolean avoidSlow) {
        return of(table, copies(table), avoidSlow);
    }

    /**
     * As {@link #of(String)}, for a table whose catalog records that it keeps {@code copies}: a
     * table created a moment ago is in no heartbeat yet, and the heartbeats would count the
     * cluster's number.
     */
    public List<Served> of(String table, int copies) {
        return of(table, copies, true);
    }

    private List<Served> of(String table, int copies, boolean avoidSlow) {
        List<String> owners = spec.owners(table);
        List<Served> served = new ArrayList<>(owners.size());
        for (int p = 0; p < owners.size(); p++) {
            served.add(new Served(p, servingNode(table, p, spec.holders(table, p, copies), avoidSlow)));
        }
        return served;
    }

    /**
     * How many nodes keep each partition of {@code table}: the cluster's number, or another a load
     * or CREATE TABLE asked for, as the names the nodes' heartbeats list tell ({@link NodeHealth#copies}).
     */
    public int copies(String table) {
        return spec.replication() == 1 ? 1 : health().map(h -> h.copies(table)).orElse(spec.replication());
    }

    /** The nodes holding partition {@code partition} of {@code table}, its owner first: {@link ClusterSpec#holders} of its {@link #copies}. */
    public List<String> holders(String table, int partition) {
        return spec.holders(table, partition, copies(table));
    }

    /**
     * A holder of partition {@code partition} of {@code table} other than {@code tried} that may
     * serve it now (holding all it should, up and answering heartbeats), one not slow first; none
     * where no other holder may. Connects to the nodes it asks of: not on a network thread.
     */
    public java.util.Optional<String> another(String table, int partition, java.util.Collection<String> tried) {
        List<String> others = holders(table, partition).stream().filter(h -> !tried.contains(h) && complete(h)).toList();
        return others.stream().filter(h -> able(h, true)).findFirst()
                .or(() -> others.stream().filter(h -> able(h, false)).findFirst());
    }

    /** The nodes up, in the cluster's order: where work that reads no partition goes (merging groups, shuffled joins). */
    public List<String> liveNodes() {
        List<String> live = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            if (spec.replication() == 1 || up(n.id(), false)) {
                live.add(n.id());
            }
        }
        if (live.isEmpty()) {
            throw new ClusterException("no node of cluster " + spec.name() + " answers");
        }
        return live;
    }

    /** Forgets which nodes were found down: the next request for each node connects to it anew (a statement lost one). */
    public void probeAgain() {
        downAt.clear();
    }

    private String servingNode(String table, int partition, List<String> holders, boolean avoidSlow) {
        if (holders.size() == 1) {
            return holders.get(0);
        }
        List<String> complete = holders.stream().filter(this::complete).toList();
        String chosen = complete.isEmpty() ? null : servingHolder(complete, avoidSlow);
        if (chosen == null) {
            // The heartbeats' names lag: a node whose last answer predates a table created a moment ago
            // looks as if it lacked it. Asked anyway, a node that does lack it answers so, by name.
            List<String> lacking = holders.stream().filter(h -> !complete.contains(h)).toList();
            chosen = lacking.isEmpty() ? null : servingHolder(lacking, avoidSlow);
        }
        if (chosen == null) {
            throw new ClusterException("partition " + partition + " of table " + table + " is held by nodes " + holders
                    + ", none of which answers");
        }
        return chosen;
    }

    /** The first of {@code holders} that may serve now, as {@link #servingNode} prefers them; null when none answers. */
    private String servingHolder(List<String> holders, boolean avoidSlow) {
        for (int i = 0; i < holders.size(); i++) {
            String holder = holders.get(i);
            if (able(holder, avoidSlow)) {
                if (!avoidSlow || queueDepth(holder) <= QUEUE_MARGIN) {
                    return holder; // no other holder asked: one down on a real network may take its connect timeout
                }
                List<String> able = new ArrayList<>(List.of(holder));
                holders.subList(i + 1, holders.size()).stream().filter(h -> able(h, true)).forEach(able::add);
                return relieved(able, this::queueDepth);
            }
        }
        for (String holder : holders) {
            if (up(holder, false)) {
                return holder; // slow or silent, but it takes connections
            }
        }
        // every holder was found down lately: one may be back (a restarted node), so ask them now
        for (String holder : holders) {
            if (up(holder, true)) {
                return holder;
            }
        }
        return null;
    }

    /**
     * The first of {@code able} (the holders that may serve, in order of preference: the owner,
     * whose buffer pool holds the partition, while it may), unless its queue of work is over
     * {@value #BUSIER} times another's plus {@value #QUEUE_MARGIN}: then the holder with the
     * shortest, so that a hot node is relieved. The margin keeps equal loads, and the noise of a
     * quarter second's heartbeats, from moving partitions off their owners.
     */
    static String relieved(List<String> able, java.util.function.ToIntFunction<String> queue) {
        String first = able.get(0);
        int firstQueue = queue.applyAsInt(first);
        String least = first;
        int leastQueue = firstQueue;
        for (String holder : able) {
            int q = queue.applyAsInt(holder);
            if (q < leastQueue) {
                least = holder;
                leastQueue = q;
            }
        }
        return firstQueue > BUSIER * leastQueue + QUEUE_MARGIN ? least : first;
    }

    /** Whether {@code holder} may serve: up, answering heartbeats and, where {@code avoidSlow}, not slow. */
    private boolean able(String holder, boolean avoidSlow) {
        return !(avoidSlow && slow(holder)) && !silent(holder) && up(holder, false);
    }

    /** The work {@code node} reported running and waiting at its last heartbeat; 0 before one. */
    private int queueDepth(String node) {
        return health().map(h -> h.queueDepth(node)).orElse(0);
    }

    /**
     * Whether {@code node} holds all it should, as its heartbeats tell. A node restarted empty does
     * not, and serves nothing until its copies are back: serving a table it has beside one it lacks
     * would split a join of the two that reads both on one node.
     */
    private boolean complete(String node) {
        return health().map(h -> h.complete(node)).orElse(true);
    }

    /**
     * Whether {@code node} has not answered a heartbeat for a while although it may take connections
     * (a stopped process: the kernel completes its handshakes), so that a request to it would hang
     * until its timeout.
     */
    private boolean silent(String node) {
        return health().map(h -> h.state(node) == NodeHealth.State.DOWN).orElse(false);
    }

    private boolean slow(String node) { // (asked only where a partition has several holders)
        return health().map(h -> h.state(node) == NodeHealth.State.SLOW).orElse(false);
    }

    /** Whether {@code node} accepts a connection; unless {@code now}, a node found down lately is not asked again yet. */
    private boolean up(String node, boolean now) {
        Long at = downAt.get(node);
        if (!now && at != null && System.currentTimeMillis() - at < RETRY_AFTER_MILLIS) {
            return false;
        }
        try {
            peers.client(node);
        } catch (RuntimeException unreachable) {
            downAt.put(node, System.currentTimeMillis());
            LOG.warn("node {} is down: {}", node, unreachable.getMessage());
            return false;
        }
        if (downAt.remove(node) != null) {
            LOG.info("node {} is up again", node);
        }
        return true;
    }
}
