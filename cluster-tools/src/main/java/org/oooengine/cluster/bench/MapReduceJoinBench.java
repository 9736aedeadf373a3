package org.oooengine.cluster.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.optimizer.plan.Plan;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.mapreduce.JobOutput;
import org.oooengine.mapreduce.JoinJobs;

/**
 * The MapReduce modes of a cluster benchmark: PSMJ and the ooo join as a map-only job, on
 * Hadoop's local job runner (one map and one reduce slot per node) unless the Hadoop configuration
 * on the class path names another framework. A run's seconds go from job submission to
 * completion; the rows are then read back from the job's output and checked like any mode's.
 */
final class MapReduceJoinBench implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(MapReduceJoinBench.class);

    private final ClusterSession session;
    private final ClusterSecret secret;
    private final BenchSettings settings;
    private final Double scaleFactor;
    private final Configuration conf;
    private java.nio.file.Path workDir;
    private Double startupSeconds;

    MapReduceJoinBench(ClusterSession session, ClusterSecret secret, BenchSettings settings, Double scaleFactor) {
        this.session = session;
        this.secret = secret;
        this.settings = settings;
        this.scaleFactor = scaleFactor;
        this.conf = JoinJobs.localRunner(new Configuration(), session.spec().nodes().size());
    }

    /** A MapReduce mode, or a plan with PSMJ jobs (all of them, or after index joins in a map-only job), warmed up. */
    JoinRunner.Measurement prepare(JoinQueries.Query query, JoinSpec spec, Plan plan, JoinMode mode) {
        try {
            if (startupSeconds == null) {
                workDir = Files.createTempDirectory("ooo-bench-mr");
                JoinJobs.startupSeconds(conf); // the first job also loads Hadoop's classes
                startupSeconds = JoinJobs.startupSeconds(conf);
                LOG.info("an empty MapReduce job takes {} s", String.format("%.2f", startupSeconds));
            }
            LOG.debug("warm-up run of {} {} {}", query.name(), query.selectivity(), mode);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        run(query, spec, plan, mode, 0);
        return new JoinRunner.Measurement(false, r -> {
            if (settings.cold()) {
                session.dropCaches();
            }
            return run(query, spec, plan, mode, r);
        });
    }

    private JoinResult run(JoinQueries.Query query, JoinSpec spec, Plan plan, JoinMode mode, int run) {
        try {
            return runJobs(query, spec, plan, mode, run);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private JoinResult runJobs(JoinQueries.Query query, JoinSpec spec, Plan plan, JoinMode mode, int run)
            throws IOException, InterruptedException {
        Path out = new Path(workDir.resolve(mode + "-" + System.nanoTime()).toUri());
        int nodes = session.spec().nodes().size();
        JoinJobs.Run r;
        if (plan != null && plan.indexJoins() > 0) {
            r = JoinJobs.hybrid(conf, session.spec(), secret, spec, plan.indexJoins(), settings.inflight(), nodes, out);
        } else if (mode == JoinMode.OOO_MR) {
            r = JoinJobs.oooJoin(conf, session.spec(), secret, spec, ExecutionMode.OOO, settings.inflight(), out);
        } else {
            r = JoinJobs.psmj(conf, session.spec(), secret, spec, nodes, out);
        }
        CountingSink sink = new CountingSink();
        JobOutput.forEachRow(conf, out, sink::accept);
        out.getFileSystem(conf).delete(out, true);
        if (sink.rows() != r.rows()) {
            throw new IllegalStateException(mode + " job counted " + r.rows() + " rows but wrote " + sink.rows());
        }
        return new JoinResult(query.name(), mode, scaleFactor, query.selectivity(), query.actualSelectivity(),
                query.outerRows(), sink.rows(), sink.checksum(), r.seconds(), 0, 0, 0, mode.budget(settings.inflight()),
                0, 0, 0, 0, 0, settings.cold(), -1, run, nodes, null, null, null, startupSeconds, null, null,
                r.jobs().stream().map(j -> new JoinResult.JobRun(j.name(), j.rows(), j.seconds(), null)).toList());
    }

    @Override
    public void close() {
        if (workDir != null) {
            Directories.deleteRecursively(workDir);
        }
    }
}
