package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.oooengine.core.fragment.ColumnRanges;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.TypeKind;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;

/**
 * The rows of a Parquet file's row groups whose middle lies in a byte range (as Hadoop's Parquet
 * input format assigns them to splits), decoded a column at a time into vectors by Parquet's own
 * column readers, with no record assembly and no boxing. Columns match the table's by name,
 * ignoring case, as Hive matches them; a column the file lacks reads as NULL. Values become the
 * engine's stored values ({@link StoredVectors}): INT32 (and its 8 and 16 bit kinds) as INT or
 * BIGINT, INT64, FLOAT and DOUBLE, BOOLEAN, strings, DATE, DECIMAL in any physical form
 * (rescaled to the table's scale), and timestamps in INT64 (milli, micro or nanoseconds) or
 * Hive's and Spark's INT96, taken as the local date-time they hold.
 */
final class ParquetColumns {
    private final Path path;
    private final List<String> names;
    private final List<DataType> types;
    private final boolean[] wanted;

    /** Reads the {@code wanted} of the table's columns {@code names} of {@code types} from the file at {@code path}. */
    ParquetColumns(Path path, List<String> names, List<DataType> types, boolean[] wanted) {
        this.path = path;
        this.names = names;
        this.types = types;
        this.wanted = wanted;
    }

    /**
     * Hands {@code batches} the rows of the row groups in {@code [start, start + length)} but
     * those whose column ranges {@code skip} accepts, a batch of at most {@link Pipeline#BATCH_ROWS} at a time, a vector per table column (null
     * for those not wanted), until it returns false.
     */
    void read(Configuration conf, long start, long length, GroupFilter skip, Predicate<Batch> batches)
            throws IOException {
        ParquetReadOptions options = HadoopReadOptions.builder(conf, path)
                .usePageChecksumVerification(true).build(); // pages written with a CRC are checked against it
        ParquetMetadata footer = ParquetFooters.of(path.getFileSystem(conf).getFileStatus(path), conf, options);
        try (ParquetFileReader reader = new ParquetFileReader(conf, path, footer, options)) {
            MessageType file = reader.getFileMetaData().getSchema();
            Map<String, Type> byName = new HashMap<>();
            file.getFields().forEach(f -> byName.putIfAbsent(f.getName().toLowerCase(Locale.ROOT), f));
            List<Type> read = new ArrayList<>();
            List<Integer> tableColumns = new ArrayList<>();
            for (int c = 0; c < names.size(); c++) {
                Type field = byName.get(names.get(c).toLowerCase(Locale.ROOT));
                if (wanted[c] && field != null) {
                    if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
                        throw new IllegalStateException(path + ": column " + field.getName() + " is " + field
                                + ", not a value the table's " + types.get(c) + " can hold");
                    }
                    read.add(field);
                    tableColumns.add(c);
                }
            }
            MessageType requested = new MessageType(file.getName(), read);
            reader.setRequestedSchema(requested);
            ParquetFill[] fills = new ParquetFill[read.size()];
            for (int f = 0; f < fills.length; f++) {
                fills[f] = fill(read.get(f).asPrimitiveType(), types.get(tableColumns.get(f)));
            }
            for (BlockMetaData block : List.copyOf(reader.getRowGroups())) {
                if (!ParquetFooters.inSplit(block, start, length) || skip.test(ranges(block, reader))) {
                    reader.skipNextRowGroup();
                    continue;
                }
                PageReadStore group;
                try {
                    group = reader.readNextRowGroup();
                } catch (RuntimeException e) { // a page's checksum or header
                    throw new IllegalStateException("cannot read the row group at byte " + block.getStartingPos()
                            + " of " + path + ": " + e.getMessage(), e);
                }
                ParquetColumnChunk[] chunks = new ParquetColumnChunk[fills.length];
                for (int f = 0; f < fills.length; f++) {
                    ColumnDescriptor d = requested.getColumns().get(f);
                    chunks[f] = new ParquetColumnChunk(path + ", column " + read.get(f).getName(), d, group.getPageReader(d));
                }
                long left = group.getRowCount();
                while (left > 0) {
                    int n = (int) Math.min(left, Pipeline.BATCH_ROWS);
                    Vector[] vectors = new Vector[types.size()];
                    for (int f = 0; f < fills.length; f++) {
                        vectors[tableColumns.get(f)] = fills[f].start(n);
                        chunks[f].read(fills[f], n);
                    }
                    for (int c = 0; c < types.size(); c++) {
                        if (wanted[c] && vectors[c] == null) {
                            vectors[c] = StoredVectors.constant(null, types.get(c), n); // the file lacks it: NULL
                        }
                    }
                    if (!batches.test(Batch.of(vectors, n))) {
                        return;
                    }
                    left -= n;
                }
            }
        }
    }

    /**
     * The ranges of the table's columns in a row group, as its column chunks' statistics give them,
     * and what their bloom filters say of a value, read when a filter asks.
     */
    private ColumnRanges ranges(BlockMetaData block, ParquetFileReader reader) {
        Map<String, ColumnChunkMetaData> chunks = new HashMap<>();
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getPath().size() == 1) {
                chunks.putIfAbsent(chunk.getPath().toDotString().toLowerCase(Locale.ROOT), chunk);
            }
        }
        List<FileFacts.Range> ranges = new ArrayList<>();
        ColumnChunkMetaData[] byColumn = new ColumnChunkMetaData[names.size()];
        for (String name : names) {
            ColumnChunkMetaData chunk = chunks.get(name.toLowerCase(Locale.ROOT));
            byColumn[ranges.size()] = chunk;
            ranges.add(chunk == null ? null : FileFacts.parquetRange(name, ranges.size(), chunk));
        }
        ColumnRanges stored = FileFacts.asStored(ranges, types);
        return new ColumnRanges() {
            @Override
            public boolean has(int column) {
                return stored.has(column);
            }

            @Override
            public long min(int column) {
                return stored.min(column);
            }

            @Override
            public long max(int column) {
                return stored.max(column);
            }

            @Override
            public boolean mayHold(int column, Object value) {
                // a column past the file's (a partition's value) has no filter here
                return column >= byColumn.length
                        || ParquetBloomFilters.mayHold(reader, block, byColumn[column], types.get(column), value);
            }
        };
    }

    /** Decodes one file column into vectors of the table column's {@code type}, refusing a pairing of types that loses meaning. */
    private ParquetFill fill(PrimitiveType field, DataType type) {
        LogicalTypeAnnotation logical = field.getLogicalTypeAnnotation();
        PrimitiveType.PrimitiveTypeName physical = field.getPrimitiveTypeName();
        boolean decimal = logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
        switch (type.kind()) {
            case BOOLEAN -> {
                if (physical == PrimitiveType.PrimitiveTypeName.BOOLEAN) {
                    return new ParquetFill.BoolFill();
                }
            }
            case INT, BIGINT -> {
                if (!decimal && (physical == PrimitiveType.PrimitiveTypeName.INT32
                        || physical == PrimitiveType.PrimitiveTypeName.INT64 && type.kind() == TypeKind.BIGINT)
                        && (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
                    return new ParquetFill.LongFill();
                }
            }
            case DOUBLE -> {
                if (physical == PrimitiveType.PrimitiveTypeName.DOUBLE || physical == PrimitiveType.PrimitiveTypeName.FLOAT) {
                    return new ParquetFill.DoubleFill();
                }
            }
            case CHAR, VARCHAR -> {
                if (physical == PrimitiveType.PrimitiveTypeName.BINARY
                        && (logical == null || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation)) {
                    return new ParquetFill.StringFill();
                }
            }
            case DATE -> {
                if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    return new ParquetFill.LongFill();
                }
            }
            case DECIMAL -> {
                if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
                    return type.isWideDecimal() ? new ParquetFill.WideDecimalFill(d.getScale(), type.scale())
                            : new ParquetFill.DecimalFill(d.getScale(), type.scale());
                }
            }
            case TIMESTAMP -> {
                if (physical == PrimitiveType.PrimitiveTypeName.INT96) {
                    return new ParquetFill.Int96TimestampFill();
                }
                if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t) {
                    return new ParquetFill.TimestampFill(t.getUnit());
                }
            }
            default -> {
            }
        }
        throw new IllegalStateException(path + ": column " + field.getName() + " is Parquet " + field
                + ", which the table's " + type + " cannot hold");
    }
}
