package org.oooengine.mapreduce.mapred;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.oooengine.mapreduce.PartitionSplit;
import org.oooengine.mapreduce.RowWritable;

/**
 * One of the engine's input formats behind the old {@code org.apache.hadoop.mapred} API, for jobs
 * and tools still written against it: the same splits (one per partition, on its node's host)
 * and the same readers, driven through the old interfaces.
 */
abstract class MapredInput implements InputFormat<NullWritable, RowWritable> {
    /** The {@code org.apache.hadoop.mapreduce} input format doing the work. */
    protected abstract org.apache.hadoop.mapreduce.InputFormat<NullWritable, RowWritable> delegate();

    @Override
    public InputSplit[] getSplits(JobConf job, int numSplits) throws IOException {
        try {
            List<org.apache.hadoop.mapreduce.InputSplit> splits = delegate().getSplits(new JobContextImpl(job, null));
            InputSplit[] out = new InputSplit[splits.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = new Split((PartitionSplit) splits.get(i));
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while listing splits", e);
        }
    }

    @Override
    public RecordReader<NullWritable, RowWritable> getRecordReader(InputSplit split, JobConf job, Reporter reporter)
            throws IOException {
        String attempt = job.get(MRJobConfig.TASK_ATTEMPT_ID);
        TaskAttemptContextImpl context = new TaskAttemptContextImpl(job,
                attempt == null ? new TaskAttemptID() : TaskAttemptID.forName(attempt));
        PartitionSplit partition = ((Split) split).partition;
        org.apache.hadoop.mapreduce.RecordReader<NullWritable, RowWritable> reader;
        try {
            reader = delegate().createRecordReader(partition, context);
            reader.initialize(partition, context);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while opening " + partition, e);
        }
        return new Reader(reader);
    }

    /** A {@link PartitionSplit} as an old-API split. */
    public static final class Split implements InputSplit {
        private PartitionSplit partition = new PartitionSplit();

        public Split() {
        }

        Split(PartitionSplit partition) {
            this.partition = partition;
        }

        @Override
        public long getLength() {
            return partition.getLength();
        }

        @Override
        public String[] getLocations() {
            return partition.getLocations();
        }

        @Override
        public void write(DataOutput out) throws IOException {
            partition.write(out);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            partition.readFields(in);
        }

        @Override
        public String toString() {
            return partition.toString();
        }
    }

    private static final class Reader implements RecordReader<NullWritable, RowWritable> {
        private final org.apache.hadoop.mapreduce.RecordReader<NullWritable, RowWritable> reader;
        private long rows;

        Reader(org.apache.hadoop.mapreduce.RecordReader<NullWritable, RowWritable> reader) {
            this.reader = reader;
        }

        @Override
        public boolean next(NullWritable key, RowWritable value) throws IOException {
            try {
                if (!reader.nextKeyValue()) {
                    return false;
                }
                value.set(reader.getCurrentValue().values());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading", e);
            }
            rows++;
            return true;
        }

        @Override
        public NullWritable createKey() {
            return NullWritable.get();
        }

        @Override
        public RowWritable createValue() {
            return new RowWritable();
        }

        /** Rows read so far: the old API's position, for splits that are not byte ranges. */
        @Override
        public long getPos() {
            return rows;
        }

        @Override
        public float getProgress() throws IOException {
            try {
                return reader.getProgress();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0f;
            }
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
