package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
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
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.oooengine.core.types.DataType;
import org.oooengine.core.settings.JobKeys;

/**
 * A piece of a table held in files — Hive-style text ({@link HiveText}) or ORC ({@link OrcRows});
 * {@code ooo export} writes both — for jobs that read a table from files, local or on HDFS,
 * instead of from its nodes. A table's location is a file or a directory, whose subdirectories
 * are read too, as Hive reads them; names starting with {@code _} or {@code .} are not data.
 * Text splits are Hadoop's own; an ORC file is one split. Either way the split names the hosts
 * holding its blocks. Rows end with the table's {@link PartitionValues}, if it has any.
 */
public final class TableFileSplit extends InputSplit implements Writable {
    private static final String FILES = JobKeys.TABLE_FILES.name();
    private static final String FORMAT = JobKeys.TABLE_FORMAT.name();

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
        setFiles(job, table, dir, FileFormat.TEXT);
    }

    /** Reads {@code table} from the files of {@code format} in {@code dir} rather than from the cluster. */
    public static void setFiles(Job job, String table, Path dir, FileFormat format) {
        setFiles(job.getConfiguration(), table, dir, format);
    }

    /** As {@link #setFiles(Job, String, Path, FileFormat)}, in a job's configuration. */
    public static void setFiles(Configuration conf, String table, Path dir, FileFormat format) {
        conf.set(FILES + table, dir.toString());
        conf.set(FORMAT + table, format.name());
    }

    static FileFormat format(Configuration conf, String table) {
        return FileFormat.parse(conf.get(FORMAT + table, FileFormat.TEXT.name()));
    }

    static Path files(Configuration conf, String table) {
        String dir = conf.get(FILES + table);
        return dir == null ? null : new Path(dir);
    }

    /** The splits of {@code table}'s files. */
    static List<InputSplit> splits(JobContext context, String table) throws IOException {
        Configuration conf = context.getConfiguration();
        Job files = Job.getInstance(new Configuration(conf));
        FileInputFormat.setInputPaths(files, files(conf, table));
        FileInputFormat.setInputDirRecursive(files, true);
        List<InputSplit> out = new ArrayList<>();
        if (format(conf, table) == FileFormat.TEXT) {
            for (InputSplit s : new TextInputFormat().getSplits(files)) {
                out.add(new TableFileSplit(table, (FileSplit) s));
            }
            return out;
        }
        for (FileStatus f : new WholeFiles().listStatus(files)) {
            FileSystem fs = f.getPath().getFileSystem(conf);
            BlockLocation[] blocks = fs.getFileBlockLocations(f, 0, f.getLen());
            String[] hosts = blocks.length == 0 ? new String[0] : blocks[0].getHosts();
            out.add(new TableFileSplit(table, new FileSplit(f.getPath(), 0, f.getLen(), hosts)));
        }
        return out;
    }

    /** Lists a directory's data files as FileInputFormat does (hidden and _ files left out). */
    private static final class WholeFiles extends TextInputFormat {
        @Override
        public List<FileStatus> listStatus(JobContext job) throws IOException {
            return super.listStatus(job);
        }
    }

    /** The reader for a split of {@code table}, by its files' format. */
    static RecordReader<NullWritable, RowWritable> reader(Configuration conf, TableFileSplit split) {
        return format(conf, split.table) == FileFormat.TEXT ? new TextReader() : new OrcReader();
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
    private static final class TextReader extends RowReader {
        private final LineRecordReader lines = new LineRecordReader();
        private HiveText format;
        private Object[] partitionValues;
        private Path path;

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            TableFileSplit s = (TableFileSplit) split;
            format = HiveText.of(context.getConfiguration(), s.table);
            partitionValues = PartitionValues.of(context.getConfiguration(), s.table);
            path = s.file.getPath();
            lines.initialize(s.file, context);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            if (!lines.nextKeyValue()) {
                return false;
            }
            Object[] fileRow = format.parse(lines.getCurrentValue().toString(), path + " at byte " + lines.getCurrentKey().get());
            row.set(PartitionValues.append(fileRow, partitionValues));
            return true;
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

    /** Reads an ORC file's rows, a batch at a time. */
    private static final class OrcReader extends RowReader {
        private org.apache.orc.RecordReader rows;
        private VectorizedRowBatch batch;
        private OrcRows orc;
        private Object[] partitionValues;
        private int next;
        private long read;
        private long total;

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            TableFileSplit s = (TableFileSplit) split;
            Configuration conf = context.getConfiguration();
            Reader reader = OrcFile.createReader(s.file.getPath(), OrcFile.readerOptions(conf));
            List<DataType> types = TableSchemas.types(conf, s.table);
            String mismatch = OrcRows.mismatch(reader.getSchema(), types);
            if (mismatch != null) {
                throw new IOException(s.file.getPath() + " cannot be read as table " + s.table + ": " + mismatch);
            }
            total = reader.getNumberOfRows();
            rows = reader.rows();
            batch = reader.getSchema().createRowBatch();
            orc = new OrcRows(types);
            partitionValues = PartitionValues.of(conf, s.table);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            if (next == batch.size) {
                if (!rows.nextBatch(batch)) {
                    return false;
                }
                next = 0;
            }
            row.set(PartitionValues.append(orc.read(batch, next++), partitionValues));
            read++;
            return true;
        }

        @Override
        public float getProgress() {
            return total == 0 ? 1f : (float) read / total;
        }

        @Override
        public void close() throws IOException {
            if (rows != null) {
                rows.close();
            }
        }
    }
}
