package org.oooengine.hive.server;

import java.util.List;
import java.util.Map;
import org.apache.hive.service.rpc.thrift.TColumnDesc;
import org.apache.hive.service.rpc.thrift.TPrimitiveTypeEntry;
import org.apache.hive.service.rpc.thrift.TTypeDesc;
import org.apache.hive.service.rpc.thrift.TTypeEntry;
import org.apache.hive.service.rpc.thrift.TTypeId;
import org.apache.hive.service.rpc.thrift.TTypeQualifierValue;
import org.apache.hive.service.rpc.thrift.TTypeQualifiers;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlType;

/**
 * A result column as the HiveServer2 protocol describes it. Metadata results need types (TINYINT,
 * SMALLINT) that SqlType does not have, hence a type of our own rather than ResultColumn.
 *
 * @param precision DECIMAL precision or VARCHAR/CHAR length; 0 when not applicable
 */
record WireColumn(String name, TTypeId type, int precision, int scale, String comment) {
    static WireColumn of(ResultColumn column) {
        SqlType t = column.type();
        return new WireColumn(column.name(), WireTypes.thriftType(t), t.precision(), t.scale(), column.comment());
    }

    static WireColumn string(String name) {
        return new WireColumn(name, TTypeId.STRING_TYPE, 0, 0, null);
    }

    static WireColumn integer(String name) {
        return new WireColumn(name, TTypeId.INT_TYPE, 0, 0, null);
    }

    static WireColumn smallint(String name) {
        return new WireColumn(name, TTypeId.SMALLINT_TYPE, 0, 0, null);
    }

    static WireColumn tinyint(String name) {
        return new WireColumn(name, TTypeId.TINYINT_TYPE, 0, 0, null);
    }

    static WireColumn bool(String name) {
        return new WireColumn(name, TTypeId.BOOLEAN_TYPE, 0, 0, null);
    }

    /**
     * The descriptor the driver reads: exactly one primitive entry, and the qualifiers without
     * which it reports wrong precisions (or fails, for DECIMAL).
     */
    TColumnDesc toThrift(int position) {
        TPrimitiveTypeEntry entry = new TPrimitiveTypeEntry(type);
        switch (type) {
            case DECIMAL_TYPE -> entry.setTypeQualifiers(new TTypeQualifiers(Map.of(
                    "precision", TTypeQualifierValue.i32Value(precision),
                    "scale", TTypeQualifierValue.i32Value(scale))));
            case VARCHAR_TYPE, CHAR_TYPE -> entry.setTypeQualifiers(new TTypeQualifiers(Map.of(
                    "characterMaximumLength", TTypeQualifierValue.i32Value(precision))));
            default -> { }
        }
        TColumnDesc desc = new TColumnDesc(name, new TTypeDesc(List.of(TTypeEntry.primitiveEntry(entry))), position);
        if (comment != null && !comment.isEmpty()) {
            desc.setComment(comment);
        }
        return desc;
    }
}
