package org.oooengine.core.cluster;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.htap.AnalyticalCopies;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.htap.Freshness;
import org.oooengine.core.htap.HtalPolicy;
import org.oooengine.core.threads.DaemonThreads;

/**
 * A node's HTAP mode (seed 000): how its analytical copies switch and whether they ship commits,
 * the slots of its core roles, and under HTAL the balancer that, every period, measures the node,
 * asks {@link HtalPolicy} what to do and does it, logging each decision with what caused it.
 */
final class NodeHtap implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeHtap.class);

    /**
     * The mean number of transactions each OLTP thread served (queued or running) over a period:
     * the procedure threads, each serving its partitions (TPC-C's warehouses), and the lanes,
     * which serve transactions by their ids.
     */
    record LaneLoads(double[] procedureThreads, double[] lanes) {
        double total() {
            return java.util.stream.DoubleStream.concat(java.util.Arrays.stream(procedureThreads),
                    java.util.Arrays.stream(lanes)).sum();
        }

        /** The variance of the procedure threads' loads: what a re-split of the partitions evens out. */
        double partitionsVariance() {
            double mean = java.util.Arrays.stream(procedureThreads).average().orElse(0);
            return java.util.Arrays.stream(procedureThreads).map(w -> (w - mean) * (w - mean)).average().orElse(0);
        }
    }

    private final String nodeId;
    private final CoreRoles cores;
    private final NodeCopies copies;
    private final Supplier<LaneLoads> lanes;
    private final Supplier<String> resplit;
    private final double hostShare;
    private final DispatchCpu dispatchCpu;
    private final ScheduledExecutorService balancer;
    /** The mode as given, and as run: with the cores this node shares out. */
    private volatile HtapConfig given = HtapConfig.DEFAULT;
    private volatile HtapConfig config = HtapConfig.DEFAULT;
    private ScheduledFuture<?> balancing;
    private final AtomicLong decisions = new AtomicLong();
    private final AtomicLong moves = new AtomicLong();
    private volatile String lastDecision = "";
    /** The network threads' CPU over the last period, over the dispatch role's share (for the log: no share holds them). */
    private double networkCpu;

    /**
     * @param cores the roles' slots, which the node's OLTP lanes, copy scans and log shipping run in
     * @param lanes what the OLTP threads served since the last call
     * @param resplit re-splits the OLTP partitions over the lanes by their measured load; says what moved
     * @param hostShare the cores the roles share out when a mode gives none: the node's share of its host
     */
    NodeHtap(String nodeId, CoreRoles cores, NodeCopies copies, Supplier<LaneLoads> lanes, Supplier<String> resplit,
             double hostShare) {
        this.nodeId = nodeId;
        this.hostShare = hostShare;
        this.cores = cores;
        this.copies = copies;
        this.lanes = lanes;
        this.resplit = resplit;
        this.dispatchCpu = new DispatchCpu("ooo-net-" + nodeId);
        this.balancer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("ooo-htal-" + nodeId));
        apply(HtapConfig.DEFAULT);
    }

    /** Runs in {@code next} mode from now on. */
    synchronized void configure(HtapConfig next) {
        apply(next);
        LOG.info("node {}: HTAP mode {}, slots {}, cores {}, copies {}", nodeId, next.mode(), next.slots(),
                config.cores(), next.rule());
    }

    private synchronized void apply(HtapConfig given) {
        HtapConfig next = given.boundsRoles() && given.cores() == 0 ? given.sharing(hostShare) : given;
        this.given = given;
        config = next;
        boolean bounded = next.boundsRoles();
        cores.reset(bounded ? next.slots() : CoreRoles.UNBOUNDED_SLOTS);
        cores.shareCores(bounded ? next.cores() : 0);
        copies.reconfigure(next.rule());
        if (balancing != null) {
            balancing.cancel(false);
            balancing = null;
        }
        if (next.mode() == HtapConfig.Mode.HTAL) {
            cores.sample(); // the first period starts now
            long ms = next.period().toMillis();
            balancing = balancer.scheduleWithFixedDelay(this::balance, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /** One round of Algorithms 1 and 2. */
    private void balance() {
        try {
            HtapConfig c = config;
            HtalPolicy.Signals s = measure();
            HtalPolicy policy = new HtalPolicy(c.parameters());
            HtalPolicy.Decision d = policy.decide(s);
            decisions.incrementAndGet();
            String inputs = String.format(java.util.Locale.ROOT,
                    "W_T=%.2f F=%.4f U_C=%.2f (network threads, held to no share) D_T=%.2f U_A=%.2f W_A=%.2f "
                            + "C_LS=%d C_ML=%d slots=%s", s.oltpWaiting(), s.freshness(), networkCpu, s.oltpWaitVariance(),
                    s.olapCpu(), s.olapIoWait(),
                    s.slots().get(Role.LOG_SHIPPING), s.logShippingUseful(), s.slots());
            switch (d.action()) {
                case MOVE -> {
                    if (cores.move(d.from(), d.to())) {
                        moves.incrementAndGet();
                    }
                    LOG.info("node {}: HTAL {}: a slot from {} to {}: {}; {}", nodeId, d.state(), d.from(), d.to(), d.why(),
                            inputs);
                }
                case RESPLIT_OLTP -> {
                    String moved = resplit.get();
                    if (moved.isEmpty()) { // the threads' loads are as even as their partitions allow
                        HtalPolicy.Decision slot = policy.oltpSlot(s, d.why() + "; the re-split moved no partition");
                        if (slot.action() == HtalPolicy.Decision.Action.MOVE && cores.move(slot.from(), slot.to())) {
                            moves.incrementAndGet();
                        }
                        LOG.info("node {}: HTAL {}: {}: {}; {}", nodeId, d.state(), slot.action() == HtalPolicy.Decision.Action.MOVE
                                ? "a slot from " + slot.from() + " to " + slot.to() : "nothing to do", slot.why(), inputs);
                        d = slot;
                    } else {
                        LOG.info("node {}: HTAL {}: OLTP partitions re-split ({}): {}; {}", nodeId, d.state(), moved,
                                d.why(), inputs);
                    }
                }
                case NONE -> LOG.debug("node {}: HTAL {}: nothing to do: {}; {}", nodeId, d.state(), d.why(), inputs);
            }
            lastDecision = d.state() + " " + d.action() + (d.action() == HtalPolicy.Decision.Action.MOVE
                    ? " " + d.from() + "->" + d.to() : "") + ": " + d.why();
        } catch (RuntimeException e) {
            LOG.warn("node {}: the HTAL balancer's round failed", nodeId, e);
        }
    }

    /** What the node did over the period just ended. */
    private HtalPolicy.Signals measure() {
        Map<Role, CoreRoles.Use> use = cores.sample();
        double periodNanos = config.period().toNanos();
        // W_T as the seed counts it: the transactions OLTP is serving per core OLTP has. A slot is a
        // share of the node's cores (1/16 of one with 4 nodes on 2 cores), so per slot α would be
        // reached only with 16 times the seed's clients per core.
        LaneLoads loads = lanes.get();
        double waiting = (loads.total() + use.get(Role.OLTP).meanWaiting()) / cores.allotted(Role.OLTP);
        double variance = loads.partitionsVariance();
        long rows = 0;
        long stale = 0;
        // F of the read copy's trees: queries see the delta too and stay fresh, but until log shipping
        // writes the trees the delta grows, and with it every scan's merge and the next switch's wait
        for (Freshness f : copies.treesFreshness()) { // over all copied rows: a 1-row table is not the node's freshness
            rows += f.rows();
            stale += f.staleRows();
        }
        double freshness = rows == 0 ? 1 : Math.max(0, 1 - (double) stale / rows);
        CoreRoles.Use olap = use.get(Role.OLAP);
        networkCpu = dispatchCpu.sample() / (periodNanos * cores.allotted(Role.DISPATCH));
        // the network threads dispatch, and none of them is paused for a share (pausing one would
        // stall every request it carries): a slot for dispatch would only shrink the other roles'
        return new HtalPolicy.Signals(waiting, freshness, Double.NaN, variance, olap.cpu(), olap.offCpu(),
                copies.tablesWritten(), cores.slots());
    }

    HtapStatus status() {
        return new HtapStatus(given, config.boundsRoles() ? config.cores() : 0, cores.slots(), decisions.get(), moves.get(),
                lastDecision);
    }

    @Override
    public void close() {
        balancer.shutdownNow();
    }

    /** The CPU time the node's network threads (which take requests apart and hand them on) used since the last sample. */
    private static final class DispatchCpu {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private final String prefix;
        private final Map<Long, Long> last = new HashMap<>();

        DispatchCpu(String prefix) {
            this.prefix = prefix;
        }

        long sample() {
            if (!THREADS.isThreadCpuTimeSupported()) {
                return 0;
            }
            long used = 0;
            for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
                if (t == null || !t.getThreadName().startsWith(prefix)) {
                    continue;
                }
                long cpu = THREADS.getThreadCpuTime(t.getThreadId());
                if (cpu >= 0) {
                    Long before = last.put(t.getThreadId(), cpu);
                    used += before == null ? 0 : cpu - before;
                }
            }
            return used;
        }
    }
}
