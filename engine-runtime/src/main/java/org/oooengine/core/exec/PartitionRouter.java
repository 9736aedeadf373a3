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
     * Where partition {@code partition} of {@code table} is read: on {@code node}, which stores it
     * as table {@code storedName} (the table's own name on its owner, a copy's name on another
     * holder). A router may send a request for it to another holder of the partition instead.
     */
    record Holder(String node, String storedName, String table, int partition) {
        /** {@code node}'s own table {@code table}, to be read there and nowhere else. */
        public static Holder only(String node, String table) {
            return new Holder(node, table, table, -1);
        }
    }

    /**
     * Where to read the partition of {@code table} holding {@code encodedValue}: this node when it
     * holds it (its owner's copy or a replica), else a node holding it that is reachable.
     */
    Holder holder(String table, byte[] encodedValue);

    /**
     * Entries of {@code index} (null: the clustered tree) of the partition {@code at} names whose
     * keys start with {@code prefix}.
     */
    CompletableFuture<List<Entry>> lookup(Holder at, String index, byte[] prefix);

    /** Rows by primary key from the partition {@code at} names, in request order; null where absent. */
    CompletableFuture<List<byte[]>> fetch(Holder at, List<byte[]> primaryKeys);
}
