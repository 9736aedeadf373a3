package org.oooengine.core.sql;

/**
 * A statement failed. The SQLSTATE tells clients the class of fault, one state per class on every
 * path (the table is in docs/sql.md, "Errors"); the message tells the user what and where.
 */
public class SqlException extends RuntimeException {
    public static final String SYNTAX = "42000";
    public static final String UNKNOWN_TABLE = "42S02";
    public static final String ALREADY_EXISTS = "42S01";
    /** A row breaks a constraint, e.g. repeats a primary key. */
    public static final String CONSTRAINT = "23000";
    /** Input data that is not a value of its column's type, e.g. a bad line of a loaded file. */
    public static final String DATA = "22000";
    public static final String UNKNOWN_COLUMN = "42S22";
    public static final String NOT_SUPPORTED = "0A000";
    public static final String CANCELLED = "HY008";
    /** The statement ran longer than its query timeout. */
    public static final String TIMEOUT = "HYT00";
    /**
     * Stored data failed its checks (a page checksum or format): PostgreSQL's data_corrupted. Not
     * a connection failure, so a connection pool keeps the client's connection.
     */
    public static final String DATA_CORRUPTED = "XX001";
    /**
     * A node of the cluster (or the metastore) could not be reached, died or did not answer in
     * time. Class 58, system error: the client's own connection to the coordinator is fine, so
     * this is deliberately not 08S01, which makes connection pools drop the connection.
     */
    public static final String NODE_FAILURE = "58000";
    /** A node ran out of memory (PostgreSQL's out_of_memory). */
    public static final String OUT_OF_MEMORY = "53200";
    /**
     * What a statement spilled to disk would go past its spill limit, or past the spill space of a
     * node or the coordinator (PostgreSQL's disk_full, class 53: insufficient resources).
     */
    public static final String DISK_FULL = "53100";
    /**
     * A transaction on transactional tables met a conflicting one and was rolled back after its
     * retries: running the statement again may succeed (serialization_failure).
     */
    public static final String SERIALIZATION_FAILURE = "40001";
    /**
     * The node that decides a transaction's commit did not answer in time: the commit may or may
     * not have happened, and is settled when that node is back (statement_completion_unknown).
     */
    public static final String COMPLETION_UNKNOWN = "40003";
    public static final String GENERAL = "HY000";

    private final String sqlState;

    public SqlException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public SqlException(String sqlState, String message, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    public String sqlState() {
        return sqlState;
    }

    /** "not supported yet: &lt;construct&gt; at line L:C". */
    public static SqlException notSupported(String construct, int line, int column) {
        return new SqlException(NOT_SUPPORTED, "not supported yet: " + construct + " at line " + line + ":" + column);
    }
}
