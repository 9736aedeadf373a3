package org.oooengine.it;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;

/**
 * HDFS and YARN in this JVM: a MiniDFSCluster with one DataNode and a MiniMRYarnCluster with one
 * NodeManager, which launches every task in a JVM of its own.
 */
final class MiniHadoop implements AutoCloseable {
    final MiniDFSCluster hdfs;
    final MiniMRYarnCluster yarn;

    /** Starts both, HDFS keeping its blocks under {@code dir}. */
    MiniHadoop(String name, Path dir) throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
        hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        conf.set("fs.defaultFS", hdfs.getFileSystem().getUri().toString());
        // Task JVMs need the same module opens as this one (Hadoop on JDK 17).
        String opens = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens")).collect(Collectors.joining(" "));
        conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx512m " + opens);
        conf.set("mapreduce.map.java.opts", "-Xmx512m " + opens);
        conf.set("mapreduce.reduce.java.opts", "-Xmx512m " + opens);
        conf.setInt("yarn.nodemanager.resource.memory-mb", 8192);
        // The one NodeManager must not call a full shared disk bad (default: above 90% used): it
        // would start no container, and every job would wait for one forever.
        conf.setFloat("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", 100.0f);
        conf.setLong("yarn.nodemanager.disk-health-checker.min-free-space-per-disk-mb", 0);
        MiniMRYarnCluster started = new MiniMRYarnCluster(name, 1);
        try {
            started.init(conf);
            started.start();
        } catch (RuntimeException e) {
            hdfs.shutdown();
            throw e;
        }
        yarn = started;
    }

    /** HDFS's address, e.g. {@code hdfs://localhost:40123}. */
    String hdfsUri() throws IOException {
        return hdfs.getFileSystem().getUri().toString();
    }

    /** What a job client needs to run jobs on this YARN and HDFS. */
    Configuration jobConf() {
        return new Configuration(yarn.getConfig());
    }

    @Override
    public void close() {
        yarn.stop();
        hdfs.shutdown();
    }
}
