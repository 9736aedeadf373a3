package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * Tables as files other engines read, one directory per table under the output
 * ({@code <out>/<table>/part-m-NNNNN[.orc]}, one file per partition): a map-only job reading every
 * partition on its node. Text files are in Hive's default text format ({@link HiveText}), ORC
 * files carry the table's schema ({@link OrcRows}); Hive reads either directory as an external
 * table, PSMJ with {@link TableFileSplit#setFiles}. Files go through the job's output committer,
 * so a failed task attempt leaves nothing behind. Rows written per table are counted under the
 * group {@link #COUNTERS}.
 */
public final class TableExport {
    public static final String COUNTERS = "ooo.export.rows";

    private TableExport() {
    }

    /** Configures {@code job} to export {@code tables} into {@code output}; the cluster must already be set on it. */
    public static void configure(Job job, List<String> tables, FileFormat format, Path output) {
        if (format == FileFormat.PARQUET) {
            throw new IllegalArgumentException("tables are exported as text or orc, not yet as parquet");
        }
        TableSchemas.record(job, tables);
        job.setJobName("export " + String.join(", ", tables) + " as " + format.name().toLowerCase(java.util.Locale.ROOT));
        job.setJarByClass(TableExport.class);
        job.setInputFormatClass(StoreScanInputFormat.class);
        StoreScanInputFormat.setTables(job, tables.toArray(String[]::new));
        job.setMapperClass(format == FileFormat.TEXT ? TextWriter.class : OrcWriter.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(Text.class);
        LazyOutputFormat.setOutputFormatClass(job, TextOutputFormat.class); // no empty default part files
        FileOutputFormat.setOutputPath(job, output);
    }

    /** Writes each row of its partition as a line of its table's directory. */
    public static final class TextWriter extends Mapper<NullWritable, RowWritable, NullWritable, Text> {
        private final Text line = new Text();
        private MultipleOutputs<NullWritable, Text> outputs;
        private HiveText format;
        private String base;
        private Counter rows;

        @Override
        protected void setup(Context context) {
            String table = StoreScanInputFormat.table(context);
            format = HiveText.of(context.getConfiguration(), table);
            base = table + "/part";
            outputs = new MultipleOutputs<>(context);
            rows = context.getCounter(COUNTERS, table);
        }

        @Override
        protected void map(NullWritable key, RowWritable row, Context context) throws IOException, InterruptedException {
            line.set(format.format(row.values()));
            outputs.write(NullWritable.get(), line, base);
            rows.increment(1);
        }

        @Override
        protected void cleanup(Context context) throws IOException, InterruptedException {
            outputs.close();
        }
    }

    /** Writes its partition as one ORC file in its table's directory, in the task's work directory until commit. */
    public static final class OrcWriter extends Mapper<NullWritable, RowWritable, NullWritable, Text> {
        private Writer writer;
        private VectorizedRowBatch batch;
        private OrcRows orc;
        private Counter rows;

        @Override
        protected void setup(Context context) throws IOException, InterruptedException {
            Configuration conf = context.getConfiguration();
            String table = StoreScanInputFormat.table(context);
            TypeDescription schema = OrcRows.schema(TableSchemas.columns(conf, table), TableSchemas.types(conf, table));
            Path file = new Path(new Path(FileOutputFormat.getWorkOutputPath(context), table),
                    FileOutputFormat.getUniqueFile(context, "part", ".orc"));
            writer = OrcFile.createWriter(file, OrcFile.writerOptions(conf).setSchema(schema));
            batch = schema.createRowBatch();
            orc = new OrcRows(TableSchemas.types(conf, table));
            rows = context.getCounter(COUNTERS, table);
        }

        @Override
        protected void map(NullWritable key, RowWritable row, Context context) throws IOException {
            orc.write(batch, batch.size++, row.values());
            if (batch.size == batch.getMaxSize()) {
                writer.addRowBatch(batch);
                batch.reset();
            }
            rows.increment(1);
        }

        @Override
        protected void cleanup(Context context) throws IOException {
            if (batch.size > 0) {
                writer.addRowBatch(batch);
            }
            writer.close();
        }
    }
}
