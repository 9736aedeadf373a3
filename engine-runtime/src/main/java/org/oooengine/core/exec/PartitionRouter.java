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

    /**
     * Where a partition is read: on {@code node}, which stores it as table {@code storedName} (the
     * table's own name on its owner, a replica's name on another holder).
     */
    record Holder(String node, String storedName) {
    }

    /**
     * Where to read the partition of {@code table} holding {@code encodedValue}: this node when it
     * holds it (its owner's copy or a replica), else a node holding it that is reachable.
     */
    Holder holder(String table, byte[] encodedValue);

    /**
     * Entries of {@code index} (null: the clustered tree) of {@code node}'s stored table
     * {@code table} whose keys start with {@code prefix}.
     */
    CompletableFuture<List<Entry>> lookup(String node, String table, String index, byte[] prefix);

    /** Rows by primary key from {@code node}'s stored table {@code table}, in request order; null where absent. */
    CompletableFuture<List<byte[]>> fetch(String node, String table, List<byte[]> primaryKeys);
}
