package org.oooengine.mapreduce;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.TypeKind;

/**
 * What a Parquet column chunk's bloom filter says of a value: whether the row group may hold it.
 * Asked of the columns whose file values are the table's — integers and dates (INT32 and INT64
 * without a decimal scale) and strings — hashed as the writer hashed them; every other column, and
 * a chunk written without a filter, may hold any value.
 */
final class ParquetBloomFilters {
    private ParquetBloomFilters() {
    }

    /** @param value a stored integer or date ({@code Long}), or a string */
    static boolean mayHold(ParquetFileReader reader, BlockMetaData block, ColumnChunkMetaData chunk, DataType type,
                           Object value) {
        if (chunk == null || chunk.getBloomFilterOffset() < 0) {
            return true;
        }
        Object written = asWritten(chunk.getPrimitiveType(), type, value);
        if (written == null) {
            return true;
        }
        BloomFilter filter;
        try {
            filter = reader.getBloomFilterDataReader(block).readBloomFilter(chunk);
        } catch (RuntimeException e) {
            throw new UncheckedIOException(new IOException("cannot read the bloom filter of column " + chunk.getPath()
                    + " in the row group at byte " + block.getStartingPos() + ": " + e.getMessage(), e));
        }
        return filter == null || filter.findHash(filter.hash(written));
    }

    /** {@code value} as the file column holds it (an Integer, Long or Binary), or null where it is not one of its values. */
    private static Object asWritten(PrimitiveType column, DataType type, Object value) {
        PrimitiveType.PrimitiveTypeName physical = column.getPrimitiveTypeName();
        LogicalTypeAnnotation logical = column.getLogicalTypeAnnotation();
        if (value instanceof String s) {
            boolean string = physical == PrimitiveType.PrimitiveTypeName.BINARY && (logical == null
                    || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                    || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation);
            return string && type.isString() ? Binary.fromString(s) : null;
        }
        if (!(value instanceof Long v)) {
            return null;
        }
        boolean integer = (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)
                && (type.kind() == TypeKind.INT || type.kind() == TypeKind.BIGINT);
        boolean date = logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation && type.kind() == TypeKind.DATE;
        if (physical == PrimitiveType.PrimitiveTypeName.INT64 && integer) {
            return v;
        }
        if (physical == PrimitiveType.PrimitiveTypeName.INT32 && (integer || date)) {
            // beyond an INT32's values: the column's range says so
            return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? Integer.valueOf(v.intValue()) : null;
        }
        return null;
    }
}
