package org.oooengine.core.vector;

/** Arithmetic kernels; null in, null out. */
final class Arithmetic {
    enum Op { ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD }

    private Arithmetic() {
    }

    /**
     * Longs: for decimals (exact) each side first multiplied by its factor to reach the result's
     * scale (a product's scale is the sum of its operands'); integers wrap as the row engine's do,
     * INT results to 32 bits.
     */
    record Longs(Op op, VectorExpr left, long leftFactor, VectorExpr right, long rightFactor, Kind kind)
            implements VectorExpr {
        enum Kind { DECIMAL, BIGINT, INT }

        @Override
        public Vector eval(Batch batch) {
            LongVector a = (LongVector) left.eval(batch);
            LongVector b = (LongVector) right.eval(batch);
            long[] out = new long[batch.capacity()];
            LongVector result = new LongVector(out, null);
            int[] pos = batch.positions();
            int n = batch.size();
            long[] x = leftFactor == 1 ? a.values : scaled(a.values, leftFactor, pos, n);
            long[] y = rightFactor == 1 ? b.values : scaled(b.values, rightFactor, pos, n);
            // a loop per operation: nothing decided per value but the overflow a decimal must not pass
            if (kind == Kind.DECIMAL) {
                switch (op) {
                    case ADD -> {
                        for (int k = 0; k < n; k++) {
                            int i = pos[k];
                            out[i] = Math.addExact(x[i], y[i]);
                        }
                    }
                    case SUBTRACT -> {
                        for (int k = 0; k < n; k++) {
                            int i = pos[k];
                            out[i] = Math.subtractExact(x[i], y[i]);
                        }
                    }
                    case MULTIPLY -> {
                        for (int k = 0; k < n; k++) {
                            int i = pos[k];
                            out[i] = Math.multiplyExact(x[i], y[i]);
                        }
                    }
                    default -> throw new IllegalStateException(op + " of decimals runs boxed");
                }
            } else {
                switch (op) {
                    case ADD -> {
                        for (int k = 0; k < n; k++) {
                            int i = pos[k];
                            out[i] = x[i] + y[i];
                        }
                    }
                    case SUBTRACT -> {
                        for (int k = 0; k < n; k++) {
                            int i = pos[k];
                            out[i] = x[i] - y[i];
                        }
                    }
                    case MULTIPLY -> {
                        for (int k = 0; k < n; k++) {
                            int i = pos[k];
                            out[i] = x[i] * y[i];
                        }
                    }
                    default -> throw new IllegalStateException(op + " of integers runs boxed");
                }
                if (kind == Kind.INT) {
                    for (int k = 0; k < n; k++) {
                        int i = pos[k];
                        out[i] = (int) out[i];
                    }
                }
            }
            copyNulls(a, b, result, pos, n);
            return result;
        }

        /** The values at {@code pos[0..n)} multiplied by {@code factor} (a decimal brought to the result's scale). */
        private static long[] scaled(long[] values, long factor, int[] pos, int n) {
            long[] out = new long[values.length];
            for (int k = 0; k < n; k++) {
                int i = pos[k];
                out[i] = Math.multiplyExact(values[i], factor);
            }
            return out;
        }

        private static void copyNulls(LongVector a, LongVector b, LongVector result, int[] pos, int n) {
            if (a.nulls() == null && b.nulls() == null) {
                return;
            }
            for (int k = 0; k < n; k++) {
                if (a.isNull(pos[k]) || b.isNull(pos[k])) {
                    result.setNull(pos[k]);
                }
            }
        }
    }

    /** Doubles; dividing by zero is null, as in Hive. */
    record Doubles(Op op, VectorExpr left, VectorExpr right) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            DoubleVector a = (DoubleVector) left.eval(batch);
            DoubleVector b = (DoubleVector) right.eval(batch);
            DoubleVector result = new DoubleVector(new double[batch.capacity()], null);
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                double x = a.values[i];
                double y = b.values[i];
                if (a.isNull(i) || b.isNull(i) || ((op == Op.DIVIDE || op == Op.MOD) && y == 0)) {
                    result.setNull(i);
                    continue;
                }
                result.values[i] = switch (op) {
                    case ADD -> x + y;
                    case SUBTRACT -> x - y;
                    case MULTIPLY -> x * y;
                    case DIVIDE -> x / y;
                    case MOD -> x % y;
                };
            }
            return result;
        }
    }

    /** The year of a date held as epoch days, without making a date object per row. */
    record Year(VectorExpr date) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            LongVector d = (LongVector) date.eval(batch);
            LongVector result = new LongVector(new long[batch.capacity()], null);
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                if (d.isNull(i)) {
                    result.setNull(i);
                } else {
                    result.values[i] = yearOfEpochDay(d.values[i]);
                }
            }
            return result;
        }

        /** The proleptic Gregorian year of an epoch day (the civil-from-days algorithm). */
        static long yearOfEpochDay(long epochDay) {
            long z = epochDay + 719468;
            long era = Math.floorDiv(z, 146097);
            long doe = z - era * 146097;
            long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
            long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
            long mp = (5 * doy + 2) / 153;
            long month = mp < 10 ? mp + 3 : mp - 9;
            return yoe + era * 400 + (month <= 2 ? 1 : 0);
        }
    }
}
