package org.oooengine.core.vector;

/**
 * A scalar expression evaluated a batch at a time: its value at each of the batch's positions.
 * Decimal arithmetic is exact on longs; a result that does not fit throws ArithmeticException,
 * and the caller runs that batch row by row instead.
 */
@FunctionalInterface
public interface VectorExpr {
    Vector eval(Batch batch);
}
