package org.oooengine.core.store;

/**
 * Where the entries of a secondary index live when a table is partitioned over nodes. On a single
 * node both are the same index.
 */
public enum IndexScope {
    /** With the rows they point to: a range over the index is answered by every partition locally. */
    LOCAL,
    /**
     * Partitioned by the index key, wherever the rows are: a lookup of one key goes to one node.
     * Used for the foreign keys joins probe.
     */
    GLOBAL
}
