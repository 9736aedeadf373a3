package org.oooengine.mapreduce;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.types.DataType;
import org.oooengine.core.settings.JobKeys;

/**
 * Rows in Hive's default text format (LazySimpleSerDe without escaping): one row per line,
 * fields separated by Ctrl-A ({@code \001}), NULL as {@code \N}, dates as ISO dates, decimals in
 * plain notation. A table may name another field delimiter or NULL text (Hive's
 * {@code field.delim} and {@code serialization.null.format}). A string holding the delimiter or a
 * line break cannot be written unescaped, so it is refused rather than written as a corrupt row.
 */
public final class HiveText {
    public static final char FIELD_DELIMITER = '\001';
    public static final String NULL = "\\N";
    /** The delimiter as its character code: a job's configuration is XML, which cannot hold control characters. */
    private static final String DELIMITER_CODE = JobKeys.TABLE_TEXT_DELIMITER_CODE.name();
    /** The NULL text in quotes: a job's configuration drops an empty value, and '' is a common NULL text. */
    private static final String QUOTED_NULL_TEXT = JobKeys.TABLE_TEXT_NULL_QUOTED.name();

    private final List<DataType> types;
    private final char delimiter;
    private final String nullText;

    public HiveText(List<DataType> types) {
        this(types, FIELD_DELIMITER, NULL);
    }

    public HiveText(List<DataType> types, char delimiter, String nullText) {
        this.types = List.copyOf(types);
        this.delimiter = delimiter;
        this.nullText = nullText;
    }

    /** The text format of a table whose schema the job lists (see {@link TableSchemas}), in its layout ({@link #setLayout}). */
    public static HiveText of(Configuration conf, String table) {
        String quotedNull = conf.get(QUOTED_NULL_TEXT + table);
        return new HiveText(TableSchemas.types(conf, table), (char) conf.getInt(DELIMITER_CODE + table, FIELD_DELIMITER),
                quotedNull == null ? NULL : quotedNull.substring(1, quotedNull.length() - 1));
    }

    /** Has a job read {@code table}'s text files with this field delimiter and NULL text rather than Hive's defaults. */
    public static void setLayout(Configuration conf, String table, char delimiter, String nullText) {
        conf.setInt(DELIMITER_CODE + table, delimiter);
        conf.set(QUOTED_NULL_TEXT + table, "'" + nullText + "'");
    }

    public String format(Object[] row) {
        StringBuilder b = new StringBuilder(16 * row.length);
        for (int i = 0; i < row.length; i++) {
            if (i > 0) {
                b.append(delimiter);
            }
            if (row[i] == null) {
                b.append(nullText);
                continue;
            }
            String text = types.get(i).format(row[i]);
            if (text.indexOf(delimiter) >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("column " + (i + 1) + " holds a field delimiter or line break, "
                        + "which Hive's unescaped text format cannot carry: " + text);
            }
            b.append(text);
        }
        return b.toString();
    }

    /** The row a line holds; {@code where} names the line in errors (file and offset or line number). */
    public Object[] parse(String line, String where) {
        Object[] row = new Object[types.size()];
        int start = 0;
        for (int i = 0; i < row.length; i++) {
            int end = line.indexOf(delimiter, start);
            if (end < 0) {
                if (i != row.length - 1) {
                    throw new IllegalArgumentException(where + ": " + (i + 1) + " fields where " + row.length
                            + " were expected");
                }
                end = line.length();
            } else if (i == row.length - 1) {
                throw new IllegalArgumentException(where + ": more than the " + row.length + " fields expected");
            }
            String field = line.substring(start, end);
            try {
                row[i] = field.equals(nullText) ? null : types.get(i).parseValue(field);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ", field " + (i + 1) + ": " + e.getMessage(), e);
            }
            start = end + 1;
        }
        return row;
    }
}
