package org.oooengine.hive.sql;

/**
 * A statement failed. The SQLSTATE tells clients the class of error (42000 syntax or access
 * rule, 42S02 unknown table, 0A000 not supported, HY008 cancelled, 08S01 communication, HY000
 * other); the message tells the user what and where.
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
    public static final String COMMUNICATION = "08S01";
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
