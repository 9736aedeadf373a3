package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * Tables as Hive-style text files ({@link HiveText}), one directory per table under the output
 * ({@code <out>/<table>/part-m-NNNNN}, one file per partition): a map-only job reading every
 * partition on its node. Hive reads such a directory as an external table; PSMJ reads it with
 * {@link TableFileSplit#setFiles}. Rows written per table are counted under the group {@link #COUNTERS}.
 */
public final class TextExport {
    public static final String COUNTERS = "ooo.export.rows";

    private TextExport() {
    }

    /** Configures {@code job} to export {@code tables} into {@code output}; the cluster must already be set on it. */
    public static void configure(Job job, List<String> tables, Path output) {
        TableSchemas.record(job, tables);
        job.setJobName("export " + String.join(", ", tables));
        job.setJarByClass(TextExport.class);
        job.setInputFormatClass(StoreScanInputFormat.class);
        StoreScanInputFormat.setTables(job, tables.toArray(String[]::new));
        job.setMapperClass(TableWriter.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(Text.class);
        LazyOutputFormat.setOutputFormatClass(job, TextOutputFormat.class); // no empty default part files
        FileOutputFormat.setOutputPath(job, output);
    }

    /** Writes each row of its partition as a line of its table's directory. */
    public static final class TableWriter extends Mapper<NullWritable, RowWritable, NullWritable, Text> {
        private final Text line = new Text();
        private MultipleOutputs<NullWritable, Text> outputs;
        private HiveText format;
        private String base;
        private org.apache.hadoop.mapreduce.Counter rows;

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
}
