package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ServingNodes;

/**
 * One table partition, read on the node serving it when the job was planned — its owner, or where
 * the owner is down (or slow) a node holding its copy — and, by a task attempt run again after one
 * failed, on the partition's next holder ({@link #node(int)}). Hadoop schedules the task on the
 * serving node's host, else on another holder's. The length is the partition's rows to read (for a
 * join split, its outer rows in range), so Hadoop starts the largest splits first and the reader
 * can report progress against it.
 */
public final class PartitionSplit extends InputSplit implements Writable {
    private String table;
    private int partition;
    /** The partition's holders, the serving node first. */
    private String[] nodes;
    private String[] hosts;
    private long rows;

    public PartitionSplit() {
    }

    /**
     * @param nodes the partition's holders, the node serving it first
     * @param hosts their hosts, in that order, each once
     */
    public PartitionSplit(String table, int partition, List<String> nodes, List<String> hosts, long rows) {
        this.table = table;
        this.partition = partition;
        this.nodes = nodes.toArray(String[]::new);
        this.hosts = hosts.toArray(String[]::new);
        this.rows = rows;
    }

    /** Partition {@code served} of {@code table}: on its serving node, then its other holders. */
    static PartitionSplit of(ClusterSession session, String table, ServingNodes.Served served, long rows) {
        List<String> nodes = new java.util.ArrayList<>(List.of(served.node()));
        session.serving().holders(table, served.partition()).stream().filter(h -> !h.equals(served.node())).forEach(nodes::add);
        List<String> hosts = nodes.stream().map(n -> session.spec().node(n).host()).distinct().toList();
        return new PartitionSplit(table, served.partition(), nodes, hosts, rows);
    }

    public String table() {
        return table;
    }

    public int partition() {
        return partition;
    }

    /** The node serving the partition when the job was planned. */
    public String node() {
        return nodes[0];
    }

    /**
     * The node task attempt {@code attempt} (0 first) reads the partition on: the serving node, then
     * in turn its other holders, so that an attempt run again after its node was lost reads a copy.
     */
    public String node(int attempt) {
        return nodes[attempt % nodes.length];
    }

    /** The name {@code node} stores the partition under: the table's on its owner, its copy's on another holder. */
    public String storedName(ClusterSpec spec, String node) {
        return spec.storedName(table, partition, node);
    }

    public long rows() {
        return rows;
    }

    @Override
    public long getLength() {
        return rows;
    }

    @Override
    public String[] getLocations() {
        return hosts.clone();
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, table);
        WritableUtils.writeVInt(out, partition);
        WritableUtils.writeStringArray(out, nodes);
        WritableUtils.writeStringArray(out, hosts);
        out.writeLong(rows);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        table = Text.readString(in);
        partition = WritableUtils.readVInt(in);
        nodes = WritableUtils.readStringArray(in);
        hosts = WritableUtils.readStringArray(in);
        rows = in.readLong();
    }

    @Override
    public String toString() {
        return table + " partition " + partition + " on " + String.join(" or ", nodes) + " (" + String.join(", ", hosts) + ", "
                + rows + " rows)";
    }
}
