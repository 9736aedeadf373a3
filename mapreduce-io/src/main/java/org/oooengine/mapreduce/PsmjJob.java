package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileRecordReader;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.settings.JobKeys;

/**
 * The parallel sort-merge join (PSMJ) as MapReduce jobs, Hadoop's reduce-side join: mappers scan
 * every partition of both inputs, apply the outer range predicate and emit each row's kept columns
 * keyed by join value and tagged with its side; Hadoop partitions, sorts and shuffles them; each
 * reducer merges the two sides of every join value. A join of n tables is a chain of n - 1 such
 * jobs, each joining what the previous one wrote with the next table (see {@link JoinLayout}).
 * In order by nature: each task reads its input sequentially and holds one I/O at a time.
 * Output: SequenceFiles of {@link RowWritable} (read them back with {@link JobOutput}).
 */
public final class PsmjJob {
    private static final String STAGE_TABLES = JobKeys.PSMJ_STAGE_TABLES.name();

    private PsmjJob() {
    }

    /** A job for a two-table join into {@code output}; the cluster must already be set on {@code job}. */
    public static void configure(Job job, JoinSpec spec, int reducers, Path output) throws IOException {
        spec.onlyProbe("one PSMJ job");
        configureStage(job, spec, 1, null, reducers, output);
    }

    /**
     * Stage {@code stage} (1-based) of the chain for {@code spec}: stage 1 reads the outer table,
     * later stages read {@code previous}, the directory the stage before wrote.
     */
    public static void configureStage(Job job, JoinSpec spec, int stage, Path previous, int reducers, Path output)
            throws IOException {
        Configuration conf = job.getConfiguration();
        OooJoinInputFormat.setJoinSpec(conf, spec);
        JoinLayout.setStage(conf, stage);
        TableSchemas.record(job, new LinkedHashSet<>(spec.tables()));
        JoinLayout.of(conf, spec); // fails here, in the client, on a column that does not exist
        JoinSpec.Probe probe = spec.probes().get(stage - 1);
        String right = probe.table();
        job.setJobName("psmj " + (stage == 1 ? spec.outerAlias() : "stage " + (stage - 1)) + " x " + probe.alias());
        job.setJarByClass(PsmjJob.class);
        job.setInputFormatClass(StageInput.class);
        // A table joined with itself is read once: its mappers emit every row to both sides.
        List<String> tables = stage == 1 ? Stream.of(spec.outerTable(), right).distinct().toList() : List.of(right);
        List<String> fromNodes = tables.stream().filter(t -> TableFileSplit.files(conf, t) == null).toList();
        conf.setStrings(STAGE_TABLES, tables.toArray(String[]::new));
        if (!fromNodes.isEmpty()) {
            StoreScanInputFormat.setTables(job, fromNodes.toArray(String[]::new));
        }
        if (stage > 1) {
            FileInputFormat.setInputPaths(job, previous);
        }
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

    /**
     * A stage's input: its tables — store partitions, or text files where the job names them
     * ({@link TableFileSplit#setFiles}) — and on later stages the files the stage before wrote.
     * A mapper tells the sides apart by its split.
     */
    public static final class StageInput extends InputFormat<NullWritable, RowWritable> {
        @Override
        public List<InputSplit> getSplits(JobContext context) throws IOException {
            Configuration conf = context.getConfiguration();
            List<InputSplit> splits = new ArrayList<>();
            if (conf.get(StoreScanInputFormat.TABLES) != null) {
                splits.addAll(new StoreScanInputFormat().getSplits(context));
            }
            for (String t : conf.getStrings(STAGE_TABLES)) {
                if (TableFileSplit.files(conf, t) != null) {
                    splits.addAll(TableFileSplit.splits(context, t));
                }
            }
            if (JoinLayout.stage(conf) > 1) {
                splits.addAll(new SequenceFileInputFormat<NullWritable, RowWritable>().getSplits(context));
            }
            return splits;
        }

        @Override
        public RecordReader<NullWritable, RowWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
            if (split instanceof PartitionSplit) {
                return new StoreScanInputFormat().createRecordReader(split, context);
            }
            return split instanceof TableFileSplit f ? TableFileSplit.reader(context.getConfiguration(), f)
                    : new SequenceFileRecordReader<>();
        }

        /** The table a split reads; null for the previous stage's output. */
        static String table(InputSplit split) {
            if (split instanceof PartitionSplit p) {
                return p.table();
            }
            return split instanceof TableFileSplit f ? f.table() : null;
        }
    }

    /**
     * Tags each row with its side — both sides when stage 1 joins a table with itself; outer rows
     * outside the range are dropped here, before the shuffle.
     */
    public static final class SideMapper extends Mapper<NullWritable, RowWritable, JoinKey, JoinRecord> {
        private final JoinKey key = new JoinKey();
        private final JoinRecord record = new JoinRecord();
        private JoinLayout layout;
        private boolean left;
        private boolean right;
        private Predicate<Object[]> inRange;

        @Override
        protected void setup(Context context) {
            Configuration conf = context.getConfiguration();
            JoinSpec spec = OooJoinInputFormat.spec(conf);
            layout = JoinLayout.of(conf, spec);
            int stage = JoinLayout.stage(conf);
            String table = StageInput.table(context.getInputSplit());
            right = spec.probes().get(stage - 1).table().equals(table);
            left = stage == 1 ? spec.outerTable().equals(table) : table == null;
            inRange = layout.leftRange >= 0 ? spec.outerRange().predicate(layout.leftRange) : row -> true;
        }

        @Override
        protected void map(NullWritable k, RowWritable row, Context context) throws IOException, InterruptedException {
            Object[] v = row.values();
            if (left && inRange.test(v)) {
                emit(JoinLayout.LEFT, v[layout.leftJoin], v, context);
            }
            if (right) {
                emit(JoinLayout.RIGHT, v[layout.rightJoin], v, context);
            }
        }

        private void emit(int side, Object joinValue, Object[] v, Context context) throws IOException, InterruptedException {
            if (joinValue == null) {
                return; // NULL equals nothing
            }
            key.set(joinValue, side);
            record.set(side, layout.keep(side, v));
            context.write(key, record); // serialized here: key and record are reused
        }
    }

    /** Buffers the left records of a join value (they sort first), then joins each right record with them. */
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
            List<Object[]> left = new ArrayList<>();
            for (JoinRecord r : records) {
                if (r.side() == JoinLayout.LEFT) {
                    left.add(r.values()); // values() is a fresh array per record read: safe to keep
                    continue;
                }
                if (left.isEmpty()) {
                    return; // no left row for this value: the remaining right rows match nothing
                }
                for (Object[] l : left) {
                    out.set(layout.combine(l, r.values()));
                    context.write(NullWritable.get(), out);
                }
            }
        }
    }
}
