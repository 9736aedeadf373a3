package org.oooengine.hive.files;

import org.oooengine.core.types.DataType;
import org.oooengine.core.sql.SqlType;

/** The stored type a file column is parsed into, for each SQL column type a table in files can have. */
public final class StoredTypes {
    /** The widest DECIMAL, as in Hive. */
    public static final int MAX_DECIMAL_PRECISION = DataType.MAX_DECIMAL_PRECISION;

    private StoredTypes() {
    }

    /** The stored type of {@code type}; refuses (IllegalArgumentException) one no stored type holds. */
    public static DataType of(SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case TINYINT, SMALLINT, INT -> DataType.INT;
            case BIGINT -> DataType.BIGINT;
            case FLOAT, DOUBLE -> DataType.DOUBLE;
            case DECIMAL -> {
                if (type.precision() > MAX_DECIMAL_PRECISION) {
                    throw new IllegalArgumentException("type " + type + " not supported (precision above "
                            + MAX_DECIMAL_PRECISION + ", as in Hive)");
                }
                yield DataType.decimal(type.precision(), type.scale());
            }
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case STRING -> DataType.varchar(0);
            case VARCHAR -> DataType.varchar(type.precision());
            case CHAR -> DataType.fixedChar(type.precision());
            case INTERVAL, VOID, ARRAY, MAP -> throw new IllegalArgumentException("type " + type + " cannot be stored");
        };
    }
}
