package org.oooengine.mapreduce.mapred;

import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapred.JobConf;
import org.oooengine.mapreduce.RowWritable;

/** {@link org.oooengine.mapreduce.StoreScanInputFormat} for the old {@code org.apache.hadoop.mapred} API. */
public final class StoreScanInputFormat extends MapredInput {
    public static void setTables(JobConf job, String... tables) {
        org.oooengine.mapreduce.StoreScanInputFormat.setTables(job, tables);
    }

    @Override
    protected org.apache.hadoop.mapreduce.InputFormat<NullWritable, RowWritable> delegate() {
        return new org.oooengine.mapreduce.StoreScanInputFormat();
    }
}
