package org.oooengine.core.vector;

import org.oooengine.core.sql.expr.ScalarFunction;

/** The six comparisons, applied to the sign of a three-way comparison. */
enum CompareOp {
    EQ, NE, LT, LE, GT, GE;

    static CompareOp of(ScalarFunction f) {
        return switch (f) {
            case EQ -> EQ;
            case NE -> NE;
            case LT -> LT;
            case LE -> LE;
            case GT -> GT;
            case GE -> GE;
            default -> null;
        };
    }

    /** The same test with its operands swapped: {@code a < b} is {@code b > a}. */
    CompareOp swapped() {
        return switch (this) {
            case LT -> GT;
            case LE -> GE;
            case GT -> LT;
            case GE -> LE;
            default -> this;
        };
    }

    boolean test(int cmp) {
        return switch (this) {
            case EQ -> cmp == 0;
            case NE -> cmp != 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
        };
    }
}
