package org.oooengine.core.sql.expr;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.sql.SqlType;

/**
 * An aggregate over a group: {@code count(*)}, or count, sum, avg, min, max, a variance or a
 * standard deviation of an expression, optionally over its distinct values. Nulls are skipped; an
 * empty group sums to null and counts 0.
 */
public record AggregateCall(Kind kind, Expr arg, boolean distinct, SqlType type) {
    public enum Kind {
        COUNT_STAR, COUNT, SUM, AVG, MIN, MAX,
        // ordinals travel on the wire: new kinds go last
        VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP,
        COLLECT_LIST, COLLECT_SET, APPROX_DISTINCT;

        /** The variances and standard deviations: their state is a count, a mean and a sum of squared deviations. */
        public boolean isMoment() {
            return this == VAR_POP || this == VAR_SAMP || this == STDDEV_POP || this == STDDEV_SAMP;
        }

        /** collect_list and collect_set: their state is the values collected so far. */
        public boolean isCollect() {
            return this == COLLECT_LIST || this == COLLECT_SET;
        }

        /**
         * Counts, sums, averages and extremes: their state is a count and one value that merges by
         * adding or comparing (what the vectorized aggregation keeps in arrays); a variance's,
         * a collection's or a sketch's is more.
         */
        public boolean isSimple() {
            return !isMoment() && !isCollect() && this != APPROX_DISTINCT;
        }
    }

    /** The result type Hive gives the aggregate of {@code arg}. */
    public static SqlType resultType(Kind kind, SqlType arg) {
        return switch (kind) {
            case COUNT_STAR, COUNT, APPROX_DISTINCT -> SqlType.BIGINT;
            case MIN, MAX -> arg;
            case SUM -> switch (arg.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> SqlType.BIGINT;
                case DECIMAL -> SqlType.decimal(arg.precision() + 10, arg.scale());
                default -> SqlType.DOUBLE;
            };
            case AVG -> arg.kind() == SqlType.Kind.DECIMAL
                    ? SqlType.decimal(arg.precision() + 4, Math.min(SqlType.MAX_PRECISION, arg.scale() + 4))
                    : SqlType.DOUBLE;
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> SqlType.DOUBLE;
            case COLLECT_LIST, COLLECT_SET -> SqlType.array(arg);
        };
    }

    /** How many values {@link Accumulator#partial} writes per call (a variance needs three). */
    public static final int PARTIAL_WIDTH = 3;

    /** Whether the aggregate can run in two steps: partial states on the nodes, merged on one. */
    public boolean splittable() {
        return !distinct;
    }

    public Accumulator newAccumulator() {
        return new Accumulator(this);
    }

    @Override
    public String toString() {
        return ExprText.of(this, i -> "#" + i);
    }

    /** The running state of one aggregate in one group. */
    public static final class Accumulator {
        private final AggregateCall call;
        private final Set<Object> seen;
        private long count;
        private long longSum;
        private double doubleSum;
        private BigDecimal decimalSum = BigDecimal.ZERO;
        private Object extreme;
        /** A variance's running mean and sum of squared deviations from it (Welford). */
        private double mean;
        private double squares;
        /** collect_list's values, or collect_set's by their group key (the first of equal values kept), in arrival order. */
        private final List<Object> collected;
        private final Map<Object, Object> collectedSet;
        /** approx_count_distinct's sketch of the values. */
        private final DistinctSketch sketch;

        Accumulator(AggregateCall call) {
            this.call = call;
            this.seen = call.distinct ? new HashSet<>() : null;
            this.collected = call.kind == Kind.COLLECT_LIST ? new ArrayList<>() : null;
            this.collectedSet = call.kind == Kind.COLLECT_SET ? new LinkedHashMap<>() : null;
            this.sketch = call.kind == Kind.APPROX_DISTINCT ? DistinctSketch.empty() : null;
        }

        private void collect(Object v) {
            if (collected != null) {
                collected.add(v);
            } else {
                collectedSet.putIfAbsent(Values.groupKey(v), v);
            }
        }

        private List<Object> collection() {
            return collected != null ? new ArrayList<>(collected) : new ArrayList<>(collectedSet.values());
        }

        public void add(Object[] row) {
            if (call.kind == Kind.COUNT_STAR) {
                count++;
                return;
            }
            Object v = call.arg.eval(row);
            if (v == null || (seen != null && !seen.add(Values.groupKey(v)))) {
                return;
            }
            count++;
            switch (call.kind) {
                case SUM, AVG -> {
                    if (v instanceof Integer || v instanceof Long) {
                        longSum += ((Number) v).longValue();
                    } else if (v instanceof Double d) {
                        doubleSum += d;
                    } else {
                        decimalSum = decimalSum.add((BigDecimal) v);
                    }
                }
                case MIN -> extreme = extreme == null || Values.compare(v, extreme) < 0 ? v : extreme;
                case MAX -> extreme = extreme == null || Values.compare(v, extreme) > 0 ? v : extreme;
                case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> {
                    double x = ((Number) v).doubleValue();
                    double delta = x - mean;
                    mean += delta / count;
                    squares += delta * (x - mean);
                }
                case COLLECT_LIST, COLLECT_SET -> collect(v);
                case APPROX_DISTINCT -> sketch.add(v);
                default -> {
                }
            }
        }

        /**
         * This group's running state for another accumulator to {@link #merge}: the count of
         * values, then the sum or the extreme (null when none), then for a variance the sum of
         * squared deviations from the mean the second value holds. A split aggregation sends these
         * {@link #PARTIAL_WIDTH} values per call from the nodes to the one that finishes it.
         */
        public void partial(Object[] out, int offset) {
            if (seen != null) {
                throw new IllegalStateException(call + " keeps its distinct values: it cannot be split");
            }
            out[offset] = count;
            out[offset + 1] = switch (call.kind) {
                case COUNT_STAR, COUNT -> null;
                case MIN, MAX -> extreme;
                case SUM, AVG -> count == 0 ? null : runningSum(call.arg.type());
                case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> count == 0 ? null : (Object) mean;
                case COLLECT_LIST, COLLECT_SET -> collection();
                case APPROX_DISTINCT -> count == 0 ? null : sketch.encoded();
            };
            out[offset + 2] = call.kind.isMoment() && count > 0 ? (Object) squares : null;
        }

        /** Adds another accumulator's {@link #partial} state of the same call. */
        public void merge(Object[] partial, int offset) {
            if (call.kind.isMoment()) {
                mergeMoments(partial, offset);
                return;
            }
            long n = (Long) partial[offset];
            Object v = partial[offset + 1];
            count += n;
            if (v == null) {
                return;
            }
            switch (call.kind) {
                case SUM, AVG -> {
                    switch (call.arg.type().kind()) {
                        case TINYINT, SMALLINT, INT, BIGINT -> longSum += (Long) v;
                        case DECIMAL -> decimalSum = decimalSum.add((BigDecimal) v);
                        default -> doubleSum += (Double) v;
                    }
                }
                case MIN -> extreme = extreme == null || Values.compare(v, extreme) < 0 ? v : extreme;
                case MAX -> extreme = extreme == null || Values.compare(v, extreme) > 0 ? v : extreme;
                case COLLECT_LIST, COLLECT_SET -> ((List<?>) v).forEach(this::collect);
                case APPROX_DISTINCT -> sketch.merge(DistinctSketch.decode((String) v));
                default -> {
                }
            }
        }

        /** Chan, Golub and LeVeque's merge of two groups' means and sums of squared deviations, as Hive's variance merges. */
        private void mergeMoments(Object[] partial, int offset) {
            long n = (Long) partial[offset];
            if (n == 0) {
                return;
            }
            double otherMean = (Double) partial[offset + 1];
            double otherSquares = (Double) partial[offset + 2];
            long total = count + n;
            double delta = otherMean - mean;
            squares += otherSquares + delta * delta * ((double) count * n / total);
            mean += delta * n / total;
            count = total;
        }

        private Object runningSum(SqlType argType) {
            return switch (argType.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> longSum;
                case DECIMAL -> decimalSum;
                default -> doubleSum;
            };
        }

        public Object result() {
            SqlType argType = call.arg == null ? null : call.arg.type();
            return switch (call.kind) {
                case COUNT_STAR, COUNT -> count;
                case MIN, MAX -> extreme;
                case SUM -> count == 0 ? null : sum(argType);
                case AVG -> count == 0 ? null : average(argType);
                // Hive: NULL for no values; a sample's variance needs two
                case VAR_POP -> count == 0 ? null : (Object) (Math.max(0, squares) / count);
                case STDDEV_POP -> count == 0 ? null : (Object) Math.sqrt(Math.max(0, squares) / count);
                case VAR_SAMP -> count <= 1 ? null : (Object) (Math.max(0, squares) / (count - 1));
                case STDDEV_SAMP -> count <= 1 ? null : (Object) Math.sqrt(Math.max(0, squares) / (count - 1));
                // Hive: an empty array, not NULL, for a group without values
                case COLLECT_LIST, COLLECT_SET -> collection();
                // an estimate, never above the values counted
                case APPROX_DISTINCT -> Math.min(count, sketch.estimate());
            };
        }

        private Object sum(SqlType argType) {
            return switch (argType.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> longSum;
                case DECIMAL -> decimalSum.setScale(call.type.scale(), RoundingMode.HALF_UP);
                default -> doubleSum;
            };
        }

        private Object average(SqlType argType) {
            return switch (argType.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> (double) longSum / count;
                case DECIMAL -> decimalSum.divide(BigDecimal.valueOf(count), call.type.scale(), RoundingMode.HALF_UP);
                default -> doubleSum / count;
            };
        }
    }
}
