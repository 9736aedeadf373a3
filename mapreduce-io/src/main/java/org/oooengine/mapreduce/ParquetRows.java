package org.oooengine.mapreduce;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.oooengine.core.types.DataType;

/**
 * The rows of a Parquet file's row groups whose middle lies in a byte range (as Hadoop's Parquet
 * input format assigns them to splits), through Parquet's own reader. Columns match the table's by
 * name, ignoring case, as Hive matches them; a column the file lacks reads as NULL. Values become
 * the engine's stored values: INT32 (and its 8 and 16 bit kinds) as INT or BIGINT, INT64, FLOAT
 * and DOUBLE, BOOLEAN, strings, DATE, DECIMAL in any physical form (rescaled to the table's
 * scale), and timestamps in INT64 (milli, micro or nanoseconds) or Hive's and Spark's INT96,
 * taken as the local date-time they hold.
 */
final class ParquetRows {
    /** Days from the Julian day count's start to 1970-01-01, for INT96 timestamps. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private ParquetRows() {
    }

    /** Hands {@code add} each row (the table's file columns, those not {@code wanted} null) until it returns false. */
    static void read(Configuration conf, Path path, long start, long length, List<String> names, List<DataType> types,
                     boolean[] wanted, int width, Predicate<Object[]> add) throws IOException {
        Support support = new Support(path, names, types, wanted, width);
        try (ParquetReader<Object[]> reader = ParquetReader.builder(support, path).withConf(conf)
                .withFileRange(start, start + length).build()) {
            for (Object[] row = reader.read(); row != null; row = reader.read()) {
                if (!add.test(row)) {
                    return;
                }
            }
        }
    }

    /** Asks the file for the wanted columns only, and turns each record into a row of the table's width. */
    private static final class Support extends ReadSupport<Object[]> {
        private final Path path;
        private final List<String> names;
        private final List<DataType> types;
        private final boolean[] wanted;
        private final int width;

        Support(Path path, List<String> names, List<DataType> types, boolean[] wanted, int width) {
            this.path = path;
            this.names = names;
            this.types = types;
            this.wanted = wanted;
            this.width = width;
        }

        @Override
        public ReadContext init(InitContext context) {
            MessageType file = context.getFileSchema();
            Map<String, Type> byName = new HashMap<>();
            file.getFields().forEach(f -> byName.putIfAbsent(f.getName().toLowerCase(Locale.ROOT), f));
            List<Type> read = new ArrayList<>();
            for (int c = 0; c < names.size(); c++) {
                Type field = byName.get(names.get(c).toLowerCase(Locale.ROOT));
                if (wanted[c] && field != null) {
                    read.add(field);
                }
            }
            return new ReadContext(new MessageType(file.getName(), read));
        }

        @Override
        public RecordMaterializer<Object[]> prepareForRead(Configuration conf, Map<String, String> metadata,
                                                          MessageType fileSchema, ReadContext context) {
            MessageType requested = context.getRequestedSchema();
            Map<String, Integer> columnOf = new HashMap<>();
            for (int c = 0; c < names.size(); c++) {
                columnOf.putIfAbsent(names.get(c).toLowerCase(Locale.ROOT), c);
            }
            Row row = new Row(width);
            Converter[] converters = new Converter[requested.getFieldCount()];
            for (int f = 0; f < converters.length; f++) {
                Type field = requested.getType(f);
                int column = columnOf.get(field.getName().toLowerCase(Locale.ROOT));
                if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
                    throw new IllegalStateException(path + ": column " + field.getName() + " is " + field
                            + ", not a value the table's " + types.get(column) + " can hold");
                }
                converters[f] = converter(field.asPrimitiveType(), types.get(column), column, row);
            }
            GroupConverter root = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return converters[fieldIndex];
                }

                @Override
                public void start() {
                    row.values = new Object[width];
                }

                @Override
                public void end() {
                }
            };
            return new RecordMaterializer<>() {
                @Override
                public Object[] getCurrentRecord() {
                    return row.values;
                }

                @Override
                public GroupConverter getRootConverter() {
                    return root;
                }
            };
        }

        /** Converts one file column's values into the table's column {@code c}, refusing a pairing of types that loses meaning. */
        private PrimitiveConverter converter(PrimitiveType field, DataType type, int c, Row row) {
            LogicalTypeAnnotation logical = field.getLogicalTypeAnnotation();
            PrimitiveType.PrimitiveTypeName physical = field.getPrimitiveTypeName();
            boolean decimal = logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
            switch (type.kind()) {
                case BOOLEAN -> {
                    if (physical == PrimitiveType.PrimitiveTypeName.BOOLEAN) {
                        return new Values(row, c) {
                            @Override
                            public void addBoolean(boolean v) {
                                set(v);
                            }
                        };
                    }
                }
                case INT, BIGINT -> {
                    boolean bigint = type.kind() == org.oooengine.core.types.TypeKind.BIGINT;
                    if (!decimal && (physical == PrimitiveType.PrimitiveTypeName.INT32
                            || physical == PrimitiveType.PrimitiveTypeName.INT64 && bigint)
                            && (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
                        return new Values(row, c) {
                            @Override
                            public void addInt(int v) {
                                set(bigint ? (Object) (long) v : v);
                            }

                            @Override
                            public void addLong(long v) {
                                set(v);
                            }
                        };
                    }
                }
                case DOUBLE -> {
                    if (physical == PrimitiveType.PrimitiveTypeName.DOUBLE || physical == PrimitiveType.PrimitiveTypeName.FLOAT) {
                        return new Values(row, c) {
                            @Override
                            public void addDouble(double v) {
                                set(v);
                            }

                            @Override
                            public void addFloat(float v) {
                                set((double) v);
                            }
                        };
                    }
                }
                case CHAR, VARCHAR -> {
                    if (physical == PrimitiveType.PrimitiveTypeName.BINARY
                            && (logical == null || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation)) {
                        return new Values(row, c) {
                            /** A dictionary-encoded column's strings, each decoded once rather than once a row. */
                            private String[] dictionary;

                            @Override
                            public boolean hasDictionarySupport() {
                                return true;
                            }

                            @Override
                            public void setDictionary(Dictionary d) {
                                dictionary = new String[d.getMaxId() + 1];
                                for (int id = 0; id < dictionary.length; id++) {
                                    dictionary[id] = d.decodeToBinary(id).toStringUsingUTF8();
                                }
                            }

                            @Override
                            public void addValueFromDictionary(int id) {
                                set(dictionary[id]);
                            }

                            @Override
                            public void addBinary(Binary v) {
                                set(v.toStringUsingUTF8());
                            }
                        };
                    }
                }
                case DATE -> {
                    if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                        return new Values(row, c) {
                            @Override
                            public void addInt(int v) {
                                set(v);
                            }
                        };
                    }
                }
                case DECIMAL -> {
                    if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
                        return decimal(d.getScale(), type, row, c);
                    }
                }
                case TIMESTAMP -> {
                    if (physical == PrimitiveType.PrimitiveTypeName.INT96) {
                        return new Values(row, c) {
                            @Override
                            public void addBinary(Binary v) {
                                ByteBuffer b = v.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                                long nanosOfDay = b.getLong();
                                long day = b.getInt() - JULIAN_EPOCH_DAY;
                                set(day * 86_400_000_000L + nanosOfDay / 1_000);
                            }
                        };
                    }
                    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t) {
                        long perMicro = t.getUnit() == LogicalTypeAnnotation.TimeUnit.NANOS ? 1_000 : 1;
                        long microsPer = t.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS ? 1_000 : 1;
                        return new Values(row, c) {
                            @Override
                            public void addLong(long v) {
                                set(Math.floorDiv(v, perMicro) * microsPer);
                            }
                        };
                    }
                }
                default -> {
                }
            }
            throw new IllegalStateException(path + ": column " + field.getName() + " is Parquet " + field
                    + ", which the table's " + type + " cannot hold");
        }

        private static PrimitiveConverter decimal(int fileScale, DataType type, Row row, int c) {
            return new Values(row, c) {
                @Override
                public void addInt(int v) {
                    addLong(v);
                }

                @Override
                public void addLong(long v) {
                    set(fileScale == type.scale() && !type.isWideDecimal() ? (Object) v : stored(BigInteger.valueOf(v)));
                }

                @Override
                public void addBinary(Binary v) {
                    set(stored(new BigInteger(v.getBytes())));
                }

                private Object stored(BigInteger unscaled) {
                    BigInteger scaled = new BigDecimal(unscaled, fileScale).setScale(type.scale(), RoundingMode.HALF_UP)
                            .unscaledValue();
                    return type.isWideDecimal() ? scaled : (Object) scaled.longValueExact();
                }
            };
        }
    }

    /** The record being assembled. */
    private static final class Row {
        Object[] values;

        Row(int width) {
            values = new Object[width];
        }
    }

    /** Sets one column of the record being assembled. */
    private abstract static class Values extends PrimitiveConverter {
        private final Row row;
        private final int column;

        Values(Row row, int column) {
            this.row = row;
            this.column = column;
        }

        final void set(Object value) {
            row.values[column] = value;
        }
    }
}
