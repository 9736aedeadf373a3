package org.oooengine.optimizer.rel;

import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * The value a computed column takes on average, to estimate a comparison of a stored column with
 * what a subquery computes ({@code l_quantity < 0.2 * avg(l_quantity)}, decorrelated into a join
 * with the groups' averages): the subquery's value stands for a constant, the way an optimizer
 * estimates a predicate on a parameter from the statistics' mean where it cannot peek at it. An
 * average is the mean of the column it averages, taken as the middle of the column's stored span
 * (the even spread the range estimates assume); a sum is that mean times a group's rows; a count
 * those rows; arithmetic with constants follows. Values are in SQL's units (a decimal's, not its
 * unscaled integer); NaN where unknown.
 */
final class MeanValues {
    private MeanValues() {
    }

    /** The value of {@code e} over columns whose mean values {@code means} holds. */
    static double of(Expr e, double[] means) {
        if (e instanceof Expr.Literal l) {
            return l.value() instanceof Number n ? n.doubleValue() : Double.NaN;
        }
        if (e instanceof Expr.Column c) {
            return c.index() < means.length ? means[c.index()] : Double.NaN;
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.CAST && call.args().size() == 1
                && numeric(call.type())) {
            return of(call.args().get(0), means);
        }
        if (e instanceof Expr.Call call && call.args().size() == 2) {
            double a = of(call.args().get(0), means);
            double b = of(call.args().get(1), means);
            return switch (call.function()) {
                case ADD -> a + b;
                case SUBTRACT -> a - b;
                case MULTIPLY -> a * b;
                case DIVIDE -> b == 0 ? Double.NaN : a / b;
                default -> Double.NaN;
            };
        }
        return Double.NaN;
    }

    /**
     * The value of aggregate {@code call} over a group of {@code groupRows} rows, its argument's mean
     * {@code argument}.
     */
    static double aggregate(AggregateCall call, double argument, double groupRows) {
        if (call.distinct()) {
            return Double.NaN;
        }
        return switch (call.kind()) {
            case AVG -> argument;
            case SUM -> argument * groupRows;
            case COUNT, COUNT_STAR -> groupRows;
            default -> Double.NaN;
        };
    }

    /**
     * The spread (standard deviation) of {@code e} over columns whose spreads {@code spreads}
     * holds: a column's own, scaled by a constant factor, moved by a constant term; NaN otherwise.
     */
    static double spreadOf(Expr e, double[] spreads) {
        if (e instanceof Expr.Column c) {
            return c.index() < spreads.length ? spreads[c.index()] : Double.NaN;
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.CAST && call.args().size() == 1
                && numeric(call.type())) {
            return spreadOf(call.args().get(0), spreads);
        }
        if (e instanceof Expr.Call call && call.args().size() == 2) {
            Expr a = call.args().get(0);
            Expr b = call.args().get(1);
            double constantA = a instanceof Expr.Literal ? of(a, new double[0]) : Double.NaN;
            double constantB = b instanceof Expr.Literal ? of(b, new double[0]) : Double.NaN;
            return switch (call.function()) {
                case ADD -> !Double.isNaN(constantA) ? spreadOf(b, spreads) : !Double.isNaN(constantB) ? spreadOf(a, spreads)
                        : Double.NaN;
                case SUBTRACT -> !Double.isNaN(constantB) ? spreadOf(a, spreads) : !Double.isNaN(constantA)
                        ? spreadOf(b, spreads) : Double.NaN;
                case MULTIPLY -> !Double.isNaN(constantA) ? Math.abs(constantA) * spreadOf(b, spreads)
                        : !Double.isNaN(constantB) ? Math.abs(constantB) * spreadOf(a, spreads) : Double.NaN;
                case DIVIDE -> !Double.isNaN(constantB) && constantB != 0 ? spreadOf(a, spreads) / Math.abs(constantB)
                        : Double.NaN;
                default -> Double.NaN;
            };
        }
        return Double.NaN;
    }

    /**
     * The spread of aggregate {@code call} over a group of {@code groupRows} rows, its argument's
     * spread {@code argument}: a sum of that many values spreads by the root of their number times
     * one's, an average by one's over it; a count as the rows of groups do (a Poisson count's).
     */
    static double aggregateSpread(AggregateCall call, double argument, double groupRows) {
        if (call.distinct()) {
            return Double.NaN;
        }
        return switch (call.kind()) {
            case AVG -> argument / Math.sqrt(groupRows);
            case SUM -> argument * Math.sqrt(groupRows);
            case COUNT, COUNT_STAR -> Math.sqrt(groupRows);
            default -> Double.NaN;
        };
    }

    /** The spread of values even over a stored span of a column of {@code type}, in SQL's units: its width over root 12. */
    static double evenSpread(long[] span, SqlType type) {
        if (Double.isNaN(middle(span, type))) {
            return Double.NaN;
        }
        double width = (double) span[1] - span[0];
        double spread = width / Math.sqrt(12);
        return type.kind() == SqlType.Kind.DECIMAL ? spread / Math.pow(10, type.scale()) : spread;
    }

    /** The middle of a stored span (unscaled decimals, integers) of a column of {@code type}, in SQL's units. */
    static double middle(long[] span, SqlType type) {
        if (span == null || !numeric(type) || type.kind() == SqlType.Kind.DOUBLE || type.kind() == SqlType.Kind.FLOAT) {
            return Double.NaN;
        }
        double middle = (span[0] + (double) span[1]) / 2;
        return type.kind() == SqlType.Kind.DECIMAL ? middle / Math.pow(10, type.scale()) : middle;
    }

    /** {@code value} in the units a column of {@code type} stores its span in; NaN for a type whose span is not a number's. */
    static double stored(double value, SqlType type) {
        if (!numeric(type) || type.kind() == SqlType.Kind.DOUBLE || type.kind() == SqlType.Kind.FLOAT) {
            return Double.NaN;
        }
        return type.kind() == SqlType.Kind.DECIMAL ? value * Math.pow(10, type.scale()) : value;
    }

    private static boolean numeric(SqlType type) {
        return switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT, DECIMAL, DOUBLE, FLOAT -> true;
            default -> false;
        };
    }
}
