package org.oooengine.mapreduce;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.orc.ColumnStatistics;
import org.apache.orc.DateColumnStatistics;
import org.apache.orc.DecimalColumnStatistics;
import org.apache.orc.IntegerColumnStatistics;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.oooengine.core.types.DataType;

/**
 * What the optimizer learns of a warehouse file without reading its rows: how many it holds
 * ({@link FileRowCounts}) and, from an ORC or Parquet footer, the least and greatest value of its
 * integer, date and decimal columns, in the file's column order; and, of a Parquet file, the
 * columns {@code ordered} in its row groups (each group's values at or above the last one's).
 */
public record FileFacts(long rows, List<Range> ranges, List<String> ordered) {
    /** No range of any column. */
    static final org.oooengine.core.fragment.ColumnRanges NO_RANGES = new org.oooengine.core.fragment.ColumnRanges() {
        @Override
        public boolean has(int column) {
            return false;
        }

        @Override
        public long min(int column) {
            throw new IllegalStateException("no range");
        }

        @Override
        public long max(int column) {
            throw new IllegalStateException("no range");
        }
    };

    /**
     * The columns' ranges as the table columns of {@code types} store them, {@code ranges.get(c)}
     * being table column c's range in the file (null: none).
     */
    static org.oooengine.core.fragment.ColumnRanges asStored(List<Range> ranges, List<DataType> types) {
        long[][] stored = new long[types.size()][];
        for (int c = 0; c < stored.length; c++) {
            stored[c] = c < ranges.size() && ranges.get(c) != null ? ranges.get(c).asStored(types.get(c)) : null;
        }
        return new org.oooengine.core.fragment.ColumnRanges() {
            @Override
            public boolean has(int column) {
                return column < stored.length && stored[column] != null;
            }

            @Override
            public long min(int column) {
                return stored[column][0];
            }

            @Override
            public long max(int column) {
                return stored[column][1];
            }
        };
    }

    /** What a column's values are, for the range to be read in a table column's terms. */
    public enum Kind { INTEGER, DATE, DECIMAL }

    /**
     * The least and greatest value of a file column, the {@code position}th: integers, dates as
     * epoch days, decimals unscaled at {@code scale}.
     */
    public record Range(String column, int position, Kind kind, int scale, long min, long max) {
        /**
         * {@code [min, max]} as a table column of {@code type} stores them (a decimal rescaled to
         * its scale), or null when the column's values are not of a kind {@code type} holds.
         */
        public long[] asStored(DataType type) {
            return switch (type.kind()) {
                case INT, BIGINT -> kind == Kind.INTEGER ? new long[] {min, max} : null;
                case DATE -> kind == Kind.DATE ? new long[] {min, max} : null;
                case DECIMAL -> kind == Kind.DECIMAL && scale <= type.scale() && !type.isWideDecimal()
                        ? rescaled(type.scale()) : null;
                default -> null;
            };
        }

        private long[] rescaled(int toScale) {
            long factor = java.math.BigInteger.TEN.pow(toScale - scale).longValueExact();
            try {
                return new long[] {Math.multiplyExact(min, factor), Math.multiplyExact(max, factor)};
            } catch (ArithmeticException tooWide) {
                return null;
            }
        }
    }

    public FileFacts {
        ranges = List.copyOf(ranges);
        ordered = List.copyOf(ordered);
    }

    /** A file in no known order. */
    public FileFacts(long rows, List<Range> ranges) {
        this(rows, ranges, List.of());
    }

    /** The facts of {@code file} in {@code format} ({@code text}, {@code orc}, {@code parquet}). */
    public static FileFacts of(FileStatus file, String format, Configuration conf) throws IOException {
        return switch (format) {
            case "orc" -> {
                try (Reader reader = OrcFile.createReader(file.getPath(),
                        OrcFile.readerOptions(conf).filesystem(file.getPath().getFileSystem(conf)).maxLength(file.getLen()))) {
                    yield new FileFacts(reader.getNumberOfRows(), orcRanges(reader.getSchema(), reader.getStatistics()));
                }
            }
            case "parquet" -> {
                try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromStatus(file, conf))) {
                    List<BlockMetaData> groups = reader.getFooter().getBlocks();
                    yield new FileFacts(reader.getRecordCount(), parquetRanges(groups), orderedColumns(groups));
                }
            }
            default -> new FileFacts(FileRowCounts.rows(file, format, conf), List.of());
        };
    }

    /** The ranges of the file's top-level columns whose every row group says its least and greatest value. */
    private static List<Range> parquetRanges(List<BlockMetaData> groups) {
        Map<String, Range> ranges = new LinkedHashMap<>();
        java.util.Set<String> unknown = new java.util.HashSet<>();
        for (BlockMetaData group : groups) {
            for (ColumnChunkMetaData chunk : group.getColumns()) {
                if (chunk.getPath().size() != 1) {
                    continue; // nested
                }
                String name = chunk.getPath().toDotString();
                Range r = parquetRange(name, group.getColumns().indexOf(chunk), chunk);
                if (r == null) {
                    Statistics<?> s = chunk.getStatistics();
                    if (s == null || s.isEmpty() || s.hasNonNullValue()) {
                        unknown.add(name); // no figures (an all-null chunk says nothing and needs none)
                    }
                } else {
                    ranges.merge(name, r, (a, b) -> new Range(name, a.position(), a.kind(), a.scale(), Math.min(a.min(), b.min()),
                            Math.max(a.max(), b.max())));
                }
            }
        }
        unknown.forEach(ranges::remove);
        return new ArrayList<>(ranges.values());
    }

    /**
     * The top-level columns whose row groups, in the file's order, each say their range, none
     * starting below where the one before ended (TPC-H's lineitem written in order of l_orderkey:
     * an order's lines may end one group and start the next). Splits of such a file each read a
     * range of the column, and rows meeting them can be sent to the splits' nodes alone.
     */
    static List<String> orderedColumns(List<BlockMetaData> groups) {
        if (groups.isEmpty()) {
            return List.of();
        }
        List<String> ordered = new ArrayList<>();
        List<ColumnChunkMetaData> first = groups.get(0).getColumns();
        for (int c = 0; c < first.size(); c++) {
            if (first.get(c).getPath().size() != 1) {
                continue; // nested
            }
            String name = first.get(c).getPath().toDotString();
            long last = Long.MIN_VALUE;
            boolean inOrder = true;
            for (BlockMetaData group : groups) {
                Range r = group.getColumns().size() == first.size() && group.getColumns().get(c).getPath().toDotString().equals(name)
                        ? parquetRange(name, c, group.getColumns().get(c)) : null;
                if (r == null || r.min() < last) {
                    inOrder = false;
                    break;
                }
                last = r.max();
            }
            if (inOrder) {
                ordered.add(name);
            }
        }
        return ordered;
    }

    /**
     * The least and greatest value of column {@code column} (by name, in any case) over the row
     * groups that bytes {@code [start, start + length)} of Parquet file {@code file} read, as a
     * table column of {@code type} stores them: {@code {1, 0}} when they are none; null when one
     * of them does not say (its statistics missing, or all its values null).
     */
    public static long[] splitRange(FileStatus file, Configuration conf, long start, long length, String column,
                                    DataType type) throws IOException {
        ParquetReadOptions options = HadoopReadOptions.builder(conf, file.getPath()).build();
        long[] range = {1, 0};
        for (BlockMetaData group : ParquetFooters.of(file, conf, options).getBlocks()) {
            if (!ParquetFooters.inSplit(group, start, length)) {
                continue;
            }
            long[] r = null;
            List<ColumnChunkMetaData> chunks = group.getColumns();
            for (int c = 0; c < chunks.size(); c++) {
                if (chunks.get(c).getPath().size() == 1 && chunks.get(c).getPath().toDotString().equalsIgnoreCase(column)) {
                    Range found = parquetRange(column, c, chunks.get(c));
                    r = found == null ? null : found.asStored(type);
                    break; // the first of that name, as the reader takes it
                }
            }
            if (r == null) {
                return null;
            }
            range = range[0] > range[1] ? r : new long[] {Math.min(range[0], r[0]), Math.max(range[1], r[1])};
        }
        return range;
    }

    /** The range of a Parquet column chunk's values, or null when its statistics give none of a kind ranges hold. */
    static Range parquetRange(String name, int position, ColumnChunkMetaData chunk) {
        Statistics<?> s = chunk.getStatistics();
        if (s == null || s.isEmpty() || !s.hasNonNullValue()) {
            return null;
        }
        PrimitiveType type = chunk.getPrimitiveType();
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        Kind kind;
        int scale = 0;
        if (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned()) {
            kind = Kind.INTEGER;
        } else if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
            kind = Kind.DATE;
        } else if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            kind = Kind.DECIMAL;
            scale = d.getScale();
        } else {
            return null;
        }
        return switch (type.getPrimitiveTypeName()) {
            case INT32, INT64 -> new Range(name, position, kind, scale, ((Number) s.genericGetMin()).longValue(),
                    ((Number) s.genericGetMax()).longValue());
            default -> null;
        };
    }

    /** The ranges ORC's statistics {@code stats} (of a file or a stripe) give of the columns of {@code schema}. */
    static List<Range> orcRanges(TypeDescription schema, ColumnStatistics[] stats) {
        List<Range> ranges = new ArrayList<>();
        if (schema.getChildren() == null) {
            return ranges;
        }
        for (int c = 0; c < schema.getChildren().size(); c++) {
            TypeDescription column = schema.getChildren().get(c);
            String name = schema.getFieldNames().get(c);
            ColumnStatistics s = column.getId() < stats.length ? stats[column.getId()] : null;
            if (s == null || s.getNumberOfValues() == 0) {
                continue;
            }
            if (s instanceof IntegerColumnStatistics i) {
                ranges.add(new Range(name, c, Kind.INTEGER, 0, i.getMinimum(), i.getMaximum()));
            } else if (s instanceof DateColumnStatistics d) {
                ranges.add(new Range(name, c, Kind.DATE, 0, d.getMinimumDayOfEpoch(), d.getMaximumDayOfEpoch()));
            } else if (s instanceof DecimalColumnStatistics d && d.getMinimum() != null && d.getMaximum() != null) {
                Long min = unscaled(d.getMinimum(), column.getScale());
                Long max = unscaled(d.getMaximum(), column.getScale());
                if (min != null && max != null) {
                    ranges.add(new Range(name, c, Kind.DECIMAL, column.getScale(), min, max));
                }
            }
        }
        return ranges;
    }

    private static Long unscaled(HiveDecimal d, int scale) {
        BigDecimal v = d.bigDecimalValue().setScale(scale, java.math.RoundingMode.UNNECESSARY);
        return v.precision() > 18 ? null : v.unscaledValue().longValueExact();
    }
}
