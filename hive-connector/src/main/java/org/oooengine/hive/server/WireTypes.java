package org.oooengine.hive.server;

import java.sql.Types;
import org.apache.hive.service.rpc.thrift.TTypeId;
import org.oooengine.core.sql.SqlType;

/** How our SQL types appear to JDBC clients: protocol type ids, java.sql.Types codes and sizes. */
final class WireTypes {
    private WireTypes() {
    }

    static TTypeId thriftType(SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> TTypeId.BOOLEAN_TYPE;
            case TINYINT -> TTypeId.TINYINT_TYPE;
            case SMALLINT -> TTypeId.SMALLINT_TYPE;
            case INT -> TTypeId.INT_TYPE;
            case FLOAT -> TTypeId.FLOAT_TYPE;
            case BIGINT -> TTypeId.BIGINT_TYPE;
            case DOUBLE -> TTypeId.DOUBLE_TYPE;
            case DECIMAL -> TTypeId.DECIMAL_TYPE;
            case DATE -> TTypeId.DATE_TYPE;
            case TIMESTAMP -> TTypeId.TIMESTAMP_TYPE;
            case VARCHAR -> TTypeId.VARCHAR_TYPE;
            case CHAR -> TTypeId.CHAR_TYPE;
            case VOID -> TTypeId.NULL_TYPE;
            // Intervals (java.time.Period) would not parse as Hive interval strings on the client.
            case STRING, INTERVAL -> TTypeId.STRING_TYPE;
            // as HiveServer2 describes them; their values travel as JSON text in a string column
            case ARRAY -> TTypeId.ARRAY_TYPE;
            case MAP -> TTypeId.MAP_TYPE;
        };
    }

    static int jdbcType(SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Types.BOOLEAN;
            case TINYINT -> Types.TINYINT;
            case SMALLINT -> Types.SMALLINT;
            case INT -> Types.INTEGER;
            case FLOAT -> Types.FLOAT;
            case BIGINT -> Types.BIGINT;
            case DOUBLE -> Types.DOUBLE;
            case DECIMAL -> Types.DECIMAL;
            case DATE -> Types.DATE;
            case TIMESTAMP -> Types.TIMESTAMP;
            case STRING, VARCHAR -> Types.VARCHAR;
            case CHAR -> Types.CHAR;
            case VOID -> Types.NULL;
            case INTERVAL -> Types.OTHER;
            case ARRAY -> Types.ARRAY; // as Hive's driver reports them
            case MAP -> Types.JAVA_OBJECT;
        };
    }

    /** JDBC COLUMN_SIZE: digits for numbers, characters for strings and dates; null when meaningless. */
    static Integer columnSize(SqlType type) {
        return switch (type.kind()) {
            case TINYINT -> 3;
            case SMALLINT -> 5;
            case INT -> 10;
            case BIGINT -> 19;
            case FLOAT -> 7;
            case DOUBLE -> 15;
            case DECIMAL, VARCHAR, CHAR -> type.precision();
            case DATE -> 10;
            case TIMESTAMP -> 29; // yyyy-MM-dd HH:mm:ss.fffffffff
            case STRING -> Integer.MAX_VALUE;
            case BOOLEAN, VOID, INTERVAL, ARRAY, MAP -> null;
        };
    }

    /** JDBC DECIMAL_DIGITS: digits right of the point; null for non-numeric types. */
    static Integer decimalDigits(SqlType type) {
        return switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> 0;
            case FLOAT -> 7;
            case DOUBLE -> 15;
            case DECIMAL -> type.scale();
            case TIMESTAMP -> 9;
            default -> null;
        };
    }

    static Integer radix(SqlType type) {
        return type.isNumeric() ? 10 : null;
    }
}
