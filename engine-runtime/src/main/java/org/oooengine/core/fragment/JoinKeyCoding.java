package org.oooengine.core.fragment;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.core.types.LocalTimestamps;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.wire.ColumnarRows;

/**
 * How one key column of a {@link VectorHashJoin} becomes longs that are equal exactly where the
 * row engine's keys are equal ({@link Values#groupKey}), so that one table of long keys serves
 * every key type. Integers, dates, timestamps and decimals of up to 18 digits are their own
 * longs, as the probe's vectors hold them (a build value no probe value can equal, such as 7.5
 * against integers, is left out of the table); strings, booleans and doubles are coded: each
 * distinct build value gets a number, and a probe value the build lacks gets {@link #ABSENT},
 * which no build row has.
 */
abstract sealed class JoinKeyCoding {
    /** The code of a probe value no build row holds. */
    static final long ABSENT = -1;

    /** The coding of keys compared with probe values of {@code probeType}; null when there is none. */
    static JoinKeyCoding of(SqlType probeType) {
        if (probeType == null) {
            return null;
        }
        return switch (probeType.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> new Integers();
            case DATE -> new Dates();
            case TIMESTAMP -> new Timestamps();
            case DECIMAL -> probeType.scale() <= 18 ? new Decimals(probeType.scale()) : null;
            case STRING, VARCHAR, CHAR, BOOLEAN, FLOAT, DOUBLE -> new Coded();
            case INTERVAL, VOID, ARRAY, MAP -> null;
        };
    }

    /** What {@link #buildKey} answers for a build value that never equals a probe value: the row is left out. */
    static final Long UNMATCHABLE = null;

    /**
     * The key of build value {@code v} (not null), or {@link #UNMATCHABLE}; throws
     * {@link NotComparable} when the row engine compares it with the probe values in a way the
     * longs do not (an integer key against doubles): the join then runs on rows.
     */
    abstract Long buildKey(Object v);

    /**
     * The key of probe value {@code v} (not null, of the probe's type) as {@link #buildKey} makes
     * a build value's; null when no build key can equal it.
     */
    Long probeKey(Object v) {
        return buildKey(v);
    }

    /**
     * The keys of a build column as the wire held it, {@code usable} cleared where null or
     * unmatchable; null when they must be read value by value.
     */
    long[] buildKeys(ColumnarRows.Column column, boolean[] usable) {
        return null;
    }

    /**
     * The keys of the probe batch's column {@code column} (of {@code type}) at the positions
     * {@code pos} holds ({@code n} of a batch of {@code capacity}), null where the value is.
     */
    LongVector probeKeys(Vector column, SqlType type, int[] pos, int n, int capacity) {
        return (LongVector) column; // held as the keys are
    }

    /** The heap the coding holds beyond the build rows. */
    long bytes() {
        return 0;
    }

    /** A build key compared with the probe values otherwise than by a long. */
    static final class NotComparable extends RuntimeException {
        NotComparable() {
            super(null, null, false, false);
        }
    }

    /** Keys of the probe column's held longs: the build column's longs as they are where held the same way. */
    private abstract static sealed class Longs extends JoinKeyCoding {
        /** How the wire holds a column whose longs are these keys. */
        abstract boolean heldAlike(ColumnarRows.Column column);

        @Override
        final long[] buildKeys(ColumnarRows.Column column, boolean[] usable) {
            if (column.held() != ColumnarRows.Held.LONGS || !heldAlike(column)) {
                return null;
            }
            for (int r = 0; r < usable.length; r++) {
                usable[r] &= !column.isNull(r);
            }
            return column.longs();
        }
    }

    private static final class Integers extends Longs {
        @Override
        Long buildKey(Object v) {
            if (v instanceof BigDecimal d) {
                if (Values.groupKey(d) instanceof Long whole) {
                    return whole;
                }
                return UNMATCHABLE;
            }
            if (v instanceof Integer || v instanceof Long) {
                return ((Number) v).longValue();
            }
            throw new NotComparable();
        }

        @Override
        boolean heldAlike(ColumnarRows.Column column) {
            return column.longKind() == ColumnarRows.LongKind.INT || column.longKind() == ColumnarRows.LongKind.LONG;
        }
    }

    private static final class Dates extends Longs {
        @Override
        Long buildKey(Object v) {
            if (v instanceof LocalDate d) {
                return d.toEpochDay();
            }
            throw new NotComparable();
        }

        @Override
        boolean heldAlike(ColumnarRows.Column column) {
            return column.longKind() == ColumnarRows.LongKind.DATE;
        }
    }

    private static final class Timestamps extends Longs {
        @Override
        Long buildKey(Object v) {
            if (v instanceof LocalDateTime t) {
                if (t.getNano() % 1000 != 0) {
                    return UNMATCHABLE; // the probe's values are whole microseconds: a finer time equals none of them
                }
                return LocalTimestamps.toMicros(t);
            }
            throw new NotComparable();
        }

        @Override
        boolean heldAlike(ColumnarRows.Column column) {
            return column.longKind() == ColumnarRows.LongKind.TIMESTAMP;
        }
    }

    /** Decimals unscaled at the probe type's scale: a build value equals a probe value where its unscaled values do. */
    private static final class Decimals extends Longs {
        /** Integers from here on in magnitude have 19 digits ({@link Values#groupKey} keeps 18 as longs). */
        private static final long WHOLE_DIGITS_MAX = 1_000_000_000_000_000_000L;

        private final int scale;

        Decimals(int scale) {
            this.scale = scale;
        }

        @Override
        Long buildKey(Object v) {
            BigDecimal d;
            if (v instanceof BigDecimal b) {
                d = b;
            } else if (v instanceof Integer || v instanceof Long) {
                long l = ((Number) v).longValue();
                if (l >= WHOLE_DIGITS_MAX || l <= -WHOLE_DIGITS_MAX) {
                    return UNMATCHABLE; // equality keeps a decimal of 19 whole digits a decimal, never an integer
                }
                d = BigDecimal.valueOf(l);
            } else {
                throw new NotComparable();
            }
            BigDecimal atScale;
            try {
                atScale = d.setScale(scale); // throws where rounding would be needed: no probe value equals it
            } catch (ArithmeticException finer) {
                return UNMATCHABLE;
            }
            BigInteger unscaled = atScale.unscaledValue();
            if (unscaled.bitLength() >= 64) {
                return UNMATCHABLE; // more digits than a probe value of 18 holds
            }
            return unscaled.longValue();
        }

        @Override
        boolean heldAlike(ColumnarRows.Column column) {
            return column.longKind() == ColumnarRows.LongKind.DECIMAL && column.scale() == scale;
        }
    }

    /** Each distinct build value (as equality sees it) numbered; the probe values looked up. */
    private static final class Coded extends JoinKeyCoding {
        /** A map entry, its key's header and the boxed code, about. */
        private static final long BYTES_PER_VALUE = 64;
        private final Map<Object, Long> codes = new HashMap<>();

        @Override
        Long buildKey(Object v) {
            return codes.computeIfAbsent(Values.groupKey(v), k -> (long) codes.size());
        }

        @Override
        Long probeKey(Object v) {
            return codes.get(Values.groupKey(v));
        }

        @Override
        LongVector probeKeys(Vector column, SqlType type, int[] pos, int n, int capacity) {
            long[] keys = new long[capacity];
            boolean[] nulls = null;
            for (int j = 0; j < n; j++) {
                int i = pos[j];
                Object v = column.box(i, type);
                if (v == null) {
                    if (nulls == null) {
                        nulls = new boolean[capacity];
                    }
                    nulls[i] = true;
                } else {
                    Long code = codes.get(Values.groupKey(v));
                    keys[i] = code == null ? ABSENT : code;
                }
            }
            return new LongVector(keys, nulls);
        }

        @Override
        long bytes() {
            return BYTES_PER_VALUE * codes.size();
        }
    }
}
