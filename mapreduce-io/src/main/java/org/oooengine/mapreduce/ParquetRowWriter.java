package org.oooengine.mapreduce;

import java.io.IOException;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.types.DataType;

/**
 * Engine rows into a Parquet file, Snappy-compressed, in the types Hive 4, Spark and DuckDB read:
 * BOOLEAN, INT32, INT64, DOUBLE, strings (UTF-8 BINARY), DATE (INT32), DECIMAL as INT64 up to
 * precision 18 and as 16-byte FIXED_LEN_BYTE_ARRAY above, and TIMESTAMP as INT64 microseconds not
 * adjusted to UTC (a local date-time, as the engine holds it). Every column is optional.
 */
final class ParquetRowWriter {
    private static final int WIDE_DECIMAL_BYTES = 16;

    private ParquetRowWriter() {
    }

    /**
     * Bytes of a row group: what a writer holds before it writes them out. A node writing a
     * statement's rows may have several files open at once (one per partition it meets), and
     * Parquet's writers share no memory budget: Parquet's 128 MiB default could take a node's heap.
     */
    static final long ROW_GROUP_BYTES = 32L << 20;
    /** The buffer of a file's stream, as Parquet's own Hadoop output file takes. */
    private static final int IO_BUFFER_BYTES = 4096;

    /** A writer of rows of these columns into the new file {@code file}. */
    static ParquetWriter<Object[]> open(FileSystem fs, Path file, Configuration conf, List<String> names,
                                        List<DataType> types) throws IOException {
        MessageType schema = schema(names, types);
        return new Builder(outputFile(fs, file), schema, types)
                .withConf(conf).withWriteMode(ParquetFileWriter.Mode.CREATE).withRowGroupSize(ROW_GROUP_BYTES)
                .withCompressionCodec(CompressionCodecName.SNAPPY).build();
    }

    /**
     * {@code file} created through {@code fs} (Parquet's own {@code HadoopOutputFile} asks the path
     * for its file system), with the block size Parquet asks for where it is larger than the file
     * system's.
     */
    private static OutputFile outputFile(FileSystem fs, Path file) {
        return new OutputFile() {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                return open(false, blockSizeHint);
            }

            @Override
            public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
                return open(true, blockSizeHint);
            }

            private PositionOutputStream open(boolean overwrite, long blockSizeHint) throws IOException {
                return HadoopStreams.wrap(fs.create(file, overwrite, IO_BUFFER_BYTES, fs.getDefaultReplication(file),
                        Math.max(fs.getDefaultBlockSize(file), blockSizeHint)));
            }

            @Override
            public boolean supportsBlockSize() {
                return true;
            }

            @Override
            public long defaultBlockSize() {
                return fs.getDefaultBlockSize(file);
            }

            @Override
            public String getPath() {
                return file.toString();
            }
        };
    }

    static MessageType schema(List<String> names, List<DataType> types) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (int i = 0; i < names.size(); i++) {
            DataType t = types.get(i);
            Type field = switch (t.kind()) {
                case BOOLEAN -> Types.optional(PrimitiveTypeName.BOOLEAN).named(names.get(i));
                case INT -> Types.optional(PrimitiveTypeName.INT32).named(names.get(i));
                case BIGINT -> Types.optional(PrimitiveTypeName.INT64).named(names.get(i));
                case DOUBLE -> Types.optional(PrimitiveTypeName.DOUBLE).named(names.get(i));
                case DATE -> Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named(names.get(i));
                case CHAR, VARCHAR -> Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType())
                        .named(names.get(i));
                case TIMESTAMP -> Types.optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS))
                        .named(names.get(i));
                case DECIMAL -> (t.isWideDecimal()
                        ? Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(WIDE_DECIMAL_BYTES)
                        : Types.optional(PrimitiveTypeName.INT64))
                        .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision())).named(names.get(i));
                case ARRAY, MAP -> throw new SqlException(SqlException.NOT_SUPPORTED, "column " + names.get(i) + " of type "
                        + t + " in a Parquet file (its files hold no arrays or maps yet)");
            };
            message.addField(field);
        }
        return message.named("schema");
    }

    private static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
        private final MessageType schema;
        private final List<DataType> types;

        Builder(OutputFile file, MessageType schema, List<DataType> types) {
            super(file);
            this.schema = schema;
            this.types = types;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(Configuration conf) {
            return new Support(schema, types);
        }
    }

    /** Each row as a record of the schema's fields, a null value as an absent field. */
    private static final class Support extends WriteSupport<Object[]> {
        private final MessageType schema;
        private final List<DataType> types;
        private RecordConsumer out;

        Support(MessageType schema, List<DataType> types) {
            this.schema = schema;
            this.types = types;
        }

        @Override
        public WriteContext init(Configuration conf) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.out = recordConsumer;
        }

        @Override
        public void write(Object[] row) {
            out.startMessage();
            for (int c = 0; c < row.length; c++) {
                Object v = row[c];
                if (v == null) {
                    continue;
                }
                String name = schema.getFieldName(c);
                out.startField(name, c);
                DataType t = types.get(c);
                switch (t.kind()) {
                    case BOOLEAN -> out.addBoolean((Boolean) v);
                    case INT, DATE -> out.addInteger((Integer) v);
                    case BIGINT, TIMESTAMP -> out.addLong((Long) v);
                    case DOUBLE -> out.addDouble((Double) v);
                    case CHAR, VARCHAR -> out.addBinary(Binary.fromString((String) v));
                    case DECIMAL -> {
                        if (t.isWideDecimal()) {
                            out.addBinary(Binary.fromConstantByteArray(fixed((BigInteger) v)));
                        } else {
                            out.addLong((Long) v);
                        }
                    }
                    case ARRAY, MAP -> throw new IllegalStateException("refused by schema");
                }
                out.endField(name, c);
            }
            out.endMessage();
        }

        /** A two's complement value sign-extended to the fixed width. */
        private static byte[] fixed(BigInteger unscaled) {
            byte[] minimal = unscaled.toByteArray();
            byte[] out = new byte[WIDE_DECIMAL_BYTES];
            byte pad = (byte) (unscaled.signum() < 0 ? -1 : 0);
            int lead = WIDE_DECIMAL_BYTES - minimal.length;
            for (int i = 0; i < lead; i++) {
                out[i] = pad;
            }
            System.arraycopy(minimal, 0, out, lead, minimal.length);
            return out;
        }
    }
}
