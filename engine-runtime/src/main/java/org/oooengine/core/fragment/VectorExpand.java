package org.oooengine.core.fragment;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;

/**
 * GROUPING SETS' copies of a batch ({@link PipelineStep.Expand}) as batches of the same rows: a
 * column a copy passes is the input's vector itself, a key left out of the set (a null) or the
 * set's grouping id is a constant vector made once and shared by every batch after; only a
 * computed column is evaluated, a batch at a time. A column null in every copy whose type no
 * vector holds has no vector (as a column not read), which rows make null again.
 */
final class VectorExpand {
    /** Per copy, per column: its vector form, or null for a null no vector holds. */
    private final VectorExpr[][] copies;
    /** Per copy, per column: whether it is the same at every row (made once, then reused). */
    private final boolean[][] constant;
    /** Per copy, per constant column: the vector made last, good for batches up to its capacity. */
    private final Vector[][] made;
    private final int[][] madeFor;

    private VectorExpand(VectorExpr[][] copies, boolean[][] constant) {
        this.copies = copies;
        this.constant = constant;
        this.made = new Vector[copies.length][];
        this.madeFor = new int[copies.length][];
        for (int p = 0; p < copies.length; p++) {
            made[p] = new Vector[copies[p].length];
            madeFor[p] = new int[copies[p].length];
        }
    }

    /** The vector form of {@code step}, or null when a column some copy computes is of a type no vector holds. */
    static VectorExpand of(PipelineStep.Expand step) {
        List<List<Expr>> projections = step.projections();
        VectorExpr[][] copies = new VectorExpr[projections.size()][];
        boolean[][] constant = new boolean[projections.size()][];
        for (int p = 0; p < copies.length; p++) {
            List<Expr> copy = projections.get(p);
            copies[p] = new VectorExpr[copy.size()];
            constant[p] = new boolean[copy.size()];
            for (int c = 0; c < copy.size(); c++) {
                Expr e = copy.get(c);
                int column = c;
                boolean nullEverywhere = projections.stream().allMatch(
                        other -> other.get(column) instanceof Expr.Literal l && l.value() == null);
                copies[p][c] = VectorCompiler.compile(e);
                constant[p][c] = Exprs.columns(e).isEmpty();
                if (copies[p][c] == null && !(nullEverywhere && Vector.representation(e.type()) == null)) {
                    return null;
                }
            }
        }
        return new VectorExpand(copies, constant);
    }

    /** How many copies each row makes. */
    int copies() {
        return copies.length;
    }

    /** Hands each copy of {@code batch}, in the order of the sets, to {@code next}. */
    void expand(Batch batch, Consumer<Batch> next) {
        for (int p = 0; p < copies.length; p++) {
            next.accept(copy(batch, p));
        }
    }

    /** Copy {@code p} of {@code batch}: the same positions, each column its input vector, a constant or computed. */
    Batch copy(Batch batch, int p) {
        VectorExpr[] exprs = copies[p];
        Vector[] columns = new Vector[exprs.length];
        int capacity = batch.capacity();
        for (int c = 0; c < exprs.length; c++) {
            if (exprs[c] == null) {
                continue;
            }
            if (!constant[p][c]) {
                columns[c] = exprs[c].eval(batch);
            } else {
                if (made[p][c] == null || madeFor[p][c] < capacity) {
                    made[p][c] = exprs[c].eval(batch);
                    madeFor[p][c] = capacity;
                }
                columns[c] = made[p][c];
            }
        }
        return batch.withColumns(columns);
    }
}
