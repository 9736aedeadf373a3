package org.oooengine.hive.metastore;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.oooengine.core.sql.SqlType;

/**
 * Hive's column types, as the metastore spells them, to SQL types. The primitive types the
 * engine holds map: boolean, tinyint, smallint, int, bigint, float, double, decimal(p,s) up to
 * precision 38, date, timestamp, string, varchar(n), char(n). Any other (binary, the complex
 * types, interval, timestamp with local time zone) is refused by name.
 */
final class HiveColumnTypes {
    private static final Pattern SIMPLE = Pattern.compile("([a-z_]+)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");
    /** Hive's DECIMAL without precision and scale. */
    private static final int DEFAULT_DECIMAL_PRECISION = 10;

    private HiveColumnTypes() {
    }

    /** The SQL type of a column of Hive type {@code hiveType}; IllegalArgumentException "type ... not supported yet" otherwise. */
    static SqlType sqlType(String hiveType) {
        String spelled = hiveType.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(spelled);
        if (!m.matches()) {
            throw unsupported(spelled);
        }
        int first = m.group(2) == null ? -1 : Integer.parseInt(m.group(2));
        int second = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        SqlType type = switch (m.group(1)) {
            case "boolean" -> SqlType.BOOLEAN;
            case "tinyint" -> SqlType.TINYINT;
            case "smallint" -> SqlType.SMALLINT;
            case "int", "integer" -> SqlType.INT;
            case "bigint" -> SqlType.BIGINT;
            case "float" -> SqlType.FLOAT;
            case "double" -> SqlType.DOUBLE;
            case "decimal", "numeric" -> SqlType.decimal(first < 0 ? DEFAULT_DECIMAL_PRECISION : first, second);
            case "date" -> SqlType.DATE;
            case "timestamp" -> SqlType.TIMESTAMP;
            case "string" -> SqlType.STRING;
            case "varchar" -> SqlType.varchar(length(first, spelled));
            case "char" -> SqlType.fixedChar(length(first, spelled));
            default -> throw unsupported(spelled);
        };
        if (type.kind() == SqlType.Kind.DECIMAL && first > SqlType.MAX_PRECISION) {
            throw new IllegalArgumentException("type " + spelled + " not supported (precision above "
                    + SqlType.MAX_PRECISION + ", as in Hive)");
        }
        return type;
    }

    private static int length(int declared, String spelled) {
        if (declared <= 0) {
            throw new IllegalArgumentException("type " + spelled + " has no length");
        }
        return declared;
    }

    private static IllegalArgumentException unsupported(String spelled) {
        return new IllegalArgumentException("type " + spelled + " not supported yet");
    }
}
