package org.oooengine.hive.server;

import java.util.ArrayList;
import java.util.List;
import org.apache.hive.service.rpc.thrift.TBoolValue;
import org.apache.hive.service.rpc.thrift.TByteValue;
import org.apache.hive.service.rpc.thrift.TColumnValue;
import org.apache.hive.service.rpc.thrift.TDoubleValue;
import org.apache.hive.service.rpc.thrift.TI16Value;
import org.apache.hive.service.rpc.thrift.TI32Value;
import org.apache.hive.service.rpc.thrift.TI64Value;
import org.apache.hive.service.rpc.thrift.TRow;
import org.apache.hive.service.rpc.thrift.TRowSet;
import org.apache.hive.service.rpc.thrift.TStringValue;

/**
 * Encodes rows as a row-based TRowSet, the layout of protocol V1 to V5: one TRow per row, one
 * TColumnValue per cell. A NULL is the cell's value struct with its value left unset, which is
 * how clients of those versions recognise it. Values are converted as in the columnar layout.
 */
final class RowBasedRowSet {
    private RowBasedRowSet() {
    }

    static TRowSet write(List<WireColumn> columns, List<Object[]> rows, long startRowOffset) {
        List<TRow> encoded = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            List<TColumnValue> cells = new ArrayList<>(columns.size());
            for (int c = 0; c < columns.size(); c++) {
                cells.add(cell(columns.get(c), row[c]));
            }
            encoded.add(new TRow(cells));
        }
        return new TRowSet(startRowOffset, encoded);
    }

    private static TColumnValue cell(WireColumn column, Object value) {
        // Value structs are created empty and filled only for a non-NULL value.
        return switch (column.type()) {
            case BOOLEAN_TYPE -> {
                TBoolValue v = new TBoolValue();
                if (value != null) {
                    v.setValue((Boolean) value);
                }
                yield TColumnValue.boolVal(v);
            }
            case TINYINT_TYPE -> {
                TByteValue v = new TByteValue();
                if (value != null) {
                    v.setValue(((Number) value).byteValue());
                }
                yield TColumnValue.byteVal(v);
            }
            case SMALLINT_TYPE -> {
                TI16Value v = new TI16Value();
                if (value != null) {
                    v.setValue(((Number) value).shortValue());
                }
                yield TColumnValue.i16Val(v);
            }
            case INT_TYPE -> {
                TI32Value v = new TI32Value();
                if (value != null) {
                    v.setValue(((Number) value).intValue());
                }
                yield TColumnValue.i32Val(v);
            }
            case BIGINT_TYPE -> {
                TI64Value v = new TI64Value();
                if (value != null) {
                    v.setValue(((Number) value).longValue());
                }
                yield TColumnValue.i64Val(v);
            }
            case FLOAT_TYPE, DOUBLE_TYPE -> {
                TDoubleValue v = new TDoubleValue();
                if (value != null) {
                    v.setValue(((Number) value).doubleValue());
                }
                yield TColumnValue.doubleVal(v);
            }
            default -> {
                TStringValue v = new TStringValue();
                if (value != null) {
                    v.setValue(RowSetWriter.text(column, value));
                }
                yield TColumnValue.stringVal(v);
            }
        };
    }
}
