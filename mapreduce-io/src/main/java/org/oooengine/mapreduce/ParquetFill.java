package org.oooengine.mapreduce;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.DoubleVector;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * Takes one Parquet column's values into a vector of the table column's stored values, converting
 * them on the way (a decimal rescaled, a timestamp to microseconds): each value is handed to it, as
 * to Parquet's converters, and written at {@link #at}. A dictionary's entries are converted once,
 * and its ids then copy them.
 */
abstract class ParquetFill extends PrimitiveConverter {
    /** Days from the Julian day count's start to 1970-01-01, for INT96 timestamps. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    /** Where the next value goes. */
    int at;

    /** Starts a new vector of {@code n} values, all null until set; returns it. */
    abstract Vector start(int n);

    abstract void setNull(int i);

    /** A fill converting as this one does, with no vector yet. */
    abstract ParquetFill fresh();

    /** Copies entry {@code id} of the dictionary to position {@code i}. */
    abstract void fromDictionary(int i, int id);

    /** Copies the entries {@code ids[0, count)} of the dictionary to positions {@code [start, start + count)}. */
    abstract void fromDictionary(int start, int[] ids, int count);

    /**
     * Takes {@code count} PLAIN values of {@code plain} (32-bit where {@code ints}, else 64-bit)
     * into positions {@code [start, start + count)}, as {@link #addInt}/{@link #addLong} would.
     */
    void plainIntegers(ByteBuffer plain, boolean ints, int start, int count) {
        for (int j = 0; j < count; j++) {
            at = start + j;
            if (ints) {
                addInt(plain.getInt());
            } else {
                addLong(plain.getLong());
            }
        }
    }

    /** As {@link #addBinary}, the value's bytes being {@code bytes[offset, offset + length)}. */
    void addBytes(byte[] bytes, int offset, int length) {
        addBinary(Binary.fromConstantByteArray(bytes, offset, length));
    }

    /** Takes the entries of {@code dictionary}, of values of {@code physical} type, converted. */
    final void dictionary(Dictionary dictionary, PrimitiveTypeName physical) {
        ParquetFill entries = fresh();
        Vector v = entries.start(dictionary.getMaxId() + 1);
        for (int id = 0; id <= dictionary.getMaxId(); id++) {
            entries.at = id;
            switch (physical) {
                case INT32 -> entries.addInt(dictionary.decodeToInt(id));
                case INT64 -> entries.addLong(dictionary.decodeToLong(id));
                case FLOAT -> entries.addFloat(dictionary.decodeToFloat(id));
                case DOUBLE -> entries.addDouble(dictionary.decodeToDouble(id));
                case BOOLEAN -> entries.addBoolean(dictionary.decodeToBoolean(id));
                case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> entries.addBinary(dictionary.decodeToBinary(id));
            }
        }
        takeDictionary(v);
    }

    /** Keeps the converted entries of a dictionary. */
    abstract void takeDictionary(Vector entries);

    /** Integers, dates as epoch days. */
    static class LongFill extends ParquetFill {
        LongVector vector;
        private long[] dictionary;

        @Override
        Vector start(int n) {
            vector = new LongVector(new long[n], null);
            return vector;
        }

        @Override
        void setNull(int i) {
            vector.setNull(i);
        }

        @Override
        ParquetFill fresh() {
            return new LongFill();
        }

        @Override
        void takeDictionary(Vector entries) {
            dictionary = ((LongVector) entries).values;
        }

        @Override
        void fromDictionary(int i, int id) {
            vector.values[i] = dictionary[id];
        }

        @Override
        void fromDictionary(int start, int[] ids, int count) {
            long[] out = vector.values;
            for (int j = 0; j < count; j++) {
                out[start + j] = dictionary[ids[j]];
            }
        }

        @Override
        public void addInt(int v) {
            vector.values[at] = v;
        }

        @Override
        public void addLong(long v) {
            vector.values[at] = v;
        }

        /** Whether a value is the vector's as it is in the file (no rescale, no change of unit). */
        boolean copiesIntegers() {
            return getClass() == LongFill.class;
        }

        @Override
        void plainIntegers(ByteBuffer plain, boolean ints, int start, int count) {
            if (!copiesIntegers()) {
                super.plainIntegers(plain, ints, start, count);
                return;
            }
            long[] out = vector.values;
            if (ints) {
                for (int j = 0; j < count; j++) {
                    out[start + j] = plain.getInt();
                }
            } else {
                plain.asLongBuffer().get(out, start, count); // the buffer is little-endian, as PLAIN is
                plain.position(plain.position() + 8 * count);
            }
        }
    }

    /** A decimal unscaled at the table's scale, from any of Parquet's physical forms. */
    static final class DecimalFill extends LongFill {
        private final int fileScale;
        private final int scale;

        DecimalFill(int fileScale, int scale) {
            this.fileScale = fileScale;
            this.scale = scale;
        }

        @Override
        ParquetFill fresh() {
            return new DecimalFill(fileScale, scale);
        }

        @Override
        public void addInt(int v) {
            addLong(v);
        }

        @Override
        public void addLong(long v) {
            vector.values[at] = fileScale == scale ? v : rescaled(BigInteger.valueOf(v), fileScale, scale).longValueExact();
        }

        @Override
        public void addBinary(Binary v) {
            vector.values[at] = rescaled(new BigInteger(v.getBytes()), fileScale, scale).longValueExact();
        }

        @Override
        boolean copiesIntegers() {
            return fileScale == scale;
        }
    }

    private static BigInteger rescaled(BigInteger unscaled, int fromScale, int toScale) {
        return fromScale == toScale ? unscaled
                : new BigDecimal(unscaled, fromScale).setScale(toScale, RoundingMode.HALF_UP).unscaledValue();
    }

    /** INT64 timestamps of any unit, as microseconds. */
    static final class TimestampFill extends LongFill {
        private final LogicalTypeAnnotation.TimeUnit unit;
        private final long perMicro;
        private final long microsPer;

        TimestampFill(LogicalTypeAnnotation.TimeUnit unit) {
            this.unit = unit;
            perMicro = unit == LogicalTypeAnnotation.TimeUnit.NANOS ? 1_000 : 1;
            microsPer = unit == LogicalTypeAnnotation.TimeUnit.MILLIS ? 1_000 : 1;
        }

        @Override
        ParquetFill fresh() {
            return new TimestampFill(unit);
        }

        @Override
        public void addLong(long v) {
            vector.values[at] = Math.floorDiv(v, perMicro) * microsPer;
        }
    }

    /** Hive's and Spark's INT96 timestamps: nanoseconds of the day, then the Julian day; as microseconds. */
    static final class Int96TimestampFill extends LongFill {
        @Override
        ParquetFill fresh() {
            return new Int96TimestampFill();
        }

        @Override
        public void addBinary(Binary v) {
            ByteBuffer b = v.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            long nanosOfDay = b.getLong();
            long day = b.getInt() - JULIAN_EPOCH_DAY;
            vector.values[at] = day * 86_400_000_000L + nanosOfDay / 1_000;
        }
    }

    static final class DoubleFill extends ParquetFill {
        private DoubleVector vector;
        private double[] dictionary;

        @Override
        Vector start(int n) {
            vector = new DoubleVector(new double[n], null);
            return vector;
        }

        @Override
        void setNull(int i) {
            vector.setNull(i);
        }

        @Override
        ParquetFill fresh() {
            return new DoubleFill();
        }

        @Override
        void takeDictionary(Vector entries) {
            dictionary = ((DoubleVector) entries).values;
        }

        @Override
        void fromDictionary(int i, int id) {
            vector.values[i] = dictionary[id];
        }

        @Override
        void fromDictionary(int start, int[] ids, int count) {
            double[] out = vector.values;
            for (int j = 0; j < count; j++) {
                out[start + j] = dictionary[ids[j]];
            }
        }

        @Override
        public void addDouble(double v) {
            vector.values[at] = v;
        }

        @Override
        public void addFloat(float v) {
            vector.values[at] = v;
        }
    }

    static final class BoolFill extends ParquetFill {
        private byte[] values;
        private byte[] dictionary;

        @Override
        Vector start(int n) {
            values = new byte[n];
            return new BoolVector(values);
        }

        @Override
        void setNull(int i) {
            values[i] = BoolVector.NULL;
        }

        @Override
        ParquetFill fresh() {
            return new BoolFill();
        }

        @Override
        void takeDictionary(Vector entries) {
            dictionary = ((BoolVector) entries).values;
        }

        @Override
        void fromDictionary(int i, int id) {
            values[i] = dictionary[id];
        }

        @Override
        void fromDictionary(int start, int[] ids, int count) {
            for (int j = 0; j < count; j++) {
                values[start + j] = dictionary[ids[j]];
            }
        }

        @Override
        public void addBoolean(boolean v) {
            values[at] = v ? BoolVector.TRUE : BoolVector.FALSE;
        }
    }

    /** Values held as objects: null until set. */
    abstract static class ObjectFill extends ParquetFill {
        Object[] values;
        private Object[] dictionary;

        @Override
        Vector start(int n) {
            values = new Object[n];
            return new ObjectVector(values);
        }

        @Override
        void setNull(int i) {
        }

        @Override
        void takeDictionary(Vector entries) {
            dictionary = ((ObjectVector) entries).values;
        }

        @Override
        void fromDictionary(int i, int id) {
            values[i] = dictionary[id];
        }

        @Override
        void fromDictionary(int start, int[] ids, int count) {
            for (int j = 0; j < count; j++) {
                values[start + j] = dictionary[ids[j]];
            }
        }
    }

    static final class StringFill extends ObjectFill {
        @Override
        ParquetFill fresh() {
            return new StringFill();
        }

        @Override
        public void addBinary(Binary v) {
            ByteBuffer b = v.toByteBuffer();
            if (b.hasArray()) {
                addBytes(b.array(), b.arrayOffset() + b.position(), b.remaining());
            } else {
                values[at] = v.toStringUsingUTF8();
            }
        }

        /** Decoded by String's own UTF-8 decoder (Binary's goes through a CharsetDecoder, several times slower). */
        @Override
        void addBytes(byte[] bytes, int offset, int length) {
            values[at] = new String(bytes, offset, length, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** A decimal of over 18 digits, as a BigDecimal at the table's scale. */
    static final class WideDecimalFill extends ObjectFill {
        private final int fileScale;
        private final int scale;

        WideDecimalFill(int fileScale, int scale) {
            this.fileScale = fileScale;
            this.scale = scale;
        }

        @Override
        ParquetFill fresh() {
            return new WideDecimalFill(fileScale, scale);
        }

        @Override
        public void addInt(int v) {
            addLong(v);
        }

        @Override
        public void addLong(long v) {
            values[at] = new BigDecimal(rescaled(BigInteger.valueOf(v), fileScale, scale), scale);
        }

        @Override
        public void addBinary(Binary v) {
            values[at] = new BigDecimal(rescaled(new BigInteger(v.getBytes()), fileScale, scale), scale);
        }
    }
}
