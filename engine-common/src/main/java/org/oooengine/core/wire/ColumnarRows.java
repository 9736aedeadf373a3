package org.oooengine.core.wire;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.types.LocalTimestamps;

/**
 * Chunks of rows sent column by column: what shuffles, broadcasts, gathers and file writes send
 * between nodes. Each column says once how its values are held, where the row format
 * ({@link ValueCodec}) tags every value: integers, dates, timestamps and decimals of one scale
 * as offsets from the column's least value in as few bytes as its range needs (a frame of
 * reference), strings as a dictionary where they repeat, booleans as bits, doubles as they are.
 * A column of mixed classes, wide decimals or nested values keeps the tagged values. A column
 * with nulls has a bitmap of them, and only its other values follow.
 *
 * <pre>
 * byte   layout        1: columns (below); 0: rows as ValueCodec writes them (no columns, or rows of several widths)
 * varint rows, varint columns
 * per column: byte kind, byte hasNulls, [bitmap of nulls, a bit per row], the values that are not null
 * </pre>
 *
 * Every column costs at least a bit per row (no value is written in less than a byte, a column of
 * nulls is its bitmap), so a reader refuses a count of rows the payload cannot hold before it
 * makes room for them.
 */
public final class ColumnarRows {
    private static final byte ROWS = 0;
    private static final byte COLUMNS = 1;

    private static final byte TAGGED = 0;
    private static final byte INT = 1;
    private static final byte LONG = 2;
    private static final byte DATE = 3;
    private static final byte TIMESTAMP = 4;
    private static final byte DECIMAL = 5;
    private static final byte DOUBLE = 6;
    private static final byte BOOLEAN = 7;
    private static final byte STRING = 8;
    private static final byte DICTIONARY = 9;

    /** A dictionary pays while it has at most this share of a column's values as entries. */
    private static final int DICTIONARY_MAX_SHARE = 2;
    private static final int DICTIONARY_MAX_ENTRIES = 1 << 16;
    /** The digits a long always holds. */
    private static final int MAX_LONG_DIGITS = 18;

    private ColumnarRows() {
    }

    public static void write(PayloadWriter w, List<Object[]> rows) {
        int width = rows.isEmpty() ? 0 : rows.get(0).length;
        for (Object[] row : rows) {
            if (row.length != width) {
                width = 0;
                break;
            }
        }
        if (width == 0) {
            writeRows(w, rows);
            return;
        }
        writeHeader(w, rows.size(), width);
        Object[] column = new Object[rows.size()];
        for (int c = 0; c < width; c++) {
            for (int i = 0; i < column.length; i++) {
                column[i] = rows.get(i)[c];
            }
            writeObjects(w, column, column.length);
        }
    }

    /** Rows as the row layout holds them, each value tagged: for rows a reader takes back as rows. */
    public static void writeRows(PayloadWriter w, List<Object[]> rows) {
        w.put(ROWS).putVarInt(rows.size());
        rows.forEach(row -> ValueCodec.writeRow(w, row));
    }

    /** Rows of a chunk that came as columns, written from its columns as they are: nothing boxed. */
    public static void write(PayloadWriter w, ChunkRows rows) {
        int n = rows.size();
        int from = rows.from;
        Column[] columns = rows.chunk.columns;
        writeHeader(w, n, columns.length);
        for (Column c : columns) {
            boolean[] nulls = c.nulls == null ? null : Arrays.copyOfRange(c.nulls, from, from + n);
            switch (c.held) {
                case LONGS -> writeLongs(w, c.longKind, c.scale, Arrays.copyOfRange(c.longs, from, from + n), nulls, n);
                case DOUBLES -> writeDoubles(w, Arrays.copyOfRange(c.doubles, from, from + n), nulls, n);
                default -> {
                    Object[] values = Arrays.copyOfRange(c.objects, from, from + n);
                    for (int i = 0; nulls != null && i < n; i++) {
                        values[i] = nulls[i] ? null : values[i]; // a null row's slot may hold anything
                    }
                    writeObjects(w, values, n);
                }
            }
        }
    }

    /** Starts a chunk of {@code rows} rows of {@code width} (at least 1) columns, written next one by one. */
    public static void writeHeader(PayloadWriter w, int rows, int width) {
        w.put(COLUMNS).putVarInt(rows).putVarInt(width);
    }

    /** A column of the first {@code n} of {@code values}, held as suits their classes. */
    public static void writeObjects(PayloadWriter w, Object[] values, int n) {
        Object[] present = new Object[n];
        boolean[] nulls = null;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (values[i] != null) {
                present[count++] = values[i];
            } else {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            }
        }
        byte kind = kindOf(present, count);
        Map<Object, Integer> dictionary = kind == STRING ? dictionary(present, count) : null;
        w.put(dictionary != null ? DICTIONARY : kind);
        writeNulls(w, nulls, n);
        if (dictionary != null) {
            writeDictionary(w, dictionary, present, count);
        } else {
            writeValues(w, kind, present, count);
        }
    }

    /** How a column of longs is read back: which SQL values its longs are. */
    public enum LongKind {
        /** Integers of up to 32 bits, read as Integer. */
        INT(ColumnarRows.INT),
        LONG(ColumnarRows.LONG),
        /** Days since 1970-01-01. */
        DATE(ColumnarRows.DATE),
        /** Microseconds since 1970-01-01 00:00:00. */
        TIMESTAMP(ColumnarRows.TIMESTAMP),
        /** Unscaled values of decimals of one scale. */
        DECIMAL(ColumnarRows.DECIMAL);

        private final byte code;

        LongKind(byte code) {
            this.code = code;
        }
    }

    /**
     * A column of values held as longs (epoch days, microseconds, decimals unscaled at {@code scale}):
     * the first {@code n} of {@code values}, null where {@code nulls} says (null: none is).
     */
    public static void writeLongs(PayloadWriter w, LongKind longKind, int scale, long[] values, boolean[] nulls, int n) {
        byte kind = longKind.code;
        long[] present = nulls == null ? values : new long[n];
        int count = nulls == null ? n : 0;
        if (nulls != null) {
            for (int i = 0; i < n; i++) {
                if (!nulls[i]) {
                    present[count++] = values[i];
                }
            }
        }
        w.put(kind);
        writeNulls(w, nulls, n);
        if (kind == DECIMAL) {
            w.putVarInt(scale);
        }
        writeLongs(w, present, count);
    }

    /** A column of doubles: the first {@code n} of {@code values}, null where {@code nulls} says (null: none is). */
    public static void writeDoubles(PayloadWriter w, double[] values, boolean[] nulls, int n) {
        w.put(DOUBLE);
        writeNulls(w, nulls, n);
        for (int i = 0; i < n; i++) {
            if (nulls == null || !nulls[i]) {
                w.putPacked(Double.doubleToRawLongBits(values[i]), 8);
            }
        }
    }

    /** A column of booleans: true where {@code values} has a non-zero byte, null where {@code nulls} says (null: none is). */
    public static void writeBooleans(PayloadWriter w, byte[] values, boolean[] nulls, int n) {
        w.put(BOOLEAN);
        writeNulls(w, nulls, n);
        int bits = 0;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            bits |= (values[i] != 0 ? 1 : 0) << (count & 7);
            if ((++count & 7) == 0) {
                w.put(bits);
                bits = 0;
            }
        }
        if ((count & 7) != 0) {
            w.put(bits);
        }
    }

    public static List<Object[]> read(PayloadReader r) {
        return readChunk(r).rows();
    }

    /** A chunk's rows, made from its columns when first read where it came as columns ({@link ChunkRows}). */
    public static List<Object[]> readKeepingColumns(PayloadReader r) {
        Chunk chunk = readChunk(r);
        return chunk.columns == null ? chunk.rows() : new ChunkRows(chunk, 0, chunk.size);
    }

    /** The rows as a list of rows made: those of a chunk's columns boxed now, any other list as it is. */
    public static List<Object[]> rowsOf(List<Object[]> rows) {
        return rows instanceof ChunkRows c ? c.chunk.rows().subList(c.from, c.to) : rows;
    }

    /**
     * A chunk as sent: its columns as the wire held them, or its rows where it came as rows. Every
     * value is checked as it is read (an integer, a date or a timestamp out of its range is a
     * {@link ProtocolException}), so reading its rows later cannot fail.
     */
    public static Chunk readChunk(PayloadReader r) {
        byte layout = r.get();
        if (layout == ROWS) {
            int n = r.getCount(1);
            List<Object[]> rows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                rows.add(ValueCodec.readRow(r));
            }
            return Chunk.ofRows(rows);
        }
        if (layout != COLUMNS) {
            throw new ProtocolException("a chunk of rows in layout " + layout);
        }
        int n = r.getVarInt();
        int width = r.getVarInt();
        if (width < 1 || (long) width * ((n + 7L) / 8) > r.remaining()) {
            throw new ProtocolException("a chunk of " + n + " rows of " + width + " columns in " + r.remaining()
                    + " bytes");
        }
        Column[] columns = new Column[width];
        for (int c = 0; c < width; c++) {
            byte kind = r.get();
            boolean[] nulls = readNulls(r, n);
            columns[c] = readColumn(r, kind, nulls, n);
        }
        return new Chunk(n, columns, null);
    }

    /** How a {@link Column} holds its values. */
    public enum Held {
        /** In {@link Column#longs}, read as its {@link Column#longKind} says. */
        LONGS,
        DOUBLES,
        /** Strings in {@link Column#objects}. */
        STRINGS,
        /** Booleans in {@link Column#objects}. */
        BOOLEANS,
        /** Values of any class in {@link Column#objects}. */
        VALUES
    }

    /**
     * One column of a chunk as read, a value per row (what a null row's slot holds means nothing):
     * {@code nulls} is null when no row is null.
     */
    public record Column(Held held, LongKind longKind, int scale, long[] longs, double[] doubles, Object[] objects,
                         boolean[] nulls) {
        public boolean isNull(int i) {
            return nulls != null && nulls[i];
        }

        /** The SQL value of row {@code i}. */
        public Object value(int i) {
            if (isNull(i)) {
                return null;
            }
            return switch (held) {
                case LONGS -> switch (longKind) {
                    case INT -> (int) longs[i];
                    case LONG -> longs[i];
                    case DATE -> LocalDate.ofEpochDay(longs[i]);
                    case TIMESTAMP -> LocalTimestamps.ofMicros(longs[i]);
                    case DECIMAL -> BigDecimal.valueOf(longs[i], scale);
                };
                case DOUBLES -> doubles[i];
                default -> objects[i];
            };
        }
    }

    /** Rows as they arrived: column by column, or as rows (read from the row layout, or made on this node). */
    public static final class Chunk {
        private final int size;
        private final Column[] columns;
        private List<Object[]> rows;

        private Chunk(int size, Column[] columns, List<Object[]> rows) {
            this.size = size;
            this.columns = columns;
            this.rows = rows;
        }

        public static Chunk ofRows(List<Object[]> rows) {
            return new Chunk(rows.size(), null, rows);
        }

        /** {@code size} rows of {@code columns}, each of at least that many values. */
        public static Chunk ofColumns(int size, Column[] columns) {
            return new Chunk(size, columns, null);
        }

        /**
         * The chunks' rows, in order, as one chunk of columns; null when one came as rows or they
         * differ in width. A column held one way in every chunk stays so; another keeps its values.
         */
        public static Chunk concat(List<Chunk> chunks) {
            if (chunks.isEmpty() || chunks.stream().anyMatch(c -> c.columns == null
                    || c.columns.length != chunks.get(0).columns.length)) {
                return null;
            }
            if (chunks.size() == 1) {
                return chunks.get(0);
            }
            int n = chunks.stream().mapToInt(Chunk::size).sum();
            Column[] columns = new Column[chunks.get(0).columns.length];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = concat(chunks, c, n);
            }
            return new Chunk(n, columns, null);
        }

        private static Column concat(List<Chunk> chunks, int c, int n) {
            Column first = chunks.get(0).columns[c];
            boolean alike = chunks.stream().map(k -> k.columns[c]).allMatch(k -> k.held == first.held
                    && k.longKind == first.longKind && k.scale == first.scale);
            Held held = alike ? first.held : Held.VALUES;
            long[] longs = held == Held.LONGS ? new long[n] : null;
            double[] doubles = held == Held.DOUBLES ? new double[n] : null;
            Object[] objects = longs == null && doubles == null ? new Object[n] : null;
            boolean[] nulls = chunks.stream().anyMatch(k -> k.columns[c].nulls != null) ? new boolean[n] : null;
            int at = 0;
            for (Chunk chunk : chunks) {
                Column part = chunk.columns[c];
                int size = chunk.size;
                if (longs != null) {
                    System.arraycopy(part.longs, 0, longs, at, size);
                } else if (doubles != null) {
                    System.arraycopy(part.doubles, 0, doubles, at, size);
                } else if (alike) {
                    System.arraycopy(part.objects, 0, objects, at, size);
                } else {
                    for (int i = 0; i < size; i++) {
                        objects[at + i] = part.value(i);
                    }
                }
                if (part.nulls != null) {
                    System.arraycopy(part.nulls, 0, nulls, at, size);
                }
                at += size;
            }
            return new Column(held, alike ? first.longKind : null, alike ? first.scale : 0, longs, doubles, objects, nulls);
        }

        public int size() {
            return size;
        }

        /** Its columns, or null when it came as rows. */
        public Column[] columns() {
            return columns;
        }

        /** The SQL value of row {@code row}'s column {@code column}, boxing that value alone where it came as columns. */
        public Object value(int row, int column) {
            return columns != null ? columns[column].value(row) : rows.get(row)[column];
        }

        /**
         * Its rows of SQL values, made from its columns the first time they are asked for (a
         * broadcast's chunk may be asked from several threads).
         */
        public synchronized List<Object[]> rows() {
            if (rows == null) {
                Object[][] made = new Object[size][columns.length];
                for (int c = 0; c < columns.length; c++) {
                    for (int i = 0; i < size; i++) {
                        made[i][c] = columns[c].value(i);
                    }
                }
                rows = new ArrayList<>(Arrays.asList(made));
            }
            return rows;
        }
    }

    /**
     * Rows {@code from} to {@code to} of a chunk that came as columns, as a list of rows: made
     * from the columns when a row is first asked for, so that a reader taking columns as they are
     * ({@link #chunkOf}) boxes nothing.
     */
    public static final class ChunkRows extends java.util.AbstractList<Object[]> implements java.util.RandomAccess {
        private final Chunk chunk;
        private final int from;
        private final int to;
        private List<Object[]> rows;

        private ChunkRows(Chunk chunk, int from, int to) {
            this.chunk = chunk;
            this.from = from;
            this.to = to;
        }

        /** The chunk these rows are of; row {@code i} of this list is its row {@link #from()} + i. */
        public Chunk chunk() {
            return chunk;
        }

        public int from() {
            return from;
        }

        @Override
        public Object[] get(int index) {
            java.util.Objects.checkIndex(index, to - from);
            List<Object[]> made = rows;
            if (made == null) {
                made = rows = chunk.rows(); // the same list on every thread: Chunk.rows makes it once
            }
            return made.get(from + index);
        }

        @Override
        public int size() {
            return to - from;
        }

        @Override
        public List<Object[]> subList(int fromIndex, int toIndex) {
            java.util.Objects.checkFromToIndex(fromIndex, toIndex, to - from);
            return new ChunkRows(chunk, from + fromIndex, from + toIndex);
        }
    }

    /** The chunk of columns {@code rows} are a view of, or null when they are rows like any other. */
    public static ChunkRows chunkOf(List<Object[]> rows) {
        return rows instanceof ChunkRows c ? c : null;
    }

    /** How a column's {@code present} values (nulls left out) are best held. */
    private static byte kindOf(Object[] values, int present) {
        if (present == 0) {
            return TAGGED;
        }
        Class<?> type = values[0].getClass();
        for (int i = 1; i < present; i++) {
            if (values[i].getClass() != type) {
                return TAGGED;
            }
        }
        if (type == Long.class) {
            return LONG;
        } else if (type == Integer.class) {
            return INT;
        } else if (type == LocalDate.class) {
            return DATE;
        } else if (type == LocalDateTime.class) {
            return TIMESTAMP;
        } else if (type == Double.class) {
            return DOUBLE;
        } else if (type == Boolean.class) {
            return BOOLEAN;
        } else if (type == String.class) {
            return STRING; // or a dictionary, where it pays (writeObjects)
        } else if (type == BigDecimal.class) {
            return scaledLongs(values, present) ? DECIMAL : TAGGED;
        }
        return TAGGED;
    }

    /** Whether every decimal has the first one's scale and at most {@link #MAX_LONG_DIGITS} digits. */
    private static boolean scaledLongs(Object[] values, int present) {
        int scale = ((BigDecimal) values[0]).scale();
        if (scale < 0) {
            return false;
        }
        for (int i = 0; i < present; i++) {
            BigDecimal d = (BigDecimal) values[i];
            if (d.scale() != scale || d.precision() > MAX_LONG_DIGITS) {
                return false;
            }
        }
        return true;
    }

    /**
     * The distinct strings numbered in the order they first come, or null where a dictionary does
     * not pay: more than a {@link #DICTIONARY_MAX_SHARE}th of the values differ.
     */
    private static Map<Object, Integer> dictionary(Object[] values, int present) {
        Map<Object, Integer> codes = new LinkedHashMap<>();
        int limit = Math.min(DICTIONARY_MAX_ENTRIES, present / DICTIONARY_MAX_SHARE);
        for (int i = 0; i < present; i++) {
            if (codes.putIfAbsent(values[i], codes.size()) == null && codes.size() > limit) {
                return null;
            }
        }
        return codes;
    }

    /** Whether any of the {@code n} rows is null, then if so a bit per row, set where it is. */
    private static void writeNulls(PayloadWriter w, boolean[] nulls, int n) {
        if (nulls == null) {
            w.put(0);
            return;
        }
        w.put(1);
        for (int i = 0; i < n; i += 8) {
            int bits = 0;
            for (int j = 0; j < 8 && i + j < n; j++) {
                bits |= (nulls[i + j] ? 1 : 0) << j;
            }
            w.put(bits);
        }
    }

    /** The rows' nulls (true where null), or null where the column has none. */
    private static boolean[] readNulls(PayloadReader r, int n) {
        byte hasNulls = r.get();
        if (hasNulls == 0) {
            return null;
        } else if (hasNulls != 1) {
            throw new ProtocolException("a column whose nulls are marked " + hasNulls);
        }
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i += 8) {
            byte bits = r.get();
            for (int j = 0; j < 8 && i + j < n; j++) {
                nulls[i + j] = (bits >> j & 1) != 0;
            }
        }
        return nulls;
    }

    private static void writeValues(PayloadWriter w, byte kind, Object[] values, int present) {
        switch (kind) {
            case INT, LONG, DATE, TIMESTAMP -> {
                long[] longs = new long[present];
                for (int i = 0; i < present; i++) {
                    longs[i] = switch (kind) {
                        case INT -> (Integer) values[i];
                        case LONG -> (Long) values[i];
                        case DATE -> ((LocalDate) values[i]).toEpochDay();
                        default -> LocalTimestamps.toMicros((LocalDateTime) values[i]);
                    };
                }
                writeLongs(w, longs, present);
            }
            case DECIMAL -> {
                long[] unscaled = new long[present];
                for (int i = 0; i < present; i++) {
                    BigDecimal d = (BigDecimal) values[i];
                    unscaled[i] = d.scaleByPowerOfTen(d.scale()).longValue(); // no BigInteger made
                }
                w.putVarInt(((BigDecimal) values[0]).scale());
                writeLongs(w, unscaled, present);
            }
            case DOUBLE -> {
                for (int i = 0; i < present; i++) {
                    w.putPacked(Double.doubleToRawLongBits((Double) values[i]), 8);
                }
            }
            case BOOLEAN -> {
                for (int i = 0; i < present; i += 8) {
                    int bits = 0;
                    for (int j = 0; j < 8 && i + j < present; j++) {
                        bits |= ((Boolean) values[i + j] ? 1 : 0) << j;
                    }
                    w.put(bits);
                }
            }
            case STRING -> {
                for (int i = 0; i < present; i++) {
                    w.putString((String) values[i]);
                }
            }
            default -> {
                for (int i = 0; i < present; i++) {
                    ValueCodec.writeValue(w, values[i]);
                }
            }
        }
    }

    private static Column readColumn(PayloadReader r, byte kind, boolean[] nulls, int n) {
        int present = n;
        if (nulls != null) {
            for (boolean isNull : nulls) {
                present -= isNull ? 1 : 0;
            }
        }
        try {
            return switch (kind) {
                case INT, LONG, DATE, TIMESTAMP, DECIMAL -> {
                    LongKind longKind = switch (kind) {
                        case INT -> LongKind.INT;
                        case LONG -> LongKind.LONG;
                        case DATE -> LongKind.DATE;
                        case TIMESTAMP -> LongKind.TIMESTAMP;
                        default -> LongKind.DECIMAL;
                    };
                    int scale = kind == DECIMAL ? r.getVarInt() : 0;
                    long[] longs = spread(readLongs(r, present, longKind), nulls, n);
                    yield new Column(Held.LONGS, longKind, scale, longs, null, null, nulls);
                }
                case DOUBLE -> {
                    double[] doubles = new double[n];
                    for (int i = 0; i < n; i++) {
                        if (nulls == null || !nulls[i]) {
                            doubles[i] = Double.longBitsToDouble(r.getPacked(8));
                        }
                    }
                    yield new Column(Held.DOUBLES, null, 0, null, doubles, null, nulls);
                }
                case BOOLEAN -> {
                    Object[] values = new Object[present];
                    for (int i = 0; i < present; i += 8) {
                        byte bits = r.get();
                        for (int j = 0; j < 8 && i + j < present; j++) {
                            values[i + j] = (bits >> j & 1) != 0;
                        }
                    }
                    yield new Column(Held.BOOLEANS, null, 0, null, null, spread(values, nulls, n), nulls);
                }
                case STRING, DICTIONARY, TAGGED -> {
                    Object[] values = new Object[present];
                    if (kind == DICTIONARY) {
                        readDictionary(r, values, present);
                    } else {
                        for (int i = 0; i < present; i++) {
                            values[i] = kind == STRING ? r.getString() : ValueCodec.readValue(r, 0);
                        }
                    }
                    yield new Column(kind == TAGGED ? Held.VALUES : Held.STRINGS, null, 0, null, null,
                            spread(values, nulls, n), nulls);
                }
                default -> throw new ProtocolException("a column of kind " + kind);
            };
        } catch (DateTimeException | ArithmeticException e) {
            throw new ProtocolException("a column of kind " + kind + " holds a value out of range: " + e.getMessage());
        }
    }

    /** The {@code n} rows' values from those of the rows that are not null (0 at a null). */
    private static long[] spread(long[] present, boolean[] nulls, int n) {
        if (nulls == null) {
            return present;
        }
        long[] all = new long[n];
        for (int i = 0, v = 0; i < n; i++) {
            if (!nulls[i]) {
                all[i] = present[v++];
            }
        }
        return all;
    }

    private static Object[] spread(Object[] present, boolean[] nulls, int n) {
        if (nulls == null) {
            return present;
        }
        Object[] all = new Object[n];
        for (int i = 0, v = 0; i < n; i++) {
            if (!nulls[i]) {
                all[i] = present[v++];
            }
        }
        return all;
    }

    /**
     * The values as offsets from the least, each in as few bytes as the greatest offset needs (at
     * least one: a column costs a byte per value, see the class comment).
     */
    private static void writeLongs(PayloadWriter w, long[] values, int n) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
        }
        if (n == 0) {
            min = max = 0;
        }
        long range = max - min; // unsigned: a range wider than a long's positive half wraps
        int bytes = Math.max(1, (64 - Long.numberOfLeadingZeros(range) + 7) / 8);
        w.putLong(min).put(bytes);
        for (int i = 0; i < n; i++) {
            w.putPacked(values[i] - min, bytes);
        }
    }

    /** The values, each checked to be one of {@code kind} (by the least and the greatest). */
    private static long[] readLongs(PayloadReader r, int present, LongKind kind) {
        long min = r.getLong();
        int bytes = r.get();
        if (bytes < 1 || bytes > 8) {
            throw new ProtocolException("a column of integers packed " + bytes + " bytes each");
        }
        long[] values = new long[present];
        long least = Long.MAX_VALUE;
        long greatest = Long.MIN_VALUE;
        for (int i = 0; i < present; i++) {
            long v = min + r.getPacked(bytes);
            values[i] = v;
            least = Math.min(least, v);
            greatest = Math.max(greatest, v);
        }
        if (present > 0) {
            for (long v : new long[] {least, greatest}) {
                switch (kind) {
                    case INT -> Math.toIntExact(v);
                    case DATE -> LocalDate.ofEpochDay(v);
                    case TIMESTAMP -> LocalTimestamps.ofMicros(v);
                    default -> { }
                }
            }
        }
        return values;
    }

    /** The distinct strings in the order of their codes, then each value's code (1 or 2 bytes). */
    private static void writeDictionary(PayloadWriter w, Map<Object, Integer> codes, Object[] values, int present) {
        w.putVarInt(codes.size());
        codes.keySet().forEach(s -> w.putString((String) s));
        int bytes = codes.size() <= 256 ? 1 : 2;
        for (int i = 0; i < present; i++) {
            w.putPacked(codes.get(values[i]), bytes);
        }
    }

    private static void readDictionary(PayloadReader r, Object[] values, int present) {
        int n = r.getCount(1);
        if (n < 1 || n > DICTIONARY_MAX_ENTRIES) {
            throw new ProtocolException("a dictionary of " + n + " strings");
        }
        String[] entries = new String[n];
        for (int i = 0; i < n; i++) {
            entries[i] = r.getString();
        }
        int bytes = n <= 256 ? 1 : 2;
        for (int i = 0; i < present; i++) {
            int code = (int) r.getPacked(bytes);
            if (code >= n) {
                throw new ProtocolException("a string of entry " + code + " in a dictionary of " + n);
            }
            values[i] = entries[code];
        }
    }
}
