package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;

/**
 * Any expression the vector kernels do not cover, evaluated row by row on SQL values: the columns it
 * reads are boxed into a row, and its result stored back into a vector.
 */
final class BoxedExpr implements VectorExpr {
    private final Expr expr;
    private final int[] columns;
    private final SqlType[] types;
    private final int width;

    BoxedExpr(Expr expr, int[] columns, SqlType[] types) {
        this.expr = expr;
        this.columns = columns;
        this.types = types;
        this.width = columns.length == 0 ? 0 : columns[columns.length - 1] + 1;
    }

    @Override
    public Vector eval(Batch batch) {
        Vector out = Vector.allocate(expr.type(), batch.capacity());
        Object[] row = new Object[width];
        int[] pos = batch.positions();
        for (int k = 0; k < batch.size(); k++) {
            int i = pos[k];
            for (int c = 0; c < columns.length; c++) {
                row[columns[c]] = batch.column(columns[c]).box(i, types[c]);
            }
            out.setBoxed(i, expr.eval(row), expr.type());
        }
        return out;
    }
}
