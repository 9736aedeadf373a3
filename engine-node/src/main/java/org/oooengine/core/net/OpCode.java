package org.oooengine.core.net;

/** What a frame asks for or answers. The byte values are part of the wire format. */
public enum OpCode {
    /** Server to client on connect: a nonce the client must sign with the cluster secret. */
    CHALLENGE(1),
    /** Client to server: the member name and the HMAC of the nonce. */
    AUTH(2),
    /** Server to client: the connection may now send requests. */
    AUTH_OK(3),
    /** An answer that failed: error code and message. */
    ERROR(4),
    /** Several small requests to one node in one frame; each is answered on its own. */
    BATCH(5),
    /** The answer to a lookup or fetch: a list of entries. */
    RESULT(6),
    /** One chunk of a stream (scan rows, fragment results). */
    STREAM_CHUNK(7),
    /** The end of a stream, with its summary. */
    STREAM_END(8),
    /** Stops a running stream of this request id. */
    CANCEL(9),
    /** Keys of an index (or the clustered tree) that start with a prefix. */
    INDEX_POINT_LOOKUP(16),
    /** Keys of an index (or the clustered tree) in [from, to). */
    INDEX_RANGE_LOOKUP(17),
    /** Rows by their primary keys. */
    FETCH_ROWS(18),
    /** Every row of a table partition, streamed. */
    SCAN_PARTITION(19),
    /** The partition's catalog and counters as JSON; a flag byte may ask to empty the buffer pool first. */
    PARTITION_STATS(20),
    /** Rows to store in a table partition, streamed by the loader. */
    BULK_LOAD(21),
    /** Runs a query fragment on the node and streams its result rows. */
    RUN_FRAGMENT(22),
    /** How many rows of a table partition fall in a range of an indexed column. */
    COUNT_RANGE(23),
    /** The partitions' column statistics as JSON; a flag byte may ask to collect them anew first (analyze). */
    TABLE_STATISTICS(24),
    /** Measures the device under the node's data directory (random reads by queue depth, sequential reads) as JSON. */
    CALIBRATE_DISK(25),
    /** Runs a scan pipeline (filter, project, partial aggregate) on the node's partition and streams what comes out. */
    RUN_PIPELINE(26),
    /** A chunk of broadcast rows for pipelines to come, staged on the node under an id. */
    STAGE_ROWS(27),
    /** Runs a shuffle's producing pipeline on the node: its rows go to the nodes that own their keys. */
    RUN_SHUFFLE(28),
    /** Node to node: a chunk of shuffled rows for an exchange, or a producer's last. */
    SHUFFLE_ROWS(29),
    /** Merges the partial states of the GROUP BY groups shuffled to the node (an exchange) and streams each group's result. */
    MERGE_GROUPS(30),
    /**
     * Runs pipeline steps over the rows shuffled to the node (an exchange), a join's probe side,
     * and streams what comes out.
     */
    RUN_EXCHANGED(31),
    /** Writes rows in place into a table's partition: applies them, or commits or rolls back what was applied. */
    WRITE_ROWS(32),
    /** How the partition's B+trees have deteriorated, per tree and key range, as JSON ({@code TreeReport}s). */
    TREE_HEALTH(33),
    /**
     * A step of a transaction on the node's transactional tables (reads, writes, the phases of a
     * two-phase commit, their recovery) or their DDL: the first byte says which (see {@code TxnOp}).
     */
    TXN(34),
    /**
     * Node to node: the next split of a scan of files that the answering node holds in a queue,
     * taken from the end its owner reads last (work stealing), or from the front of a queue every
     * node shares; none when the queue is empty.
     */
    TAKE_SPLIT(35),
    /**
     * A step of writing a file of rows outside the node's store (a warehouse table's INSERT):
     * open, rows, finish or abort; the first byte says which (see {@code FileWrites}).
     */
    WRITE_FILE(36),
    /**
     * Starts or stops a CPU profile of the node (a Flight Recorder recording): a step byte, then the
     * profile's name; stopping writes it under the node's data directory and answers a summary as JSON.
     */
    PROFILE(37),
    /**
     * A coordinator's heartbeat: answered at once with the node's load (statements running and
     * waiting for their turn, pipelines running, as varints), then the names of the tables its store
     * holds (a count, then each). Its round trip tells a slow node.
     */
    HEARTBEAT(38),
    /**
     * A stored table's files, to put a copy of its partition on another node (re-replication): a
     * step byte, then its description (page size, the table's manifest entry, each file's length)
     * as JSON, or a chunk of one of its files.
     */
    STORED_FILES(39);

    private static final OpCode[] BY_CODE = new OpCode[128];

    static {
        for (OpCode op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final byte code;

    OpCode(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /**
     * Whether a node serves this op as a request (one family of its requests does); the others
     * are the connection's own: handshake, answers, batches and cancels.
     */
    public boolean isRequest() {
        return code >= INDEX_POINT_LOOKUP.code;
    }

    /** The op with this code, or null when the code is unknown. */
    public static OpCode of(byte code) {
        return code >= 0 ? BY_CODE[code] : null;
    }
}
