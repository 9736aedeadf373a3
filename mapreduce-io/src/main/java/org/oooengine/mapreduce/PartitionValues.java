package org.oooengine.mapreduce;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.types.DataType;
import org.oooengine.core.settings.JobKeys;

/**
 * The values of the columns a table's files leave out — a Hive partition's, which its directory
 * names — carried in a job's configuration for one set of files ({@link TableFileSplit#setFiles}).
 * Their readers append them to every row, after the columns the files hold.
 */
public final class PartitionValues {
    private static final String TYPES = JobKeys.TABLE_PARTITION_TYPES.name();
    /** Followed by the table and the value's position; no entry stands for NULL. */
    private static final String VALUE = JobKeys.TABLE_PARTITION_VALUE.name();

    private PartitionValues() {
    }

    /** Every row of {@code table}'s files ends with {@code values} (stored values of {@code types}; null for NULL). */
    public static void set(Configuration conf, String table, List<DataType> types, List<Object> values) {
        if (types.size() != values.size()) {
            throw new IllegalArgumentException(values.size() + " partition values for " + types.size() + " columns");
        }
        conf.set(TYPES + table, String.join(";", types.stream().map(DataType::toString).toList()));
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) != null) {
                conf.set(VALUE + table + "." + i, types.get(i).format(values.get(i)));
            }
        }
    }

    /** The values rows of {@code table}'s files end with; none unless {@link #set}. */
    static Object[] of(Configuration conf, String table) {
        String listed = conf.get(TYPES + table);
        if (listed == null || listed.isEmpty()) {
            return new Object[0];
        }
        String[] types = listed.split(";"); // DECIMAL(p,s) holds a comma, not a semicolon
        Object[] values = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            String text = conf.get(VALUE + table + "." + i);
            values[i] = text == null ? null : DataType.parse(types[i]).parseValue(text);
        }
        return values;
    }

    /** {@code fileRow} followed by {@code values}. */
    static Object[] append(Object[] fileRow, Object[] values) {
        if (values.length == 0) {
            return fileRow;
        }
        Object[] row = Arrays.copyOf(fileRow, fileRow.length + values.length);
        System.arraycopy(values, 0, row, fileRow.length, values.length);
        return row;
    }
}
