package org.oooengine.hive.engine;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.mapreduce.JobOutput;
import org.oooengine.mapreduce.JoinJobs;

/**
 * A statement's MapReduce jobs: configured from the session's Hadoop settings, run step by step,
 * each step's output read back as the engine's stored values.
 *
 * <p>A step's jobs run on a thread of their own while the statement's thread watches for
 * cancellation: interrupting the job thread kills the running job ({@link JoinJobs}). Each step
 * writes into a fresh directory under {@code hadoop.tmp.dir} on the jobs' file system, deleted
 * once read — also when the step fails, and when it is cancelled (then once more a few seconds
 * later).
 */
final class MapReduceJobs {
    private static final Logger LOG = LogManager.getLogger(MapReduceJobs.class);
    private static final long CANCEL_POLL_MILLIS = 50;
    /** A killed job gets this long to stop (see JoinJobs) before its statement gives up waiting. */
    private static final long KILL_WAIT_MILLIS = 15_000;
    private static final int ROWS_PER_CANCEL_CHECK = 4096;
    private static final long LATE_CLEANUP_SECONDS = 5;
    private static final ScheduledExecutorService LATE_CLEANUP = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mapreduce-late-cleanup");
        t.setDaemon(true);
        return t;
    });

    /** One step's jobs: they leave their final output in {@code output}, a directory that does not exist yet. */
    interface Step {
        void run(Configuration conf, ClusterSpec cluster, ClusterSecret secret, Path output)
                throws IOException, InterruptedException;
    }

    private final Configuration conf;
    private final ClusterSpec cluster;
    private final ClusterSecret secret;

    private MapReduceJobs(Configuration conf, ClusterSpec cluster, ClusterSecret secret) {
        this.conf = conf;
        this.cluster = cluster;
        this.secret = secret;
    }

    /**
     * Jobs on Hadoop's local job runner, as many tasks at a time as the cluster has nodes, unless
     * the coordinator's Hadoop settings choose otherwise (a framework, a file system, task limits,
     * ...), with the few a session may change on top.
     */
    static MapReduceJobs forSession(ClusterSpec cluster, ClusterSecret secret, HadoopSettings hadoop,
                                    Map<String, String> session) {
        Configuration conf = hadoop.apply(JoinJobs.localRunner(new Configuration(), cluster.nodes().size()), session);
        return new MapReduceJobs(conf, cluster, secret);
    }

    /** Reduce tasks per sort-merge job: one per node. */
    int reducers() {
        return cluster.nodes().size();
    }

    /** Runs {@code step}, then hands each row of its output to {@code rows}; {@code name} says what it is in errors. */
    void run(String name, Cancellation cancel, Step step, Consumer<Object[]> rows) {
        cancel.check();
        Path dir = new Path(conf.get("hadoop.tmp.dir"), "ooo-sql/" + UUID.randomUUID());
        Path output = new Path(dir, "out"); // a PSMJ chain writes its intermediate stages beside it
        try {
            awaitJobs(name, cancel, () -> {
                step.run(conf, cluster, secret, output);
                return null;
            });
            long[] read = {0};
            JobOutput.forEachRow(conf, output, row -> {
                if (++read[0] % ROWS_PER_CANCEL_CHECK == 0) {
                    cancel.check();
                }
                rows.accept(row);
            });
        } catch (IOException e) {
            throw new SqlException(SqlException.GENERAL, "MapReduce " + name + ": reading the job output failed: "
                    + e.getMessage(), e);
        } finally {
            delete(dir);
            if (cancel.isCancelled()) {
                // A killed job's local tasks may still be closing, and one that opens its output
                // file late creates the directory again.
                LATE_CLEANUP.schedule(() -> delete(dir), LATE_CLEANUP_SECONDS, TimeUnit.SECONDS);
            }
        }
        cancel.check();
    }

    private static void awaitJobs(String name, Cancellation cancel, Callable<Void> jobs) {
        FutureTask<Void> task = new FutureTask<>(jobs);
        Thread client = new Thread(task, "mapreduce " + name);
        client.setDaemon(true);
        client.start();
        try {
            while (true) {
                try {
                    task.get(CANCEL_POLL_MILLIS, TimeUnit.MILLISECONDS);
                    return;
                } catch (TimeoutException stillRunning) {
                    if (cancel.isCancelled()) {
                        stop(client);
                        cancel.check();
                    }
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new SqlException(Faults.state(cause), "MapReduce " + name + " failed: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            stop(client);
            Thread.currentThread().interrupt();
            throw new SqlException(SqlException.CANCELLED, "the statement was interrupted", e);
        }
    }

    /** Interrupts the job thread, which kills its job, and waits a bounded time for it to finish. */
    private static void stop(Thread client) {
        client.interrupt();
        try {
            client.join(KILL_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void delete(Path dir) {
        try {
            dir.getFileSystem(conf).delete(dir, true);
        } catch (IOException e) {
            LOG.warn("could not delete the job directory {}: {}", dir, e.toString());
        }
    }
}
