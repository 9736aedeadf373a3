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
import org.oooengine.core.wire.ColumnarRows;

/**
 * Encodes rows as a column-based TRowSet (protocol V6+; {@link RowBasedRowSet} before): one TColumn per result column, a value
 * (or placeholder) per row, and a null bitmap with row i at bit i%8 of byte i/8 (LSB first).
 * DECIMAL and DATE travel as strings, as the driver parses them. Rows come as pieces of the lists
 * the result was kept in; a piece of a chunk gathered column by column is read from its columns
 * ({@link ColumnarRows.ChunkRows}): integers, doubles and strings as they are, decimals and dates
 * written from their 64-bit values, no row made.
 */
final class RowSetWriter {
    private RowSetWriter() {
    }

    /** The rows in the layout {@code protocol} expects: row-based before V6, column-based from V6. */
    static TRowSet write(TProtocolVersion protocol, List<WireColumn> columns, List<List<Object[]>> pieces,
                         long startRowOffset) {
        return ProtocolVersions.columnar(protocol) ? write(columns, pieces, startRowOffset)
                : RowBasedRowSet.write(columns, RowBatch.rowsOf(pieces), startRowOffset);
    }

    static TRowSet write(List<WireColumn> columns, List<List<Object[]>> pieces, long startRowOffset) {
        // "rows" is a required field of the row-based layout; column-based sets send it empty.
        TRowSet rowSet = new TRowSet(startRowOffset, new ArrayList<>());
        int count = pieces.stream().mapToInt(List::size).sum();
        List<TColumn> encoded = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            encoded.add(column(columns.get(c), pieces, c, count));
        }
        rowSet.setColumns(encoded);
        return rowSet;
    }

    private static TColumn column(WireColumn column, List<List<Object[]>> pieces, int index, int count) {
        ByteBuffer nulls = nullBitmap(pieces, index, count);
        Values v = new Values(pieces, index, count);
        return switch (column.type()) {
            case BOOLEAN_TYPE -> TColumn.boolVal(new TBoolColumn(v.of(false, x -> (Boolean) x, null, null), nulls));
            case TINYINT_TYPE -> TColumn.byteVal(new TByteColumn(v.of((byte) 0, x -> ((Number) x).byteValue(),
                    (l, c) -> (byte) integral(l, c), null), nulls));
            case SMALLINT_TYPE -> TColumn.i16Val(new TI16Column(v.of((short) 0, x -> ((Number) x).shortValue(),
                    (l, c) -> (short) integral(l, c), null), nulls));
            case INT_TYPE -> TColumn.i32Val(new TI32Column(v.of(0, x -> ((Number) x).intValue(), (l, c) -> (int) integral(l, c), null),
                    nulls));
            case BIGINT_TYPE -> TColumn.i64Val(new TI64Column(v.of(0L, x -> ((Number) x).longValue(), RowSetWriter::integral, null),
                    nulls));
            // a float goes as the double its text reads as, as HiveServer2 sends it: 0.1, not 0.10000000149011612
            case FLOAT_TYPE -> TColumn.doubleVal(new TDoubleColumn(v.of(0.0,
                    x -> Double.parseDouble(Float.toString(((Number) x).floatValue())), null, null), nulls));
            case DOUBLE_TYPE -> TColumn.doubleVal(new TDoubleColumn(v.of(0.0, x -> ((Number) x).doubleValue(), null,
                    d -> d), nulls));
            default -> TColumn.stringVal(new TStringColumn(v.of("", x -> text(column, x), (l, c) -> text(column, l, c),
                    null), nulls));
        };
    }

    private interface Converter<T> {
        T convert(Object value);
    }

    /** A value of a chunk's column held as 64-bit values, converted without boxing it. */
    private interface FromLong<T> {
        T convert(long value, ColumnarRows.Column column);
    }

    private interface FromDouble<T> {
        T convert(double value);
    }

    /** One column's values over the pieces of a batch. */
    private record Values(List<List<Object[]>> pieces, int index, int count) {
        /** Each value converted, {@code placeholder} for a null; from a chunk's longs or doubles by the given function where it has one. */
        <T> List<T> of(T placeholder, Converter<T> converter, FromLong<T> fromLong, FromDouble<T> fromDouble) {
            List<T> values = new ArrayList<>(count);
            for (List<Object[]> piece : pieces) {
                ColumnarRows.ChunkRows chunk = ColumnarRows.chunkOf(piece);
                if (chunk == null) {
                    for (Object[] row : piece) {
                        Object value = row[index];
                        values.add(value == null ? placeholder : converter.convert(value));
                    }
                    continue;
                }
                ColumnarRows.Column column = chunk.chunk().columns()[index];
                boolean longs = fromLong != null && column.held() == ColumnarRows.Held.LONGS;
                boolean doubles = fromDouble != null && column.held() == ColumnarRows.Held.DOUBLES;
                for (int i = chunk.from(), end = i + piece.size(); i < end; i++) {
                    if (column.isNull(i)) {
                        values.add(placeholder);
                    } else if (longs) {
                        values.add(fromLong.convert(column.longs()[i], column));
                    } else if (doubles) {
                        values.add(fromDouble.convert(column.doubles()[i]));
                    } else {
                        values.add(converter.convert(column.value(i)));
                    }
                }
            }
            return values;
        }
    }

    /**
     * A value of a column sent as text: DECIMAL at the column's scale, an array or map as the JSON
     * text HiveServer2 sends, anything else as it prints.
     */
    static String text(WireColumn column, Object value) {
        if (value instanceof String s && column.type() != TTypeId.DECIMAL_TYPE) {
            return s; // before the interfaces below, each of which a string fails slowly (see Values.compare)
        }
        if (value instanceof java.util.List || value instanceof java.util.Map) {
            return org.oooengine.core.sql.expr.Values.json(value);
        }
        if (value instanceof java.time.LocalDateTime t) {
            return org.oooengine.core.types.LocalTimestamps.format(t); // the driver reads it with Timestamp.valueOf
        }
        if (value instanceof java.time.LocalDate d) {
            return ValueText.date(d);
        }
        return column.type() == TTypeId.DECIMAL_TYPE
                ? decimalText(value, column.scale()) : String.valueOf(value);
    }

    /** As above, of a chunk's value held as a 64-bit value: a date or decimal written from it as it is. */
    private static String text(WireColumn column, long value, ColumnarRows.Column held) {
        return switch (held.longKind()) {
            case DATE -> ValueText.date(value);
            case DECIMAL -> column.type() == TTypeId.DECIMAL_TYPE ? ValueText.decimal(value, held.scale(), column.scale())
                    : BigDecimal.valueOf(value, held.scale()).toString();
            case INT, LONG -> column.type() == TTypeId.DECIMAL_TYPE ? ValueText.decimal(value, 0, column.scale())
                    : Long.toString(value);
            case TIMESTAMP -> text(column, org.oooengine.core.types.LocalTimestamps.ofMicros(value));
        };
    }

    /** A chunk's 64-bit value as the integer the rows' {@code Number.longValue()} gives. */
    private static long integral(long value, ColumnarRows.Column held) {
        return switch (held.longKind()) {
            case INT, LONG -> value;
            case DECIMAL -> BigDecimal.valueOf(value, held.scale()).longValue();
            case DATE, TIMESTAMP -> ((Number) held.value(0)).longValue(); // not a number: fails as the rows' value would
        };
    }

    /** The driver makes BigDecimals of these strings; plain notation at the column's scale, like Hive. */
    private static String decimalText(Object value, int scale) {
        BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
        return (decimal.scale() == scale ? decimal : decimal.setScale(scale, RoundingMode.HALF_UP)).toPlainString();
    }

    private static ByteBuffer nullBitmap(List<List<Object[]>> pieces, int index, int count) {
        byte[] bits = null;
        int at = 0;
        for (List<Object[]> piece : pieces) {
            ColumnarRows.ChunkRows chunk = ColumnarRows.chunkOf(piece);
            ColumnarRows.Column column = chunk == null ? null : chunk.chunk().columns()[index];
            if (column != null && column.nulls() == null) {
                at += piece.size();
                continue;
            }
            for (int i = 0; i < piece.size(); i++, at++) {
                if (column == null ? piece.get(i)[index] == null : column.isNull(chunk.from() + i)) {
                    if (bits == null) {
                        bits = new byte[(count + 7) / 8];
                    }
                    bits[at / 8] |= (byte) (1 << (at % 8));
                }
            }
        }
        return ByteBuffer.wrap(bits == null ? new byte[0] : bits);
    }
}
