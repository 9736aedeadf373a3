package org.oooengine.hive.server;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hive.service.rpc.thrift.TBoolColumn;
import org.apache.hive.service.rpc.thrift.TByteColumn;
import org.apache.hive.service.rpc.thrift.TColumn;
import org.apache.hive.service.rpc.thrift.TDoubleColumn;
import org.apache.hive.service.rpc.thrift.TI16Column;
import org.apache.hive.service.rpc.thrift.TI32Column;
import org.apache.hive.service.rpc.thrift.TI64Column;
import org.apache.hive.service.rpc.thrift.TProtocolVersion;
import org.apache.hive.service.rpc.thrift.TRowSet;
import org.apache.hive.service.rpc.thrift.TStringColumn;
import org.apache.hive.service.rpc.thrift.TTypeId;

/**
 * Encodes rows as a column-based TRowSet (protocol V6+; {@link RowBasedRowSet} before): one TColumn per result column, a value
 * (or placeholder) per row, and a null bitmap with row i at bit i%8 of byte i/8 (LSB first).
 * DECIMAL and DATE travel as strings, as the driver parses them.
 */
final class RowSetWriter {
    private RowSetWriter() {
    }

    /** The rows in the layout {@code protocol} expects: row-based before V6, column-based from V6. */
    static TRowSet write(TProtocolVersion protocol, List<WireColumn> columns, List<Object[]> rows, long startRowOffset) {
        return ProtocolVersions.columnar(protocol) ? write(columns, rows, startRowOffset)
                : RowBasedRowSet.write(columns, rows, startRowOffset);
    }

    static TRowSet write(List<WireColumn> columns, List<Object[]> rows, long startRowOffset) {
        // "rows" is a required field of the row-based layout; column-based sets send it empty.
        TRowSet rowSet = new TRowSet(startRowOffset, new ArrayList<>());
        List<TColumn> encoded = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            encoded.add(column(columns.get(c), rows, c));
        }
        rowSet.setColumns(encoded);
        return rowSet;
    }

    private static TColumn column(WireColumn column, List<Object[]> rows, int index) {
        ByteBuffer nulls = nullBitmap(rows, index);
        return switch (column.type()) {
            case BOOLEAN_TYPE -> TColumn.boolVal(new TBoolColumn(values(rows, index, false, v -> (Boolean) v), nulls));
            case TINYINT_TYPE -> TColumn.byteVal(new TByteColumn(values(rows, index, (byte) 0, v -> ((Number) v).byteValue()), nulls));
            case SMALLINT_TYPE -> TColumn.i16Val(new TI16Column(values(rows, index, (short) 0, v -> ((Number) v).shortValue()), nulls));
            case INT_TYPE -> TColumn.i32Val(new TI32Column(values(rows, index, 0, v -> ((Number) v).intValue()), nulls));
            case BIGINT_TYPE -> TColumn.i64Val(new TI64Column(values(rows, index, 0L, v -> ((Number) v).longValue()), nulls));
            // a float goes as the double its text reads as, as HiveServer2 sends it: 0.1, not 0.10000000149011612
            case FLOAT_TYPE -> TColumn.doubleVal(new TDoubleColumn(values(rows, index, 0.0,
                    v -> Double.parseDouble(Float.toString(((Number) v).floatValue()))), nulls));
            case DOUBLE_TYPE -> TColumn.doubleVal(new TDoubleColumn(values(rows, index, 0.0, v -> ((Number) v).doubleValue()), nulls));
            default -> TColumn.stringVal(new TStringColumn(values(rows, index, "", v -> text(column, v)), nulls));
        };
    }

    private interface Converter<T> {
        T convert(Object value);
    }

    private static <T> List<T> values(List<Object[]> rows, int index, T placeholder, Converter<T> converter) {
        List<T> values = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object value = row[index];
            values.add(value == null ? placeholder : converter.convert(value));
        }
        return values;
    }

    /**
     * A value of a column sent as text: DECIMAL at the column's scale, an array or map as the JSON
     * text HiveServer2 sends, anything else as it prints.
     */
    static String text(WireColumn column, Object value) {
        if (value instanceof java.util.List || value instanceof java.util.Map) {
            return org.oooengine.core.sql.expr.Values.json(value);
        }
        if (value instanceof java.time.LocalDateTime t) {
            return org.oooengine.core.types.LocalTimestamps.format(t); // the driver reads it with Timestamp.valueOf
        }
        return column.type() == TTypeId.DECIMAL_TYPE
                ? decimalText(value, column.scale()) : String.valueOf(value);
    }

    /** The driver makes BigDecimals of these strings; plain notation at the column's scale, like Hive. */
    private static String decimalText(Object value, int scale) {
        BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
        return (decimal.scale() == scale ? decimal : decimal.setScale(scale, RoundingMode.HALF_UP)).toPlainString();
    }

    private static ByteBuffer nullBitmap(List<Object[]> rows, int index) {
        byte[] bits = null;
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i)[index] == null) {
                if (bits == null) {
                    bits = new byte[(rows.size() + 7) / 8];
                }
                bits[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return ByteBuffer.wrap(bits == null ? new byte[0] : bits);
    }
}
