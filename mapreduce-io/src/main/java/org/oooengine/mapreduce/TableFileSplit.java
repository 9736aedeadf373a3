package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;

/**
 * A piece of a table held as Hive-style text files (see {@link HiveText}; {@code ooo export}
 * writes them), for jobs that read a table from files — local or on HDFS — instead of from its
 * nodes. Splits are Hadoop's own for text files, so blocks are read where they are stored.
 */
public final class TableFileSplit extends InputSplit implements Writable {
    private static final String FILES = "ooo.table.files.";

    private String table;
    private FileSplit file = new FileSplit();

    public TableFileSplit() {
    }

    TableFileSplit(String table, FileSplit file) {
        this.table = table;
        this.file = file;
    }

    /** Reads {@code table} from the text files in {@code dir} rather than from the cluster. */
    public static void setFiles(Job job, String table, Path dir) {
        job.getConfiguration().set(FILES + table, dir.toString());
    }

    static Path files(Configuration conf, String table) {
        String dir = conf.get(FILES + table);
        return dir == null ? null : new Path(dir);
    }

    /** The splits of {@code table}'s files. */
    static List<InputSplit> splits(JobContext context, String table) throws IOException {
        Job files = Job.getInstance(new Configuration(context.getConfiguration()));
        FileInputFormat.setInputPaths(files, files(context.getConfiguration(), table));
        List<InputSplit> out = new ArrayList<>();
        for (InputSplit s : new TextInputFormat().getSplits(files)) {
            out.add(new TableFileSplit(table, (FileSplit) s));
        }
        return out;
    }

    public String table() {
        return table;
    }

    @Override
    public long getLength() {
        return file.getLength();
    }

    @Override
    public String[] getLocations() throws IOException {
        return file.getLocations();
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, table);
        file.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        table = Text.readString(in);
        file.readFields(in);
    }

    @Override
    public String toString() {
        return table + " from " + file;
    }

    /** Parses the split's lines into rows of its table's types; a bad line fails naming file and offset. */
    static final class Reader extends RecordReader<NullWritable, RowWritable> {
        private final LineRecordReader lines = new LineRecordReader();
        private final RowWritable row = new RowWritable();
        private HiveText format;
        private Path path;

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            TableFileSplit s = (TableFileSplit) split;
            format = HiveText.of(context.getConfiguration(), s.table);
            path = s.file.getPath();
            lines.initialize(s.file, context);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            if (!lines.nextKeyValue()) {
                return false;
            }
            row.set(format.parse(lines.getCurrentValue().toString(), path + " at byte " + lines.getCurrentKey().get()));
            return true;
        }

        @Override
        public NullWritable getCurrentKey() {
            return NullWritable.get();
        }

        @Override
        public RowWritable getCurrentValue() {
            return row;
        }

        @Override
        public float getProgress() throws IOException {
            return lines.getProgress();
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }
}
