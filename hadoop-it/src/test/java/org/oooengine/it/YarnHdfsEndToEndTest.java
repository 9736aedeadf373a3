package org.oooengine.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.mapreduce.ClusterJobConf;
import org.oooengine.mapreduce.JobOutput;
import org.oooengine.mapreduce.OooJoinInputFormat;
import org.oooengine.mapreduce.PsmjJob;
import org.oooengine.mapreduce.RowWritable;
import org.oooengine.mapreduce.TableFileSplit;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.mapreduce.TableExport;

/**
 * Jobs on real YARN and HDFS: a MiniDFSCluster and a MiniMRYarnCluster in this JVM (shared with
 * the other classes), whose NodeManager launches tasks in JVMs of their own, against a three-node
 * OoO cluster. Tables exported to HDFS as ORC (an uber job: its tasks in the application master's
 * JVM) feed PSMJ; an out-of-order join job whose first map attempt is killed is
 * retried by Hadoop and still writes exactly the oracle's rows.
 */
@ExtendWith(SharedMiniHadoop.class)
class YarnHdfsEndToEndTest {
    private static TpchCluster tpch;
    private static MiniHadoop hadoop;

    @BeforeAll
    static void start(MiniHadoop shared) throws Exception {
        hadoop = shared;
        tpch = new TpchCluster("ooo-yarn-test", 3, 0.01, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.PART));
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    private static Job newJob(String name) throws IOException {
        Configuration conf = hadoop.jobConf();
        conf.setInt("mapreduce.client.completion.pollinterval", 100);
        Job job = Job.getInstance(conf, name);
        ClusterJobConf.setCluster(job, tpch.cluster.dir);
        return job;
    }

    @Test
    void tablesExportedToHdfsFeedPsmj() throws Exception {
        Job export = newJob("export to hdfs");
        // its map tasks run one after the other in the application master's JVM: one JVM start, not
        // one per task (the jobs below launch theirs in JVMs of their own)
        export.getConfiguration().setBoolean("mapreduce.job.ubertask.enable", true);
        Path exported = new Path("/export/tpch");
        TableExport.configure(export, List.of("part", "lineitem"), FileFormat.ORC, exported);
        assertTrue(export.waitForCompletion(false), "export failed");
        assertTrue(export.isUber(), "the export ran as an uber job");
        assertEquals(60_175, export.getCounters().findCounter(TableExport.COUNTERS, "lineitem").getValue());
        assertTrue(hadoop.hdfs.getFileSystem().exists(new Path(exported, "part")));

        JoinSpec spec = tpch.session.query(JoinQueries.PL, 0.05).spec();
        Job psmj = newJob("psmj from hdfs");
        TableFileSplit.setFiles(psmj, "part", new Path(exported, "part"), FileFormat.ORC);
        TableFileSplit.setFiles(psmj, "lineitem", new Path(exported, "lineitem"), FileFormat.ORC);
        Path out = new Path("/export/out/psmj");
        PsmjJob.configure(psmj, spec, 2, out);
        assertTrue(psmj.waitForCompletion(false), "psmj failed");
        assertRowsEqualOracle(spec, JobOutput.rows(psmj.getConfiguration(), out));
    }

    @Test
    void aKilledMapAttemptIsRetriedAndTheOutputIsComplete() throws Exception {
        JoinSpec spec = tpch.session.query(JoinQueries.OL, 0.05).spec();
        Job job = newJob("ooo join, first attempt killed");
        OooJoinInputFormat.setJoin(job, spec);
        job.setInputFormatClass(OooJoinInputFormat.class);
        job.setMapperClass(DiesOnFirstAttempt.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(RowWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        Path out = new Path("/export/out/ooo-retried");
        FileOutputFormat.setOutputPath(job, out);
        assertTrue(job.waitForCompletion(false), "job failed");
        assertTrue(job.getCounters().findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_MAPS).getValue() >= 1,
                "no map attempt failed: the injection did not happen");
        List<Object[]> rows = JobOutput.rows(job.getConfiguration(), out);
        assertEquals(rows.size(), job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue());
        assertRowsEqualOracle(spec, rows);
    }

    /** Passes rows through, except that the first attempt of the first task dies halfway, its JVM gone. */
    public static final class DiesOnFirstAttempt extends Mapper<NullWritable, RowWritable, NullWritable, RowWritable> {
        private long seen;

        @Override
        protected void map(NullWritable key, RowWritable row, Context context) throws IOException, InterruptedException {
            if (++seen == 10 && context.getTaskAttemptID().getTaskID().getId() == 0
                    && context.getTaskAttemptID().getId() == 0) {
                Runtime.getRuntime().halt(137);
            }
            context.write(key, row);
        }
    }

    private static void assertRowsEqualOracle(JoinSpec spec, List<Object[]> rows) throws Exception {
        List<String> expected = tpch.expected(spec);
        assertFalse(expected.isEmpty());
        assertEquals(expected, tpch.render(spec, rows));
    }
}
