package org.oooengine.mapreduce.mapred;

import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapred.JobConf;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.mapreduce.RowWritable;

/**
 * {@link org.oooengine.mapreduce.OooJoinInputFormat} for the old {@code org.apache.hadoop.mapred}
 * API: joined rows, one split per partition of the outer table, each joined out of order by its
 * node. Point the job at the cluster with {@link org.oooengine.mapreduce.ClusterJobConf#setCluster(JobConf, java.nio.file.Path)}.
 */
public final class OooJoinInputFormat extends MapredInput {
    public static void setJoin(JobConf job, JoinSpec spec, ExecutionMode mode, int budget) {
        org.oooengine.mapreduce.OooJoinInputFormat.setJoin(job, spec, mode, budget);
    }

    @Override
    protected org.apache.hadoop.mapreduce.InputFormat<NullWritable, RowWritable> delegate() {
        return new org.oooengine.mapreduce.OooJoinInputFormat();
    }
}
