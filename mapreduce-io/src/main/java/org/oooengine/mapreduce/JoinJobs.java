package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.types.DataType;

/**
 * Joins run as MapReduce jobs, for the benchmark and the command line: PSMJ, and the out-of-order
 * join as a map-only job over {@link OooJoinInputFormat}; and scans, of a table's nodes or of its
 * files. Each waits for its job and reports the wall time from submission to completion,
 * start-up included — what a user of the job pays. Interrupting the thread that waits kills the job.
 */
public final class JoinJobs {
    /** How long a killed job may take to stop before its caller goes on. */
    private static final long KILL_WAIT_NANOS = 10_000_000_000L;

    private JoinJobs() {
    }

    /** A finished join: rows written, wall seconds, where the rows are, and each job it ran, in order. */
    public record Run(long rows, double seconds, Path output, List<JobTime> jobs) {
        public Run {
            jobs = List.copyOf(jobs);
        }
    }

    /** One finished job: its name, the rows it wrote and its wall seconds, start-up included. */
    public record JobTime(String name, long rows, double seconds) {
    }

    /**
     * Hadoop's local job runner with {@code parallelTasks} map and reduce tasks at a time, unless
     * {@code base} already chose a framework (e.g. yarn from the user's Hadoop configuration).
     */
    public static Configuration localRunner(Configuration base, int parallelTasks) {
        // A JobConf reads mapred-site.xml and yarn-site.xml too, where a host's Hadoop configuration
        // on the class path (HADOOP_CONF_DIR, as the installed ooo command adds it) names the framework.
        Configuration conf = new JobConf(base);
        if (conf.get("mapreduce.framework.name") == null) {
            conf.set("mapreduce.framework.name", "local");
        }
        // The client checks for completion every 5 s by default: that would be most of a selective join's time.
        conf.setInt("mapreduce.client.completion.pollinterval", 50);
        conf.setInt("mapreduce.local.map.tasks.maximum", parallelTasks);
        conf.setInt("mapreduce.local.reduce.tasks.maximum", parallelTasks);
        return conf;
    }

    /**
     * PSMJ: one job for two tables, a chain of jobs for more, each reading what the one before
     * wrote; the intermediate directories sit beside {@code output} and are deleted once read.
     */
    public static Run psmj(Configuration conf, ClusterSpec cluster, ClusterSecret secret, JoinSpec spec, int reducers,
                           Path output) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        List<JobTime> jobs = new ArrayList<>();
        long rows = psmjStages(conf, cluster, secret, spec, 1, null, reducers, output, jobs);
        return new Run(rows, (System.nanoTime() - t0) / 1e9, output, jobs);
    }

    /**
     * The first {@code indexJoins} joins of {@code spec} as the out-of-order index join in a
     * map-only job, the rest as PSMJ jobs reading what it wrote: a plan whose selective start is
     * cheapest by index and whose later joins are cheaper by sort-merge.
     */
    public static Run hybrid(Configuration conf, ClusterSpec cluster, ClusterSecret secret, JoinSpec spec,
                             int indexJoins, int budget, int reducers, Path output) throws IOException, InterruptedException {
        if (indexJoins < 1 || indexJoins >= spec.probes().size()) {
            throw new IllegalArgumentException("a hybrid plan needs between 1 and " + (spec.probes().size() - 1)
                    + " index joins before its PSMJ jobs, got " + indexJoins);
        }
        long t0 = System.nanoTime();
        JoinSpec prefix = new JoinSpec(spec.outerTable(), spec.outerAlias(), spec.outerRange(), spec.probes().subList(0, indexJoins),
                JoinLayout.carried(spec, indexJoins + 1));
        Path first = new Path(output.getParent(), output.getName() + ".pnlj");
        long rows;
        List<JobTime> jobs = new ArrayList<>();
        try {
            jobs.addAll(oooJoin(conf, cluster, secret, prefix, ExecutionMode.OOO, budget, first).jobs());
            rows = psmjStages(conf, cluster, secret, spec, indexJoins + 1, first, reducers, output, jobs);
        } finally {
            deleteIntermediate(conf, first);
        }
        return new Run(rows, (System.nanoTime() - t0) / 1e9, output, jobs);
    }

    /**
     * Stages {@code from}..n of the PSMJ chain, each job's time added to {@code jobs}; stage
     * {@code from} reads {@code previous} unless it is the first.
     */
    private static long psmjStages(Configuration conf, ClusterSpec cluster, ClusterSecret secret, JoinSpec spec,
                                   int from, Path previous, int reducers, Path output, List<JobTime> jobs)
            throws IOException, InterruptedException {
        int stages = spec.probes().size();
        long rows = 0;
        Path read = previous;
        try {
            for (int stage = from; stage <= stages; stage++) {
                Path out = stage == stages ? output : new Path(output.getParent(), output.getName() + ".stage-" + stage);
                Job job = Job.getInstance(conf);
                ClusterJobConf.setCluster(job.getConfiguration(), job.getCredentials(), cluster, secret);
                Run stageRun;
                try {
                    PsmjJob.configureStage(job, spec, stage, read, reducers, out); // may ask the nodes
                    stageRun = run(job, out);
                } catch (RuntimeException e) {
                    if (isInterruption(e)) { // e.g. a connection to a node, interrupted: a cancel, not a failure
                        InterruptedException cancelled = new InterruptedException("PSMJ stage " + stage + " interrupted");
                        cancelled.initCause(e);
                        throw cancelled;
                    }
                    throw e;
                }
                jobs.addAll(stageRun.jobs());
                rows = stageRun.rows();
                if (read != previous) {
                    deleteIntermediate(conf, read);
                }
                read = stage == stages ? null : out;
            }
        } finally {
            if (read != previous) {
                deleteIntermediate(conf, read); // a failed stage leaves no intermediate behind
            }
        }
        return rows;
    }

    /**
     * A map-only job reading every partition of {@code table} from its nodes; with an
     * {@code output} it writes each row there, without one it only reads. Calibration times it.
     */
    public static Run scan(Configuration conf, ClusterSpec cluster, ClusterSecret secret, String table, Path output)
            throws IOException, InterruptedException {
        Job job = Job.getInstance(conf, "scan " + table);
        ClusterJobConf.setCluster(job.getConfiguration(), job.getCredentials(), cluster, secret);
        StoreScanInputFormat.setTables(job, table);
        job.setInputFormatClass(StoreScanInputFormat.class);
        return runScan(job, output);
    }

    /**
     * A map-only job reading {@code table} from files rather than nodes — the files of each of
     * {@code sources}, split as {@link TableFileSplit} splits them — writing each row to
     * {@code output}: the columns the files hold, then the source's partition values.
     *
     * @param types the table's stored column types, the partition columns last
     */
    public static Run scanFiles(Configuration conf, String table, List<DataType> types, List<FileSource> sources,
                                Path output) throws IOException, InterruptedException {
        Job job = Job.getInstance(conf, "scan " + table);
        List<String> names = new ArrayList<>();
        for (FileSource source : sources) {
            // each source is a table of its own to the input format: its location, layout and partition values
            String name = table + "#" + names.size();
            int fileColumns = types.size() - source.partitionValues().size();
            Configuration c = job.getConfiguration();
            TableFileSplit.setFiles(c, name, source.location(), source.format());
            TableSchemas.setTypes(c, name, types.subList(0, fileColumns));
            if (source.format() == FileFormat.TEXT) {
                HiveText.setLayout(c, name, source.fieldDelimiter(), source.nullText());
            }
            PartitionValues.set(c, name, types.subList(fileColumns, types.size()), source.partitionValues());
            names.add(name);
        }
        TableFileInputFormat.setTables(job.getConfiguration(), names);
        job.setInputFormatClass(TableFileInputFormat.class);
        return runScan(job, output);
    }

    /** Runs a scan job, its input set: rows pass through unchanged, into {@code output} if there is one. */
    private static Run runScan(Job job, Path output) throws IOException, InterruptedException {
        job.setJarByClass(JoinJobs.class);
        job.setMapperClass(Mapper.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(RowWritable.class);
        if (output == null) {
            job.setOutputFormatClass(NullOutputFormat.class);
        } else {
            job.setOutputFormatClass(SequenceFileOutputFormat.class);
            FileOutputFormat.setOutputPath(job, output);
        }
        return run(job, output);
    }

    private static void deleteIntermediate(Configuration conf, Path dir) throws IOException {
        if (dir != null) {
            dir.getFileSystem(conf).delete(dir, true);
        }
    }

    public static Run oooJoin(Configuration conf, ClusterSpec cluster, ClusterSecret secret, JoinSpec spec,
                              ExecutionMode mode, int budget, Path output) throws IOException, InterruptedException {
        Job job = Job.getInstance(conf, "ooo join " + spec.outerTable() + " x " + spec.innerTable());
        job.setJarByClass(JoinJobs.class);
        ClusterJobConf.setCluster(job.getConfiguration(), job.getCredentials(), cluster, secret);
        OooJoinInputFormat.setJoin(job, spec, mode, budget);
        job.setInputFormatClass(OooJoinInputFormat.class);
        job.setMapperClass(Mapper.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(RowWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, output);
        return run(job, output);
    }

    /** Wall seconds of a job that reads and writes nothing: the fixed cost of any job on this framework. */
    public static double startupSeconds(Configuration conf) throws IOException, InterruptedException {
        Job job = Job.getInstance(conf, "empty job");
        job.setJarByClass(JoinJobs.class);
        job.setInputFormatClass(NoInput.class);
        job.setMapperClass(Mapper.class);
        job.setNumReduceTasks(0);
        job.setOutputFormatClass(NullOutputFormat.class);
        long t0 = System.nanoTime();
        waitFor(job);
        return (System.nanoTime() - t0) / 1e9;
    }

    private static Run run(Job job, Path output) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        waitFor(job);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long rows = job.getCounters().findCounter(org.apache.hadoop.mapreduce.TaskCounter.MAP_OUTPUT_RECORDS).getValue();
        if (job.getNumReduceTasks() > 0) {
            rows = job.getCounters().findCounter(org.apache.hadoop.mapreduce.TaskCounter.REDUCE_OUTPUT_RECORDS).getValue();
        }
        return new Run(rows, seconds, output, List.of(new JobTime(job.getJobName(), rows, seconds)));
    }

    /**
     * Submits {@code job} and waits for it. Interrupting the waiting thread kills the job: whoever
     * waits has given up on it, and it should not run on unobserved. A failed job's exception
     * names the job and, where Hadoop or the engine's tasks tell it, the cause.
     */
    private static void waitFor(Job job) throws IOException, InterruptedException {
        try {
            job.submit();
        } catch (ClassNotFoundException e) {
            throw new IOException("job '" + job.getJobName() + "' could not load a class: " + e.getMessage(), e);
        } catch (IOException e) {
            throwIfCancelled(job, e);
            throw new IOException("job '" + job.getJobName() + "' could not be submitted: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throwIfCancelled(job, e); // e.g. the input format's connection to a node, interrupted
            throw e;
        }
        int pollMillis = Job.getCompletionPollInterval(job.getConfiguration());
        try {
            while (!job.isComplete()) {
                Thread.sleep(pollMillis);
            }
        } catch (InterruptedException e) {
            kill(job, pollMillis);
            throw e;
        } catch (IOException | RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || isInterruption(e)) {
                kill(job, pollMillis); // the interrupt landed inside Hadoop's status call
                throw cancelled(job, "while running", e);
            }
            throw e;
        }
        if (!job.isSuccessful()) {
            String state = job.getJobState().toString().toLowerCase(Locale.ROOT);
            String cause = TaskFailures.take(job);
            throw new IOException("job '" + job.getJobName() + "' (" + job.getJobID() + ") " + state
                    + (cause == null ? "; the cause is in the log of the job's tasks" : ": " + cause));
        }
        TaskFailures.forget(job);
    }

    /** The caller gave up while {@code job} was being submitted: that is a cancel, not a failure. */
    private static void throwIfCancelled(Job job, Exception e) throws InterruptedException {
        if (Thread.currentThread().isInterrupted() || isInterruption(e)) {
            throw cancelled(job, "while being submitted", e);
        }
    }

    private static InterruptedException cancelled(Job job, String when, Exception cause) {
        InterruptedException cancelled = new InterruptedException("job '" + job.getJobName() + "' interrupted " + when);
        cancelled.initCause(cause);
        return cancelled;
    }

    /**
     * Whether {@code e} reports an interrupted wait. Hadoop's shell commands clear the thread's
     * interrupt flag and its local file system flattens their {@link java.io.InterruptedIOException}
     * into the message of a cause-less runtime exception, so the text is all that is left of it.
     */
    static boolean isInterruption(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
                    || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && (message.contains(java.io.InterruptedIOException.class.getName())
                    || message.contains(InterruptedException.class.getName()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Kills a job and gives it a moment to stop, so its tasks no longer write into the output
     * directory its caller is about to delete.
     */
    private static void kill(Job job, int pollMillis) throws IOException {
        job.killJob();
        long deadline = System.nanoTime() + KILL_WAIT_NANOS;
        try {
            while (!job.isComplete() && System.nanoTime() < deadline) {
                Thread.sleep(pollMillis);
            }
        } catch (InterruptedException again) {
            Thread.currentThread().interrupt();
        } finally {
            TaskFailures.forget(job);
        }
    }

    /** An input with no splits, for {@link #startupSeconds}. */
    public static final class NoInput extends InputFormat<NullWritable, NullWritable> {
        @Override
        public List<InputSplit> getSplits(JobContext context) {
            return List.of();
        }

        @Override
        public RecordReader<NullWritable, NullWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
            throw new UnsupportedOperationException("an empty input has no splits to read");
        }
    }
}
