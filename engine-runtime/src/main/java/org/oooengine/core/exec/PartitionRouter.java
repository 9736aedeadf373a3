package org.oooengine.core.exec;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where the partitions of a partitioned table live, and how to reach those on other nodes. Every
 * table is partitioned by the value of its leading primary-key column; an index of scope GLOBAL by
 * the value of its leading column. Values are given encoded, as the index or tree key prefix.
 */
public interface PartitionRouter {
    /** An index entry or row as a node returns it: key, and the row for the clustered tree. */
    record Entry(byte[] key, byte[] value) {
    }

    /** The name of the node this fragment runs on. */
    String self();

    /** The node that owns the partition of {@code table} holding {@code encodedValue}. */
    String owner(String table, byte[] encodedValue);

    /**
     * Entries of {@code index} (null: the clustered tree) of the partition on {@code node} whose
     * keys start with {@code prefix}.
     */
    CompletableFuture<List<Entry>> lookup(String node, String table, String index, byte[] prefix);

    /** Rows by primary key from {@code node}'s partition, in request order; null where absent. */
    CompletableFuture<List<byte[]>> fetch(String node, String table, List<byte[]> primaryKeys);
}
