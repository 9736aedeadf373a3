package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;

/**
 * A run of filters and projections, and maybe the partial aggregate that ends a pipeline, on column
 * batches. Its input comes as batches (from a scan) or as rows, which become a batch: the columns
 * its expressions read as typed vectors, the others carried along as they are. A batch whose decimal
 * arithmetic outgrows a long runs the same steps row by row, so every batch gets the row engine's
 * answer.
 */
final class VectorSegment {
    /** Per step: a filter's predicate, or null for a projection. */
    private final List<VectorExpr> filters = new ArrayList<>();
    /** Per step: a projection's expressions, or null for a filter. */
    private final List<VectorExpr[]> projections = new ArrayList<>();
    private final VectorPartialAggregation aggregation;
    private final SqlType[] inputTypes;
    private final SqlType[] outputTypes;
    private final Consumer<List<Object[]>> out;
    /** The steps vectors cannot run, after those they can, on rows; null when there are none. */
    private final Pipeline rowTail;
    private final Consumer<List<Object[]>> downstream;
    /** The vectorized steps on rows, for the batches that outgrow a long. */
    private final Pipeline rowByRow;
    private boolean ranRowByRow;

    private VectorSegment(List<PipelineStep> vectorSteps, PipelineStep.PartialAggregate aggregate,
                          VectorPartialAggregation aggregation, Pipeline rowTail, SqlType[] inputTypes,
                          Consumer<List<Object[]>> out) {
        this.inputTypes = inputTypes;
        this.aggregation = aggregation;
        this.rowTail = rowTail;
        this.out = out;
        this.downstream = rowTail != null ? rowTail::accept : out;
        SqlType[] types = inputTypes;
        for (PipelineStep step : vectorSteps) {
            if (step instanceof PipelineStep.Filter f) {
                filters.add(VectorCompiler.compile(f.condition()));
                projections.add(null);
            } else {
                PipelineStep.Project p = (PipelineStep.Project) step;
                filters.add(null);
                projections.add(p.exprs().stream().map(VectorCompiler::compile).toArray(VectorExpr[]::new));
                types = p.exprs().stream().map(Expr::type).toArray(SqlType[]::new);
            }
        }
        this.outputTypes = types;
        List<PipelineStep> asRows = new ArrayList<>(vectorSteps);
        if (aggregation != null) {
            asRows.add(aggregate);
        }
        this.rowByRow = new Pipeline(asRows, aggregation != null ? out : downstream);
    }

    /**
     * The segment of {@code steps} (filters and projections, maybe a partial aggregate last) over
     * input columns of {@code inputTypes}; from the first step vectors cannot run on, the steps run on rows.
     */
    static VectorSegment of(List<PipelineStep> steps, SqlType[] inputTypes, Consumer<List<Object[]>> out,
                            QueryMemory memory) {
        int vectorized = 0;
        for (PipelineStep step : steps) {
            boolean ok = false;
            if (step instanceof PipelineStep.Filter f) {
                ok = f.condition().type().kind() == SqlType.Kind.BOOLEAN && VectorCompiler.compile(f.condition()) != null;
            } else if (step instanceof PipelineStep.Project p) {
                ok = p.exprs().stream().allMatch(e -> VectorCompiler.compile(e) != null);
            }
            if (!ok) {
                break;
            }
            vectorized++;
        }
        List<PipelineStep> vectorSteps = steps.subList(0, vectorized);
        List<PipelineStep> rest = steps.subList(vectorized, steps.size());
        if (rest.size() == 1 && rest.get(0) instanceof PipelineStep.PartialAggregate p) {
            VectorPartialAggregation aggregation = VectorPartialAggregation.of(p, memory);
            if (aggregation != null) {
                return new VectorSegment(vectorSteps, p, aggregation, null, inputTypes, out);
            }
        }
        // no joins here: a run holds filters, projections and a partial aggregate only
        Pipeline rowTail = rest.isEmpty() ? null : new Pipeline(rest, out);
        return new VectorSegment(vectorSteps, null, null, rowTail, inputTypes, out);
    }

    /** The types of the input columns {@code run} reads before its first projection; null for the others. */
    static SqlType[] typesRead(List<PipelineStep> run, int inputWidth) {
        SqlType[] types = new SqlType[inputWidth];
        for (PipelineStep step : run) {
            if (step instanceof PipelineStep.Filter f) {
                VectorPipeline.columnTypes(List.of(f.condition()), types);
            } else if (step instanceof PipelineStep.Project p) {
                VectorPipeline.columnTypes(p.exprs(), types);
                break;
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                VectorPipeline.columnTypes(a.keys(), types);
                VectorPipeline.columnTypes(a.aggregates().stream().map(AggregateCall::arg)
                        .filter(java.util.Objects::nonNull).toList(), types);
            }
        }
        return types;
    }

    /** Rows of SQL values in: the columns read become typed vectors, the others ride along as they are. */
    void acceptRows(List<Object[]> rows) {
        if (rows.isEmpty()) {
            return;
        }
        int n = rows.size();
        int width = rows.get(0).length;
        Vector[] columns = new Vector[width];
        try {
            for (int c = 0; c < width; c++) {
                SqlType t = c < inputTypes.length ? inputTypes[c] : null;
                Vector v = t == null || Vector.representation(t) == null ? new ObjectVector(new Object[n]) : Vector.allocate(t, n);
                for (int i = 0; i < n; i++) {
                    v.setBoxed(i, rows.get(i)[c], t);
                }
                columns[c] = v;
            }
        } catch (ArithmeticException | ClassCastException notAsTyped) {
            ranRowByRow = true;
            rowByRow.accept(rows);
            return;
        }
        accept(Batch.of(columns, n), rows);
    }

    /** A batch in. */
    void accept(Batch batch) {
        accept(batch, null);
    }

    private void accept(Batch batch, List<Object[]> asRows) {
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
            rows = result.toRows(outputTypes);
        } catch (ArithmeticException beyondLong) {
            ranRowByRow = true;
            rowByRow.accept(asRows != null ? asRows : batch.toRows(inputTypes));
            return;
        }
        downstream.accept(rows);
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

    /** The input has ended: groups go out, and what ran row by row finishes. */
    void finish() {
        if (aggregation != null) {
            aggregation.finish(out);
        }
        if (ranRowByRow) {
            rowByRow.finish();
        }
        if (rowTail != null) {
            rowTail.finish();
        }
    }

    @Override
    public String toString() {
        return "vector segment of " + filters.size() + " steps" + (aggregation != null ? " and a partial aggregate" : "")
                + Arrays.toString(outputTypes);
    }
}
