package org.oooengine.optimizer.rel;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * What the values sampled from a column ({@link org.oooengine.core.stats.ValueSample}, kept with its
 * table's statistics) tell of an expression or a condition that reads that column alone: the
 * expression or condition is tried on each sampled value, as a row holding only it.
 */
final class SampledValues {
    private SampledValues() {
    }

    /**
     * The share of the sampled values on which {@code condition}, reading column {@code column} of
     * rows {@code width} wide, holds (half a value when none does: rare, not absent); NaN when it
     * cannot be tried on them.
     */
    static double share(Expr condition, int column, int width, List<String> sample) {
        if (sample.isEmpty() || !nullBlind(condition)) {
            return Double.NaN;
        }
        long hits = 0;
        for (String value : sample) {
            Object holds = eval(condition, column, width, value);
            if (holds == FAILED) {
                return Double.NaN;
            }
            hits += Boolean.TRUE.equals(holds) ? 1 : 0;
        }
        return Math.max(hits, 0.5) / sample.size();
    }

    /** The sampled values on which {@code condition}, over a row of the sampled column only, holds (none when it cannot be tried). */
    static List<String> holding(Expr condition, List<String> sample) {
        if (!nullBlind(condition)) {
            return List.of();
        }
        List<String> out = new java.util.ArrayList<>();
        for (String value : sample) {
            Object holds = eval(condition, 0, 1, value);
            if (holds == FAILED) {
                return List.of();
            }
            if (Boolean.TRUE.equals(holds)) {
                out.add(value);
            }
        }
        return out;
    }

    /**
     * The distinct values {@code e} takes over a table of {@code tableRows} rows (0 or less: unknown,
     * taken as many more than sampled), estimated from those it takes over the sample; NaN when it
     * cannot be tried on them.
     */
    static double distinct(Expr e, int column, int width, List<String> sample, long tableRows) {
        if (sample.isEmpty() || !nullBlind(e)) {
            return Double.NaN;
        }
        Map<Object, Integer> seen = new HashMap<>();
        for (String value : sample) {
            Object v = eval(e, column, width, value);
            if (v == FAILED) {
                return Double.NaN;
            }
            seen.merge(Objects.requireNonNullElse(v, NULL), 1, Integer::sum);
        }
        int once = (int) seen.values().stream().filter(c -> c == 1).count();
        return duj1(sample.size(), seen.size(), once, tableRows);
    }

    /**
     * Haas and Stokes' estimator Duj1 ("Estimating the number of classes in a finite population",
     * 1998), the one PostgreSQL's ANALYZE uses: {@code n d / (n - f1 + f1 n / N)} for {@code d}
     * distinct values in a sample of {@code n} of {@code N} rows, {@code f1} of them seen once. No
     * value seen once: the sample saw them all; every one seen once: every row has its own.
     */
    static double duj1(int n, int d, int f1, long rows) {
        if (n == 0) {
            return Double.NaN;
        }
        double sampled = rows > 0 ? Math.min(1, (double) n / rows) : 0;
        double denominator = n - f1 + f1 * sampled;
        double estimate = denominator <= 0 ? Double.POSITIVE_INFINITY : n * (double) d / denominator;
        return rows > 0 ? Math.min(estimate, rows) : estimate;
    }

    /**
     * Whether {@code e} makes of a NULL what it makes of any value it does not match: a sample holds
     * no NULLs, so it says nothing of IS NULL, COALESCE, NULLIF or CASE.
     */
    static boolean nullBlind(Expr e) {
        if (e instanceof Expr.IsNull || e instanceof Expr.Case || e instanceof Expr.Call c
                && (c.function() == ScalarFunction.COALESCE || c.function() == ScalarFunction.NULLIF)) {
            return false;
        }
        return e.children().stream().allMatch(SampledValues::nullBlind);
    }

    private static final Object FAILED = new Object();
    private static final Object NULL = new Object();

    private static Object eval(Expr e, int column, int width, String value) {
        Object[] row = new Object[width];
        row[column] = value;
        try {
            return e.eval(row);
        } catch (RuntimeException notOnThisValue) {
            return FAILED;
        }
    }
}
