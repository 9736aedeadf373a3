package org.oooengine.core.cluster;

/**
 * What a {@code TXN} request asks of a node, its first byte; the byte values are part of the wire
 * format. Every step but the DDL and procedures names its transaction by a {@code TransactionId} (two longs).
 */
enum TxnOp {
    /** Rows by key: table, count, keys. Answer: per key a present flag and the row. */
    READ(1),
    /**
     * Rows with from &lt;= key &lt; to: table, from and to (a flag, then the key), the most rows wanted
     * (at most 4,096 are answered). Answer: count, keys and rows.
     */
    SCAN(2),
    /** Buffered writes: table, a {@link TransactionalWrite} (ordinal), count, per row its key and (but for deletes) row. Answer: rows changed. */
    WRITE(3),
    /** Phase one: locks the writes. Answer: the lowest commit timestamp the node allows. */
    LOCK(4),
    /** Phase two on a voter: commit timestamp, the deciding node. Answer: empty (a vote to commit). */
    PREPARE(5),
    /** Phase two on the decider: commit timestamp, the other writers. Answer: empty (committed). */
    DECIDE(6),
    /** Phase three: the prepared transaction committed. */
    COMMIT(7),
    /** The transaction aborted: forget its reads and writes, release its locks, prepared or not. */
    ABORT(8),
    /** The whole commit of a transaction that touched this node only. Answer: the commit timestamp. */
    COMMIT_ONE(9),
    /** Asked of a decider by a participant in doubt: answer 1 (committed, then the timestamp) or 0 (aborted). */
    STATUS(10),
    /** To a decider: these participants applied its commit (count, names). */
    APPLIED(11),
    /** DDL: creates a transactional table (its name) if it does not exist. */
    CREATE_TABLE(12),
    /** DDL: drops a transactional table (its name) and its rows. */
    DROP_TABLE(13),
    /**
     * Runs a stored procedure ({@link NodeProcedure}): its name, a routing number (which of the
     * node's procedure threads runs it: the same number, the same thread), its arguments (bytes).
     * Answer: the procedure's.
     */
    PROCEDURE(14),
    /**
     * Phases one and two at once, on the only voter of a commit whose decider has locked its writes
     * already: the decider's lowest commit timestamp, the deciding node. The voter locks its writes,
     * takes the larger of the two timestamps, validates its reads at it and logs its vote. Answer:
     * that commit timestamp.
     */
    LOCK_PREPARE(15),
    /**
     * HTAP: keep analytical copies of these transactional tables too (count, then per table its
     * name and the definition of its rows: columns, primary key, indexes). Answer: empty, once
     * the copies are built.
     */
    COPY_TABLES(16),
    /**
     * HTAP: how fresh the node's analytical copies are. Answer: switches, commits applied,
     * rebuilds, reads, commits owed to the applying copy, keys in the read copy's delta (longs), count, then per table its name, rows, stale rows (longs), freshness and lag
     * in seconds (doubles as their long bits); then the node's HTAP mode ({@link HtapStatus}).
     */
    COPY_STATUS(17),
    /** HTAP: stop keeping analytical copies of a transactional table (its name). Answer: empty. */
    UNCOPY_TABLE(18),
    /** HTAP: the node's mode, slots, cores and HTAL's thresholds ({@link HtapConfig}). Answer: empty. */
    HTAP_MODE(19),
    /** HTAP: a statement that read copies under a snapshot number (a long) is done: its pin goes. Answer: empty. */
    COPY_RELEASE(20),
    /**
     * HTAP: a step of cutting a statement's snapshot of the copies across the nodes ({@link
     * CopyCut}): the snapshot number, the step, a count and that many two-phase transaction ids.
     * Answer: a count and ids.
     */
    COPY_CUT(21),
    /** The node's transactional tables, its copies of other nodes' partitions among them. Answer: a count and names. */
    TABLES(22);

    private final byte code;

    TxnOp(int code) {
        this.code = (byte) code;
    }

    byte code() {
        return code;
    }

    static TxnOp of(byte code) {
        for (TxnOp op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        throw new org.oooengine.core.wire.ProtocolException("unknown transaction step " + code);
    }
}
