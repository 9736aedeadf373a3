package org.oooengine.mapreduce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.oooengine.core.cluster.ServingNodes;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.settings.JobKeys;

/**
 * Sequential scan of store partitions: one split per partition of each configured table, on the
 * host of the node serving it (its owner, else a holder of its copy where the owner is down),
 * whose reader streams the partition's rows in primary-key order.
 * Values are whole rows in the table's column order; {@link #table(TaskAttemptContext)} tells a
 * mapper which table its split belongs to when a job scans several.
 */
public final class StoreScanInputFormat extends InputFormat<NullWritable, RowWritable> {
    static final String TABLES = JobKeys.SCAN_TABLES.name();

    /** Scans every partition of {@code tables}. */
    public static void setTables(Job job, String... tables) {
        setTables(job.getConfiguration(), tables);
    }

    /** The tables a job scans, in its configuration (also an old-API {@code JobConf}). */
    public static void setTables(Configuration conf, String... tables) {
        conf.setStrings(TABLES, tables);
    }

    /** The table of the split a task reads. */
    public static String table(TaskAttemptContext context) {
        return context instanceof org.apache.hadoop.mapreduce.MapContext<?, ?, ?, ?> m
                && m.getInputSplit() instanceof PartitionSplit s ? s.table() : null;
    }

    @Override
    public List<InputSplit> getSplits(JobContext context) {
        Configuration conf = context.getConfiguration();
        String[] tables = conf.getStrings(TABLES);
        if (tables == null || tables.length == 0) {
            throw new IllegalStateException("no tables to scan: call StoreScanInputFormat.setTables(job, ...)");
        }
        List<InputSplit> splits = new ArrayList<>();
        try (ClusterSession session = ClusterJobConf.open(context, "job-client")) {
            Map<String, StoreManifest> manifests = new HashMap<>();
            for (String t : tables) {
                for (ServingNodes.Served part : session.serving().of(t)) {
                    String stored = session.spec().storedName(t, part.partition(), part.node());
                    long rows = manifests.computeIfAbsent(part.node(), session::manifest).table(stored).rows();
                    splits.add(PartitionSplit.of(session, t, part, rows));
                }
            }
        }
        return splits;
    }

    @Override
    public RecordReader<NullWritable, RowWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new ScanReader();
    }

    private static final class ScanReader extends ClusterStreamReader {
        private long rows;

        @Override
        protected CompletableFuture<?> start(ClusterSession session, PartitionSplit split, TaskAttemptContext context,
                                             Consumer<List<Object[]>> chunks) {
            String node = split.node(context.getTaskAttemptID().getId());
            return session.scan(node, split.storedName(session.spec(), node), chunks);
        }

        @Override
        protected void countRow() {
            rows++;
        }

        @Override
        public float getProgress() {
            return split().rows() == 0 ? 1f : Math.min(1f, (float) rows / split().rows());
        }
    }
}
