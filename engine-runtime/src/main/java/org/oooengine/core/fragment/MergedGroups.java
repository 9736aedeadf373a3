package org.oooengine.core.fragment;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.core.wire.ColumnarRows;

/**
 * The groups a split GROUP BY's last step merges from partial rows (keys, then
 * {@link AggregateCall#PARTIAL_WIDTH} values per aggregate), held in arrays rather than in a map of
 * boxed keys: an open-addressing table of key hashes over group numbers, integer keys as longs, the
 * others as their values, and per aggregate its counts and sums (decimal sums exact in 128 bits)
 * or extremes. Keys are one group as {@link GroupTable}'s are ({@link Values#groupKey}), groups
 * come out in the order they first appeared, and each result is what an
 * {@link AggregateCall.Accumulator} that merged the same states gives. Holds the aggregates whose
 * state is a count and one value ({@link #holds}). Not thread-safe.
 */
final class MergedGroups {
    private static final int NULL_HASH = 0x5bd1e995;
    private static final int INITIAL_GROUPS = 64;
    /** Memory is reserved for many groups at once, up to this much (a 64th of the limit when that is less). */
    private static final long RESERVE_CHUNK = 64 << 10;

    private final int keyCount;
    private final List<AggregateCall> calls;
    private final QueryMemory memory;
    private final String operator;
    private final KeyColumn[] keys;
    private final StateColumn[] states;
    private int groups;
    /** Bytes reserved of the query's memory, and of them those no group holds yet. */
    private long reserved;
    private long unused;
    private int[] table = VectorAggregation.table(new int[0], 0, 2 * INITIAL_GROUPS);
    private int[] hashes = new int[INITIAL_GROUPS];

    MergedGroups(int keyCount, List<AggregateCall> calls, QueryMemory memory, String operator) {
        this.keyCount = keyCount;
        this.calls = List.copyOf(calls);
        this.memory = memory;
        this.operator = operator;
        this.keys = new KeyColumn[keyCount];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = new KeyColumn();
        }
        this.states = calls.stream().map(StateColumn::new).toArray(StateColumn[]::new);
    }

    /** Whether every one of {@code calls} keeps a count and one value (not a variance, a collection, a distinct set). */
    static boolean holds(List<AggregateCall> calls) {
        return calls.stream().allMatch(c -> !c.distinct() && c.kind().isSimple());
    }

    boolean isEmpty() {
        return groups == 0;
    }

    int size() {
        return groups;
    }

    /** What the groups hold reserved of the query's memory. */
    long reservedBytes() {
        return reserved;
    }

    /**
     * Merges a partial row into its group, made on first sight; a {@link MemoryLimitExceededException}
     * when a new group does not fit leaves the groups as they were.
     */
    void merge(Object[] partial) {
        rowPartial.row = partial;
        merge(rowPartial);
    }

    /**
     * Merges row {@code row} of {@code chunk}, a chunk of partial rows that came as columns, reading
     * integer keys, counts and sums from their columns' longs without boxing them; as {@link #merge(Object[])}.
     * The first row merged of a chunk hashes the keys of all its rows, a column at a time.
     */
    void merge(ColumnarRows.Chunk chunk, int row) {
        if (chunkPartial.chunk != chunk) {
            chunkPartial.hashAll(chunk, keyCount);
        }
        chunkPartial.row = row;
        merge(chunkPartial);
    }

    private void merge(Partial partial) {
        int h = partial.hash(keyCount);
        int mask = table.length - 1;
        int slot = VectorAggregation.mix(h) & mask;
        int g;
        while (true) {
            g = table[slot];
            if (g < 0) {
                g = add(partial, h, slot);
                break;
            }
            if (hashes[g] == h && sameKeys(g, partial)) {
                break;
            }
            slot = (slot + 1) & mask;
        }
        for (int a = 0; a < states.length; a++) {
            partial.mergeState(states[a], g, keyCount + a * AggregateCall.PARTIAL_WIDTH);
        }
    }

    /** A group without keys (a GROUP BY without keys has one, also when no row came). */
    void ensureOneGroup() {
        if (groups == 0) {
            Object[] none = new Object[keyCount + calls.size() * AggregateCall.PARTIAL_WIDTH];
            for (int a = 0; a < states.length; a++) {
                none[keyCount + a * AggregateCall.PARTIAL_WIDTH] = 0L;
            }
            merge(none);
        }
    }

    private int add(Partial partial, int h, int slot) {
        long bytes = 48L + 16L * keyCount + 32L * calls.size();
        for (int k = 0; k < keyCount; k++) {
            bytes += partial.keyBytes(k);
        }
        if (bytes > unused) {
            long chunk = Math.max(bytes, Math.min(RESERVE_CHUNK, memory.limit() / 64));
            memory.reserve(operator, chunk);
            reserved += chunk;
            unused += chunk;
        }
        unused -= bytes;
        int g = groups;
        if (g == hashes.length) {
            int size = 2 * g;
            hashes = Arrays.copyOf(hashes, size);
            for (KeyColumn k : keys) {
                k.grow(size);
            }
            for (StateColumn s : states) {
                s.grow(size);
            }
        }
        hashes[g] = h;
        for (int k = 0; k < keyCount; k++) {
            partial.setKey(keys[k], g, k);
        }
        table[slot] = g;
        groups++;
        if (2 * groups > table.length / 2) {
            rehash();
        }
        return g;
    }

    /** About the bytes a key value takes beyond the arrays: a string's, another object's. */
    private static long objectBytes(Object v) {
        if (v instanceof String s) {
            return 40 + s.length();
        }
        return v != null && !(v instanceof Long) && !(v instanceof Integer) ? 32 : 0;
    }

    private void rehash() {
        table = VectorAggregation.table(hashes, groups, table.length * 2);
    }

    private boolean sameKeys(int g, Partial partial) {
        for (int k = 0; k < keyCount; k++) {
            if (!partial.keyMatches(keys[k], g, k)) {
                return false;
            }
        }
        return true;
    }

    private static int longHash(long v) {
        return Long.hashCode(v * 0x9E3779B97F4A7C15L);
    }

    /** A date's hash, from its day number alike whether it came as a LocalDate or as a column's long. */
    private static int dateHash(long epochDay) {
        return longHash(epochDay) * 31 + KeyColumn.DATE;
    }

    /** A key value's hash, alike for values {@link Values#groupKey} makes equal. */
    private static int hash(Object v) {
        if (v == null) {
            return NULL_HASH;
        }
        if (v instanceof Long l) {
            return longHash(l);
        }
        if (v instanceof Integer i) {
            return longHash(i);
        }
        if (v instanceof LocalDate d) {
            return dateHash(d.toEpochDay());
        }
        Object key = Values.groupKey(v);
        return key instanceof Long l ? longHash(l) : key.hashCode();
    }

    /** Sends each group's partial row (keys, then the merged states) and empties the table, giving back its memory. */
    void drainPartials(Consumer<List<Object[]>> out) {
        send(true, out);
        clear();
    }

    /** Sends each group's result row (keys, then each aggregate's result), a batch at a time. */
    void sendResults(Consumer<List<Object[]>> out) {
        send(false, out);
    }

    /** Drops the groups, giving back what they held. */
    void clear() {
        memory.release(reserved);
        reserved = 0;
        unused = 0;
        groups = 0;
        table = VectorAggregation.table(hashes, 0, 2 * INITIAL_GROUPS);
        hashes = new int[INITIAL_GROUPS];
        for (KeyColumn k : keys) {
            k.reset();
        }
        for (StateColumn s : states) {
            s.reset();
        }
    }

    private void send(boolean partials, Consumer<List<Object[]>> out) {
        RowBatches batches = new RowBatches(out);
        int width = partials ? AggregateCall.PARTIAL_WIDTH : 1;
        Object[] state = new Object[AggregateCall.PARTIAL_WIDTH];
        for (int g = 0; g < groups; g++) {
            Object[] row = new Object[keyCount + states.length * width];
            for (int k = 0; k < keyCount; k++) {
                row[k] = keys[k].value(g);
            }
            for (int a = 0; a < states.length; a++) {
                if (partials) {
                    states[a].partial(g, row, keyCount + a * width);
                } else {
                    states[a].partial(g, state, 0);
                    row[keyCount + a] = states[a].result(state);
                }
            }
            batches.add(row);
        }
        batches.flush();
    }

    /** A partial row being merged: keys, then each aggregate's state, read by position. */
    private interface Partial {
        /** The hash of the first {@code keyCount} keys. */
        int hash(int keyCount);

        boolean keyMatches(KeyColumn column, int g, int k);

        void setKey(KeyColumn column, int g, int k);

        /** About the bytes key {@code k} takes beyond the key columns' arrays. */
        long keyBytes(int k);

        /** Adds the aggregate state at {@code offset} to {@code state}'s group {@code g}. */
        void mergeState(StateColumn state, int g, int offset);
    }

    private final RowPartial rowPartial = new RowPartial();
    private final ChunkPartial chunkPartial = new ChunkPartial();

    /** A partial row of values. */
    private static final class RowPartial implements Partial {
        Object[] row;

        @Override
        public int hash(int keyCount) {
            int h = 1;
            for (int k = 0; k < keyCount; k++) {
                h = 31 * h + MergedGroups.hash(row[k]);
            }
            return h;
        }

        @Override
        public boolean keyMatches(KeyColumn column, int g, int k) {
            return column.matches(g, row[k]);
        }

        @Override
        public void setKey(KeyColumn column, int g, int k) {
            column.set(g, row[k]);
        }

        @Override
        public long keyBytes(int k) {
            return objectBytes(row[k]);
        }

        @Override
        public void mergeState(StateColumn state, int g, int offset) {
            state.merge(g, (Long) row[offset], row[offset + 1]);
        }
    }

    /**
     * A row of a chunk's columns: integer keys, counts and sums held as longs (decimal sums at the
     * aggregate's scale) read as they are, any other value boxed as the row would hold it.
     */
    private static final class ChunkPartial implements Partial {
        ColumnarRows.Chunk chunk;
        ColumnarRows.Column[] columns;
        int row;
        /** Each row's hash of its keys. */
        private int[] hashes = new int[0];

        /**
         * Hashes the keys of every row of {@code chunk}, a column at a time: the values a row
         * points to (its strings) are read in a loop of independent reads the processor overlaps,
         * not one by one between the table's probes.
         */
        void hashAll(ColumnarRows.Chunk chunk, int keyCount) {
            this.chunk = chunk;
            this.columns = chunk.columns();
            int n = chunk.size();
            if (hashes.length < n) {
                hashes = new int[n];
            }
            Arrays.fill(hashes, 0, n, 1);
            for (int k = 0; k < keyCount; k++) {
                ColumnarRows.Column c = columns[k];
                for (int r = 0; r < n; r++) {
                    hashes[r] = 31 * hashes[r] + keyHash(c, r);
                }
            }
        }

        @Override
        public int hash(int keyCount) {
            return hashes[row];
        }

        /** The integer at {@code row} of {@code c}, where it holds one as a long (an INT or a BIGINT). */
        private static boolean integerAt(ColumnarRows.Column c, int row) {
            return c.held() == ColumnarRows.Held.LONGS && !c.isNull(row)
                    && (c.longKind() == ColumnarRows.LongKind.LONG || c.longKind() == ColumnarRows.LongKind.INT);
        }

        /** Whether {@code c} holds a date at {@code row} as its day number (no LocalDate made to key it). */
        private static boolean dateAt(ColumnarRows.Column c, int row) {
            return c.held() == ColumnarRows.Held.LONGS && c.longKind() == ColumnarRows.LongKind.DATE && !c.isNull(row);
        }

        private static int keyHash(ColumnarRows.Column c, int row) {
            return integerAt(c, row) ? longHash(c.longs()[row])
                    : dateAt(c, row) ? dateHash(c.longs()[row]) : MergedGroups.hash(c.value(row));
        }

        @Override
        public boolean keyMatches(KeyColumn column, int g, int k) {
            ColumnarRows.Column c = columns[k];
            return integerAt(c, row) ? column.matchesInteger(g, c.longs()[row])
                    : dateAt(c, row) ? column.matchesDate(g, c.longs()[row]) : column.matches(g, c.value(row));
        }

        @Override
        public void setKey(KeyColumn column, int g, int k) {
            ColumnarRows.Column c = columns[k];
            if (integerAt(c, row)) {
                column.setInteger(g, c.longs()[row], c.longKind() == ColumnarRows.LongKind.INT);
            } else if (dateAt(c, row)) {
                column.setDate(g, c.longs()[row]);
            } else {
                column.set(g, c.value(row));
            }
        }

        @Override
        public long keyBytes(int k) {
            ColumnarRows.Column c = columns[k];
            return integerAt(c, row) || dateAt(c, row) ? 0 : objectBytes(c.value(row));
        }

        @Override
        public void mergeState(StateColumn state, int g, int offset) {
            ColumnarRows.Column count = columns[offset];
            long n = integerAt(count, row) ? count.longs()[row] : (Long) count.value(row);
            ColumnarRows.Column v = columns[offset + 1];
            if (v.isNull(row)) {
                state.merge(g, n, null);
            } else if (!state.mergeUnboxed(g, n, v, row)) {
                state.merge(g, n, v.value(row));
            }
        }
    }

    /**
     * One key column of the groups: integers and dates as longs (the value's class kept by a tag),
     * other values as first seen beside the form {@link Values#groupKey} compares them by.
     */
    private static final class KeyColumn {
        private static final byte NULL = 0;
        private static final byte INT = 1;
        private static final byte LONG = 2;
        /** A value equal to an integer (a whole decimal): compared as a long, given back as it came. */
        private static final byte AS_LONG = 3;
        private static final byte OTHER = 4;
        /** A date, as its day number. */
        private static final byte DATE = 5;

        private byte[] tags;
        private long[] longs;
        /** The values as they came, for AS_LONG and OTHER; null until one comes. */
        private Object[] values;
        /** The OTHER values' group keys; null until one comes. */
        private Object[] normal;

        KeyColumn() {
            reset();
        }

        void reset() {
            tags = new byte[INITIAL_GROUPS];
            longs = new long[INITIAL_GROUPS];
            values = null;
            normal = null;
        }

        void grow(int size) {
            tags = Arrays.copyOf(tags, size);
            longs = Arrays.copyOf(longs, size);
            if (values != null) {
                values = Arrays.copyOf(values, size);
                normal = Arrays.copyOf(normal, size);
            }
        }

        void set(int g, Object v) {
            if (v == null) {
                tags[g] = NULL;
            } else if (v instanceof Long l) {
                tags[g] = LONG;
                longs[g] = l;
            } else if (v instanceof Integer i) {
                tags[g] = INT;
                longs[g] = i;
            } else if (v instanceof LocalDate d) {
                setDate(g, d.toEpochDay());
            } else {
                if (values == null) {
                    values = new Object[tags.length];
                    normal = new Object[tags.length];
                }
                values[g] = v;
                Object key = Values.groupKey(v);
                if (key instanceof Long l) {
                    tags[g] = AS_LONG;
                    longs[g] = l;
                } else {
                    tags[g] = OTHER;
                    normal[g] = key;
                }
            }
        }

        void setInteger(int g, long v, boolean isInt) {
            tags[g] = isInt ? INT : LONG;
            longs[g] = v;
        }

        void setDate(int g, long epochDay) {
            tags[g] = DATE;
            longs[g] = epochDay;
        }

        boolean matchesDate(int g, long epochDay) {
            return tags[g] == DATE && longs[g] == epochDay;
        }

        /** Whether group {@code g}'s key is the integer {@code v} (of any class: 5, 5L and 5.00 are one key). */
        boolean matchesInteger(int g, long v) {
            byte tag = tags[g];
            return tag >= INT && tag <= AS_LONG && longs[g] == v;
        }

        boolean matches(int g, Object v) {
            byte tag = tags[g];
            if (v == null) {
                return tag == NULL;
            }
            if (v instanceof Long l) {
                return matchesInteger(g, l);
            }
            if (v instanceof Integer i) {
                return matchesInteger(g, i);
            }
            if (v instanceof LocalDate d) {
                return matchesDate(g, d.toEpochDay());
            }
            if (tag == NULL) {
                return false;
            }
            Object key = Values.groupKey(v);
            if (key instanceof Long l) {
                return matchesInteger(g, l);
            }
            return tag == OTHER && normal[g].equals(key);
        }

        Object value(int g) {
            return switch (tags[g]) {
                case NULL -> null;
                case INT -> (int) longs[g];
                case LONG -> longs[g];
                case DATE -> LocalDate.ofEpochDay(longs[g]);
                default -> values[g];
            };
        }
    }

    /**
     * One aggregate's merged state per group: the count of values, and their sum (integer sums in a
     * long that wraps, as the row engine's do; decimals exact in 128 bits at the argument's scale,
     * what does not fit that apart; doubles added in arrival order) or extreme.
     */
    private static final class StateColumn {
        private enum Sum { NONE, LONG, DOUBLE, DECIMAL }

        private final AggregateCall call;
        private final Sum sum;
        private final int scale;
        private final int direction;
        private long[] counts;
        private long[] low;
        private long[] high;
        private double[] doubles;
        /** Extremes; for decimal sums, what the 128 bits at the scale do not hold; null until needed. */
        private Object[] objects;

        StateColumn(AggregateCall call) {
            this.call = call;
            boolean summed = call.kind() == AggregateCall.Kind.SUM || call.kind() == AggregateCall.Kind.AVG;
            SqlType arg = call.arg() == null ? null : call.arg().type();
            this.sum = !summed ? Sum.NONE : switch (arg.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> Sum.LONG;
                case DECIMAL -> Sum.DECIMAL;
                default -> Sum.DOUBLE;
            };
            this.scale = sum == Sum.DECIMAL ? arg.scale() : 0;
            this.direction = call.kind() == AggregateCall.Kind.MIN ? -1 : 1;
            reset();
        }

        void reset() {
            counts = new long[INITIAL_GROUPS];
            low = sum == Sum.LONG || sum == Sum.DECIMAL ? new long[INITIAL_GROUPS] : null;
            high = sum == Sum.DECIMAL ? new long[INITIAL_GROUPS] : null;
            doubles = sum == Sum.DOUBLE ? new double[INITIAL_GROUPS] : null;
            objects = sum == Sum.NONE && call.kind() != AggregateCall.Kind.COUNT
                    && call.kind() != AggregateCall.Kind.COUNT_STAR ? new Object[INITIAL_GROUPS] : null;
        }

        void grow(int size) {
            counts = Arrays.copyOf(counts, size);
            if (low != null) {
                low = Arrays.copyOf(low, size);
            }
            if (high != null) {
                high = Arrays.copyOf(high, size);
            }
            if (doubles != null) {
                doubles = Arrays.copyOf(doubles, size);
            }
            if (objects != null) {
                objects = Arrays.copyOf(objects, size);
            }
        }

        /** Adds a partial state, {@code n} values and {@code v}, to group {@code g}, as {@link AggregateCall.Accumulator#merge} does. */
        void merge(int g, long n, Object v) {
            counts[g] += n;
            if (v == null) {
                return;
            }
            switch (sum) {
                case LONG -> low[g] += (Long) v;
                case DOUBLE -> doubles[g] += (Double) v;
                case DECIMAL -> addDecimal(g, (BigDecimal) v);
                case NONE -> {
                    if (objects != null) {
                        Object e = objects[g];
                        if (e == null || Integer.signum(Values.compare(v, e)) == direction) {
                            objects[g] = v;
                        }
                    }
                }
            }
        }

        /**
         * As {@link #merge}, the state's value being row {@code i} of {@code v} (not null), where
         * that column holds it as this sum adds it (a long, a double, a decimal at this scale);
         * false, having added nothing, where it does not.
         */
        boolean mergeUnboxed(int g, long n, ColumnarRows.Column v, int i) {
            boolean taken = switch (sum) {
                case LONG -> v.held() == ColumnarRows.Held.LONGS && (v.longKind() == ColumnarRows.LongKind.LONG
                        || v.longKind() == ColumnarRows.LongKind.INT);
                case DECIMAL -> v.held() == ColumnarRows.Held.LONGS && v.longKind() == ColumnarRows.LongKind.DECIMAL
                        && v.scale() == scale;
                case DOUBLE -> v.held() == ColumnarRows.Held.DOUBLES;
                case NONE -> false;
            };
            if (!taken) {
                return false;
            }
            counts[g] += n;
            switch (sum) {
                case LONG -> low[g] += v.longs()[i];
                case DECIMAL -> addUnscaled(g, v.longs()[i]);
                default -> doubles[g] += v.doubles()[i];
            }
            return true;
        }

        private void addDecimal(int g, BigDecimal d) {
            if (d.scale() == scale) {
                BigInteger unscaled = d.unscaledValue();
                if (unscaled.bitLength() < 64) {
                    addUnscaled(g, unscaled.longValue());
                    return;
                }
            }
            if (objects == null) {
                objects = new Object[counts.length];
            }
            objects[g] = objects[g] == null ? d : ((BigDecimal) objects[g]).add(d);
        }

        /** Adds a decimal unscaled at this sum's scale to the 128 bits of group {@code g}. */
        private void addUnscaled(int g, long v) {
            long s = low[g] + v;
            high[g] += (v >> 63) + (Long.compareUnsigned(s, low[g]) < 0 ? 1 : 0);
            low[g] = s;
        }

        /** Writes group {@code g}'s state as {@link AggregateCall.Accumulator#partial} does. */
        void partial(int g, Object[] out, int offset) {
            long n = counts[g];
            out[offset] = n;
            out[offset + 2] = null;
            if (call.kind() == AggregateCall.Kind.COUNT_STAR || call.kind() == AggregateCall.Kind.COUNT) {
                out[offset + 1] = null;
                return;
            }
            out[offset + 1] = switch (sum) {
                case NONE -> objects[g];
                case LONG -> n == 0 ? null : (Object) low[g];
                case DOUBLE -> n == 0 ? null : (Object) doubles[g];
                case DECIMAL -> n == 0 ? null : decimal(g);
            };
        }

        private BigDecimal decimal(int g) {
            BigDecimal d = VectorAggregation.decimal(high[g], low[g], scale);
            Object rest = objects == null ? null : objects[g];
            return rest == null ? d : d.add((BigDecimal) rest);
        }

        /** The result of a group whose merged state is {@code state}, as an accumulator that merged it gives. */
        Object result(Object[] state) {
            AggregateCall.Accumulator acc = call.newAccumulator();
            acc.merge(state, 0);
            return acc.result();
        }
    }
}
