package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * One table partition on its owning node: Hadoop schedules the task on that node's host. The
 * length is the partition's rows to read (for a join split, its outer rows in range), so Hadoop
 * starts the largest splits first and the reader can report progress against it.
 */
public final class PartitionSplit extends InputSplit implements Writable {
    private String table;
    private String node;
    private String host;
    private long rows;

    public PartitionSplit() {
    }

    public PartitionSplit(String table, String node, String host, long rows) {
        this.table = table;
        this.node = node;
        this.host = host;
        this.rows = rows;
    }

    public String table() {
        return table;
    }

    public String node() {
        return node;
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
        return new String[] {host};
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, table);
        Text.writeString(out, node);
        Text.writeString(out, host);
        out.writeLong(rows);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        table = Text.readString(in);
        node = Text.readString(in);
        host = Text.readString(in);
        rows = in.readLong();
    }

    @Override
    public String toString() {
        return table + " partition on " + node + " (" + host + ", " + rows + " rows)";
    }
}
