package org.oooengine.mapreduce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.JoinSpecCodec;
import org.oooengine.core.cluster.ServingNodes;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.settings.JobKeys;

/**
 * Joined rows as MapReduce input: one split per partition of the outer table, on the host of
 * the node serving it (its owner, else a holder of its copy where the owner is down). Its reader runs that partition's out-of-order index nested-loop join on the node
 * — local and remote probes asynchronous, under one in-flight budget — and hands the joined rows
 * to the mapper as they stream in. Values are rows in the order of the spec's output columns
 * ({@link #columns(Configuration)}). Partitions with no outer row in range get no split.
 */
public final class OooJoinInputFormat extends InputFormat<NullWritable, RowWritable> {
    static final String SPEC = JobKeys.JOIN_SPEC.name();
    static final String MODE = JobKeys.JOIN_MODE.name();
    static final String BUDGET = JobKeys.JOIN_BUDGET.name();
    /** Tasks in flight per node unless the job sets {@code ooo.join.budget}. */
    public static final int DEFAULT_BUDGET = Math.toIntExact(JobKeys.JOIN_BUDGET.defaultValue());

    public static void setJoin(Job job, JoinSpec spec) {
        setJoin(job, spec, ExecutionMode.OOO, DEFAULT_BUDGET);
    }

    public static void setJoin(Job job, JoinSpec spec, ExecutionMode mode, int budget) {
        setJoin(job.getConfiguration(), spec, mode, budget);
    }

    /** The join a job reads, in its configuration (also an old-API {@code JobConf}). */
    public static void setJoin(Configuration conf, JoinSpec spec, ExecutionMode mode, int budget) {
        if (budget < 1) {
            throw new IllegalArgumentException("the in-flight budget must be at least 1, got " + budget);
        }
        setJoinSpec(conf, spec);
        conf.set(MODE, mode.name());
        conf.setInt(BUDGET, budget);
    }

    static void setJoinSpec(Configuration conf, JoinSpec spec) {
        conf.set(SPEC, JoinSpecCodec.toBase64(spec));
    }

    public static JoinSpec spec(Configuration conf) {
        String text = conf.get(SPEC);
        if (text == null) {
            throw new IllegalStateException("the job has no join: call OooJoinInputFormat.setJoin(job, spec)");
        }
        return JoinSpecCodec.fromBase64(text);
    }

    /** Names ({@code table.column}) of the values of each joined row. */
    public static List<String> columns(Configuration conf) {
        return spec(conf).output();
    }

    @Override
    public List<InputSplit> getSplits(JobContext context) {
        JoinSpec spec = spec(context.getConfiguration());
        List<InputSplit> splits = new ArrayList<>();
        try (ClusterSession session = ClusterJobConf.open(context, "job-client")) {
            for (ServingNodes.Served part : session.serving().of(spec.outerTable())) {
                long outerRows = session.countRange(part.node(),
                        session.spec().storedName(spec.outerTable(), part.partition(), part.node()), spec.outerRange());
                if (outerRows > 0) {
                    splits.add(PartitionSplit.of(session, spec.outerTable(), part, outerRows));
                }
            }
        }
        return splits;
    }

    @Override
    public RecordReader<NullWritable, RowWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new JoinReader();
    }

    /** Progress: outer rows whose probes the node has finished, of the split's outer rows. */
    private static final class JoinReader extends ClusterStreamReader {
        private volatile long outerRowsDone;

        @Override
        protected CompletableFuture<?> start(ClusterSession session, PartitionSplit split, TaskAttemptContext context,
                                             Consumer<List<Object[]>> rows) {
            Configuration conf = context.getConfiguration();
            return session.fragment(split.node(context.getTaskAttemptID().getId()), split.partition(), spec(conf),
                    ExecutionMode.valueOf(conf.get(MODE, ExecutionMode.OOO.name())),
                    conf.getInt(BUDGET, DEFAULT_BUDGET), chunk -> {
                        outerRowsDone = chunk.progress();
                        rows.accept(chunk.rows());
                    });
        }

        @Override
        public float getProgress() {
            return split().rows() == 0 ? 1f : Math.min(1f, (float) outerRowsDone / split().rows());
        }
    }
}
