package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;

/**
 * Runs the leading filters and projections of a pipeline's steps, and a partial aggregate that
 * ends it, on column batches; the steps after them (joins, whole aggregates) get the surviving
 * rows as SQL values from a row {@link Pipeline}. A batch whose decimal arithmetic outgrows a long
 * runs the same steps row by row instead, so every batch gets the row engine's answer.
 */
final class VectorPipeline {
    private final List<VectorExpr> filters = new ArrayList<>();
    /** Per vectorized step: its projection, or null for a filter (whose predicate is in {@link #filters}). */
    private final List<VectorExpr[]> projections = new ArrayList<>();
    private final VectorPartialAggregation aggregation;
    private final SqlType[] inputTypes;
    private final int inputWidth;
    private final SqlType[] outputTypes;
    private final int outputWidth;
    private final Pipeline after;
    private final Consumer<List<Object[]>> downstream;
    private final Pipeline rowByRow;
    private final Consumer<List<Object[]>> out;
    private boolean ranRowByRow;

    /**
     * @param inputTypes per input column its type, null for the columns the scan does not read
     * @param builds     what joins after the vectorized steps build from
     */
    VectorPipeline(List<PipelineStep> steps, SqlType[] inputTypes, Pipeline.BuildSource builds,
                   Consumer<List<Object[]>> out, QueryMemory memory) {
        this.inputTypes = inputTypes.clone();
        this.inputWidth = inputTypes.length;
        this.out = out;
        SqlType[] types = this.inputTypes;
        int vectorized = 0;
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.Filter f) {
                VectorExpr predicate = VectorCompiler.compile(f.condition());
                if (predicate == null || f.condition().type().kind() != SqlType.Kind.BOOLEAN) {
                    break;
                }
                filters.add(predicate);
                projections.add(null);
            } else if (step instanceof PipelineStep.Project p) {
                VectorExpr[] exprs = new VectorExpr[p.exprs().size()];
                for (int i = 0; i < exprs.length; i++) {
                    exprs[i] = VectorCompiler.compile(p.exprs().get(i));
                }
                if (java.util.Arrays.asList(exprs).contains(null)) {
                    break;
                }
                filters.add(null);
                projections.add(exprs);
                types = p.exprs().stream().map(Expr::type).toArray(SqlType[]::new);
            } else {
                break;
            }
            vectorized++;
        }
        this.outputTypes = types;
        this.outputWidth = types.length;
        List<PipelineStep> rest = steps.subList(vectorized, steps.size());
        VectorPartialAggregation partial = null;
        if (rest.size() == 1 && rest.get(0) instanceof PipelineStep.PartialAggregate p) {
            partial = VectorPartialAggregation.of(p, memory);
        }
        this.aggregation = partial;
        if (partial != null) {
            vectorized++;
            rest = List.of();
        }
        this.after = rest.isEmpty() ? null : new Pipeline(rest, outputWidth, builds, out, memory);
        this.downstream = after == null ? out : after::accept;
        this.rowByRow = new Pipeline(steps.subList(0, vectorized), partial != null ? out : downstream);
    }

    /** Runs a batch of input rows through the steps. */
    void accept(Batch batch) {
        List<Object[]> rows;
        try {
            Batch result = run(batch);
            if (result.size() == 0) {
                return;
            }
            if (aggregation != null) {
                aggregation.add(result);
                return;
            }
            rows = result.toRows(outputTypes, outputWidth);
        } catch (ArithmeticException beyondLong) {
            ranRowByRow = true;
            rowByRow.accept(batch.toRows(inputTypes, inputWidth));
            return;
        }
        if (!rows.isEmpty()) {
            downstream.accept(rows);
        }
    }

    private Batch run(Batch batch) {
        Batch b = batch;
        for (int s = 0; s < filters.size() && b.size() > 0; s++) {
            if (filters.get(s) != null) {
                byte[] keep = ((BoolVector) filters.get(s).eval(b)).values;
                int[] pos = b.positions();
                int[] kept = new int[b.size()];
                int n = 0;
                for (int k = 0; k < b.size(); k++) {
                    if (keep[pos[k]] == BoolVector.TRUE) {
                        kept[n++] = pos[k];
                    }
                }
                b = b.withPositions(kept, n);
            } else {
                VectorExpr[] exprs = projections.get(s);
                Vector[] columns = new Vector[exprs.length];
                for (int i = 0; i < exprs.length; i++) {
                    columns[i] = exprs[i].eval(b);
                }
                b = b.withColumns(columns);
            }
        }
        return b;
    }

    /** The input has ended: groups go out, then the steps after finish. */
    void finish() {
        if (aggregation != null) {
            aggregation.finish(out);
        }
        if (ranRowByRow) {
            rowByRow.finish();
        }
        if (after != null) {
            after.finish();
        }
    }
}
