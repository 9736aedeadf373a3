package org.oooengine.cluster.bench;

import java.nio.file.Path;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.history.JoinRun;
import org.oooengine.optimizer.history.JoinRunHistory;
import org.oooengine.optimizer.plan.Plan;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.FragmentStats;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.tpch.JoinQueries;

/**
 * Join measurements on a running cluster: the coordinator starts a fragment on every node and
 * gathers the rows. The nodes' own settings (direct I/O, buffer pool) were fixed when the cluster
 * started; {@code cold} empties every node's buffer pool before each timed run.
 */
public final class ClusterJoinBench implements JoinRunner {
    private static final Logger LOG = LogManager.getLogger(ClusterJoinBench.class);

    private final ClusterSession session;
    private final BenchSettings settings;
    private final Double scaleFactor;
    private final MapReduceJoinBench jobs;
    private final Path clusterDir;
    private final JoinRunHistory history;
    private QueryPlanner planner;
    /** Whether the warning that the cluster is not calibrated was given (once is enough) or is not wanted. */
    private boolean uncalibratedSaid;

    public ClusterJoinBench(Path clusterDir, BenchSettings settings) {
        this.clusterDir = clusterDir;
        this.history = new JoinRunHistory(clusterDir);
        this.session = ClusterSession.open(clusterDir, "coordinator", NodeDaemon.DEFAULT_TIMEOUT);
        this.settings = settings;
        Object sf = session.wholeManifest().source().get("scaleFactor");
        this.scaleFactor = sf instanceof Number n ? n.doubleValue() : null;
        this.jobs = new MapReduceJoinBench(session, ClusterSpec.readSecret(clusterDir), settings, scaleFactor);
    }

    /**
     * Runs forced modes on a cluster that is not calibrated without warning of it: the caller
     * compares the modes as written and says so itself.
     */
    public ClusterJoinBench uncalibratedOnPurpose() {
        uncalibratedSaid = true;
        return this;
    }

    @Override
    public BenchSettings settings() {
        return settings;
    }

    @Override
    public Double scaleFactor() {
        return scaleFactor;
    }

    @Override
    public JoinQueries.Query query(String name, double selectivity) {
        return session.query(JoinQueries.shape(name), selectivity);
    }

    @Override
    public Measurement prepare(JoinQueries.Query query, JoinMode mode) {
        Plan plan = plan(query, mode);
        if (plan == null) {
            return mode.mapReduce() ? jobs.prepare(query, query.spec(), null, mode)
                    : prepareDaemons(query, query.spec(), executionMode(mode), mode);
        }
        Measurement m = plan.allIndexJoins()
                ? prepareDaemons(query, plan.spec(), plan.budget() == 1 ? ExecutionMode.INORDER : ExecutionMode.OOO, mode)
                : jobs.prepare(query, plan.spec(), plan, mode);
        return new Measurement(m.repeatsShortRuns(), run -> recorded(plan, m.timedRun().apply(run).withPlan(plan)));
    }

    /** {@code r}, a timed run of {@code plan}, kept in the cluster's history for {@code ooo calibrate --from-history}. */
    private JoinResult recorded(Plan plan, JoinResult r) {
        JoinRun run = JoinRun.of(plan, planner.calibration(), r.query(), r.selectivity(), r.cold(), r.rows(), r.seconds(),
                r.jobSeconds());
        if (run != null) {
            history.append(run);
        }
        return r;
    }

    /**
     * The optimizer's plan for a mode it plans (auto, and ooo, inorder and psmj forced), or null
     * for the others; forced modes run unplanned, in the query's own join order, on a cluster
     * that has not been calibrated.
     */
    public Plan plan(JoinQueries.Query query, JoinMode mode) {
        if (QueryPlanner.methods(mode).isEmpty()) {
            return null;
        }
        if (planner == null) {
            if (mode != JoinMode.AUTO && Calibration.read(clusterDir).isEmpty()) {
                if (!uncalibratedSaid) {
                    LOG.warn("cluster {} is not calibrated: {} and the other forced modes run in the query's join order "
                            + "without an estimate (run 'ooo calibrate --cluster {}')", clusterDir, mode, clusterDir);
                    uncalibratedSaid = true;
                }
                return null;
            }
            planner = QueryPlanner.of(clusterDir, session, settings.inflight());
        }
        Plan plan = planner.plan(query, mode);
        LOG.info("{} {} {}: plan {} estimated {} s", query.name(), query.selectivity(), mode, plan.chosen(),
                String.format("%.3f", plan.estimatedSeconds()));
        return plan;
    }

    private Measurement prepareDaemons(JoinQueries.Query query, JoinSpec spec, ExecutionMode m, JoinMode mode) {
        LOG.debug("warm-up run of {} {} {}", query.name(), query.selectivity(), mode);
        session.join(spec, m, settings.inflight(), new CountingSink());
        return new Measurement(true, run -> timedDaemonRun(query, spec, m, mode, run));
    }

    private JoinResult timedDaemonRun(JoinQueries.Query query, JoinSpec spec, ExecutionMode m, JoinMode mode, int run) {
        if (settings.cold()) {
            session.dropCaches();
        }
        CountingSink sink = new CountingSink();
        ClusterSession.JoinRun r = session.join(spec, m, settings.inflight(), sink);
        List<FragmentStats> f = r.fragments();
        long pageReads = r.pageReads();
        return new JoinResult(query.name(), mode, scaleFactor, query.selectivity(),
                query.actualSelectivity(), query.outerRows(), sink.rows(), sink.checksum(), r.seconds(), pageReads,
                f.stream().mapToLong(FragmentStats::bytesRead).sum(), r.seconds() > 0 ? pageReads / r.seconds() : 0,
                m == ExecutionMode.INORDER ? Integer.valueOf(1) : mode.budget(settings.inflight()),
                f.stream().mapToInt(FragmentStats::maxIoInflight).max().orElse(0),
                f.stream().mapToInt(FragmentStats::maxTasksInflight).max().orElse(0),
                f.stream().mapToLong(FragmentStats::tasks).sum(), 0, 0, settings.cold(), -1, run,
                f.size(), f.stream().mapToLong(FragmentStats::remoteRequests).sum(),
                f.stream().mapToLong(FragmentStats::requestFrames).sum(), f, null, null, null, null);
    }

    private static ExecutionMode executionMode(JoinMode mode) {
        return switch (mode) {
            case OOO -> ExecutionMode.OOO;
            case OOO_LOCAL -> ExecutionMode.OOO_LOCAL;
            case INORDER -> ExecutionMode.INORDER;
            case INORDER_SYNC, HASH, PSMJ, OOO_MR, AUTO -> throw new IllegalArgumentException("mode " + mode
                    + " runs on a single-node store only; on a cluster use ooo, ooo-local or inorder");
        };
    }

    @Override
    public void close() {
        jobs.close();
        session.close();
    }
}
