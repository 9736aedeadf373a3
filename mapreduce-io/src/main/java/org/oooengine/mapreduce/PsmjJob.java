package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.store.StoreManifest;

/**
 * The parallel sort-merge join (PSMJ) as a MapReduce job, Hadoop's reduce-side join: mappers scan
 * every partition of both tables, apply the outer range predicate and emit each row's kept columns
 * keyed by join value and tagged with its side; Hadoop partitions, sorts and shuffles them; each
 * reducer merges the two sides of every join value. In order by nature: each task reads its input
 * sequentially and holds one I/O at a time. Output: SequenceFiles of {@link RowWritable} in the
 * spec's output order (read them back with {@link JobOutput}).
 */
public final class PsmjJob {
    private PsmjJob() {
    }

    /** A job joining as {@code spec} says into {@code output}; the cluster must already be set on {@code job}. */
    public static void configure(Job job, JoinSpec spec, int reducers, Path output) {
        Configuration conf = job.getConfiguration();
        OooJoinInputFormat.setJoinSpec(conf, spec);
        try (ClusterSession session = ClusterJobConf.open(job, "job-client")) {
            StoreManifest m = session.manifest(session.spec().nodes().get(0).id());
            for (String t : List.of(spec.outerTable(), spec.innerTable())) {
                List<String> names = new ArrayList<>();
                m.table(t).columns().forEach(c -> names.add(c.name()));
                JoinLayout.setColumns(conf, t, names);
            }
        }
        JoinLayout.of(conf, spec); // fails here, in the client, on a column that does not exist
        job.setJobName("psmj " + spec.outerTable() + " x " + spec.innerTable());
        job.setJarByClass(PsmjJob.class);
        job.setInputFormatClass(StoreScanInputFormat.class);
        StoreScanInputFormat.setTables(job, spec.outerTable(), spec.innerTable());
        job.setMapperClass(SideMapper.class);
        job.setMapOutputKeyClass(JoinKey.class);
        job.setMapOutputValueClass(JoinRecord.class);
        job.setPartitionerClass(JoinKey.ValuePartitioner.class);
        job.setSortComparatorClass(JoinKey.SortComparator.class);
        job.setGroupingComparatorClass(JoinKey.GroupComparator.class);
        job.setReducerClass(MergeReducer.class);
        job.setNumReduceTasks(reducers);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(RowWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, output);
    }

    /** Tags each row with its side; outer rows outside the range are dropped here, before the shuffle. */
    public static final class SideMapper extends Mapper<NullWritable, RowWritable, JoinKey, JoinRecord> {
        private final JoinKey key = new JoinKey();
        private final JoinRecord record = new JoinRecord();
        private JoinLayout layout;
        private int side;
        private Predicate<Object[]> inRange;

        @Override
        protected void setup(Context context) {
            JoinSpec spec = OooJoinInputFormat.spec(context.getConfiguration());
            layout = JoinLayout.of(context.getConfiguration(), spec);
            String table = StoreScanInputFormat.table(context);
            side = table.equals(spec.outerTable()) ? 0 : 1;
            inRange = spec.outerRange().predicate(layout.outerRange);
        }

        @Override
        protected void map(NullWritable k, RowWritable row, Context context) throws IOException, InterruptedException {
            Object[] v = row.values();
            if (side == 0 && !inRange.test(v)) {
                return;
            }
            key.set(v[side == 0 ? layout.outerJoin : layout.innerJoin], side);
            record.set(side, layout.keep(side, v));
            context.write(key, record);
        }
    }

    /** Buffers the outer records of a join value (they sort first), then joins each inner record with them. */
    public static final class MergeReducer extends Reducer<JoinKey, JoinRecord, NullWritable, RowWritable> {
        private final RowWritable out = new RowWritable();
        private JoinLayout layout;

        @Override
        protected void setup(Context context) {
            layout = JoinLayout.of(context.getConfiguration(), OooJoinInputFormat.spec(context.getConfiguration()));
        }

        @Override
        protected void reduce(JoinKey key, Iterable<JoinRecord> records, Context context)
                throws IOException, InterruptedException {
            List<Object[]> outer = new ArrayList<>();
            for (JoinRecord r : records) {
                if (r.side() == 0) {
                    outer.add(r.values()); // values() is a fresh array per record read: safe to keep
                    continue;
                }
                if (outer.isEmpty()) {
                    return; // no outer row for this value: the remaining inner rows match nothing
                }
                for (Object[] o : outer) {
                    out.set(layout.combine(o, r.values()));
                    context.write(NullWritable.get(), out);
                }
            }
        }
    }
}
