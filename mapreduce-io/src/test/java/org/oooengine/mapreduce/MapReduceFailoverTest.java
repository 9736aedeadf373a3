package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.tpch.JoinQueries;

/**
 * MapReduce over three nodes keeping each partition twice, with one node down: the splits of a
 * scan, of the out-of-order index join and of PSMJ jobs go to the nodes holding the copies of its
 * partitions, and every job reads every row once, joins returning DuckDB's rows.
 */
class MapReduceFailoverTest {
    private static TpchCluster tpch;
    /** The joins, their ranges chosen while every node answers. */
    private static final java.util.Map<String, JoinSpec> JOINS = new java.util.HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        tpch = TpchCluster.withCopies("ooo-mr-failover-test");
        for (String query : List.of("PL", "Q3")) {
            JOINS.put(query, tpch.session.query(JoinQueries.shape(query), 0.05).spec());
        }
        tpch.cluster.stop("n2");
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    private static Job newJob(String name) throws Exception {
        Configuration conf = JoinJobs.localRunner(new Configuration(), 3);
        conf.set("fs.defaultFS", "file:///");
        Job job = Job.getInstance(conf, name);
        ClusterJobConf.setCluster(job, tpch.cluster.dir);
        return job;
    }

    private static Path output(String name) {
        return new Path(tpch.dir.resolve("out-" + name + "-" + System.nanoTime()).toUri());
    }

    @Test
    void aScanReadsTheDownNodesPartitionsOnTheirCopies() throws Exception {
        Job job = newJob("scan");
        job.setInputFormatClass(StoreScanInputFormat.class);
        StoreScanInputFormat.setTables(job, "orders", "lineitem");
        List<PartitionSplit> splits = new StoreScanInputFormat().getSplits(job).stream().map(s -> (PartitionSplit) s)
                .toList();
        assertEquals(6, splits.size(), splits.toString());
        assertTrue(splits.stream().noneMatch(s -> s.node().equals("n2")), splits.toString());
        // an attempt run again reads the partition's other holder
        assertTrue(splits.stream().allMatch(s -> !s.node(1).equals(s.node()) && s.node(2).equals(s.node())), splits.toString());
        assertTrue(splits.stream().anyMatch(s -> ClusterSpec.isReplicaName(s.storedName(tpch.cluster.spec, s.node()))),
                splits.toString());
        MapReduceJoinTest.scanReadsEveryOrderAndLineitem(tpch, job, output("scan"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PL", "Q3"})
    void joinsReadTheDownNodesPartitionsOnTheirCopies(String query) throws Exception {
        JoinSpec spec = JOINS.get(query);
        List<String> expected = tpch.expected(spec);
        assertFalse(expected.isEmpty());
        Configuration conf = newJob("ooo-mr " + query).getConfiguration();
        Path out = output("ooo");
        JoinJobs.oooJoin(conf, tpch.cluster.spec, ClusterSpec.readSecret(tpch.cluster.dir), spec, ExecutionMode.OOO, 16,
                out);
        assertEquals(expected, tpch.render(spec, JobOutput.rows(conf, out)), "index join");
        Job psmj = newJob("psmj " + query);
        Path psmjOut = output("psmj");
        JoinJobs.psmj(psmj.getConfiguration(), tpch.cluster.spec, ClusterSpec.readSecret(tpch.cluster.dir), spec, 2,
                psmjOut);
        assertEquals(expected, tpch.render(spec, JobOutput.rows(psmj.getConfiguration(), psmjOut)), "PSMJ");
    }
}
