package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.oooengine.core.settings.JobKeys;

/**
 * The rows of tables held in files, for a job that reads no node: the splits of each table's
 * files ({@link TableFileSplit#setFiles}), read as rows of its types ({@link TableSchemas}).
 */
public final class TableFileInputFormat extends InputFormat<NullWritable, RowWritable> {
    private static final String TABLES = JobKeys.FILES_TABLES.name();

    /** The tables a job reads, each set up with {@link TableFileSplit#setFiles}. */
    public static void setTables(Configuration conf, List<String> tables) {
        conf.setStrings(TABLES, tables.toArray(String[]::new));
    }

    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException {
        Configuration conf = context.getConfiguration();
        List<InputSplit> splits = new ArrayList<>();
        for (String table : conf.getTrimmedStringCollection(TABLES)) { // none for a partitioned table without partitions
            splits.addAll(TableFileSplit.splits(context, table));
        }
        return splits;
    }

    @Override
    public RecordReader<NullWritable, RowWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return TableFileSplit.reader(context.getConfiguration(), (TableFileSplit) split);
    }
}
