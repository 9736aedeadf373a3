package org.oooengine.optimizer.rel;

import java.util.Arrays;
import java.util.List;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * What the estimates know of the values of a row's computed columns ({@link MeanValues}): each
 * one's mean and spread (standard deviation), NaN where not known. A comparison of such a column
 * with a constant keeps the share of a normal distribution of that mean and spread on its side —
 * a GROUP BY's sums are sums of many values (TPC-H Q18's orders of more than 300 units, where an
 * order's lines hold 102 on average: 57 of 1.5 million orders, not a quarter).
 */
record ComputedValues(double[] means, double[] spreads) {
    /**
     * The least share a comparison with a constant is taken to keep: the tails of real sums are
     * heavier than a normal distribution's (groups of more rows than the mean's, skewed values).
     */
    static final double MIN_TAIL = 1e-4;

    static ComputedValues unknown(int width) {
        return new ComputedValues(CardinalityModel.unknown(width), CardinalityModel.unknown(width));
    }

    /** The values of {@code exprs} over these columns. */
    ComputedValues projected(List<Expr> exprs) {
        return new ComputedValues(exprs.stream().mapToDouble(e -> MeanValues.of(e, means)).toArray(),
                exprs.stream().mapToDouble(e -> MeanValues.spreadOf(e, spreads)).toArray());
    }

    /** These columns, then {@code right}'s. */
    ComputedValues concat(ComputedValues right) {
        return new ComputedValues(concat(means, right.means), concat(spreads, right.spreads));
    }

    /** These columns, then {@code width} more not known. */
    ComputedValues widened(int width) {
        return width <= means.length ? this : concat(unknown(width - means.length));
    }

    /**
     * The share of rows {@code comparison} (a column against a constant) keeps when the column's
     * mean and spread are known; NaN otherwise.
     */
    double comparedWithConstant(Expr.Call comparison) {
        Expr a = comparison.args().get(0);
        Expr b = comparison.args().get(1);
        boolean columnFirst = a instanceof Expr.Column;
        Expr.Column column = (Expr.Column) (columnFirst ? a : b);
        Object constant;
        try {
            constant = (columnFirst ? b : a).eval(new Object[0]);
        } catch (RuntimeException notConstant) {
            return Double.NaN;
        }
        int i = column.index();
        if (!(constant instanceof Number n) || i >= means.length || Double.isNaN(means[i]) || !(spreads[i] > 0)) {
            return Double.NaN;
        }
        ScalarFunction f = comparison.function();
        boolean above = (f == ScalarFunction.GT || f == ScalarFunction.GE) == columnFirst;
        double z = (n.doubleValue() - means[i]) / spreads[i];
        double share = above ? upperTail(z) : upperTail(-z);
        return Math.max(MIN_TAIL, Math.min(1, share));
    }

    /** P(Z > z) of a standard normal Z (Abramowitz and Stegun 7.1.26 for erfc, error below 1.5e-7). */
    static double upperTail(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        double erfc = poly * Math.exp(-x * x);
        return z >= 0 ? erfc / 2 : 1 - erfc / 2;
    }

    private static double[] concat(double[] a, double[] b) {
        double[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComputedValues v && Arrays.equals(means, v.means) && Arrays.equals(spreads, v.spreads);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(means) + Arrays.hashCode(spreads);
    }

    @Override
    public String toString() {
        return "means " + Arrays.toString(means) + ", spreads " + Arrays.toString(spreads);
    }
}
