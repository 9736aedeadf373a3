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
        // Tasks here live seconds: the client compiler and one GC thread start them faster on two cores.
        String jvm = "-Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC " + opens;
        conf.set("yarn.app.mapreduce.am.command-opts", jvm);
        conf.set("mapreduce.map.java.opts", jvm);
        conf.set("mapreduce.reduce.java.opts", jvm);
        // Containers are handed out at heartbeats, once a second by default: a job of a few tasks
        // would spend seconds waiting for them. A tenth of a second costs one in-JVM call.
        conf.setInt("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 100);
        conf.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 100);
        conf.setInt("mapreduce.client.progressmonitor.pollinterval", 100);
        conf.setInt("mapreduce.client.completion.pollinterval", 100);
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
