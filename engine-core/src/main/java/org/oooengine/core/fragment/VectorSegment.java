package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;

/**
 * A run of filters, projections and hash joins, maybe ended by an aggregate (whole, or the partial
 * one that ends a pipeline), on column batches. Its input comes as batches (from a scan) or as rows, which become a
 * batch: the columns its steps read as typed vectors, the others carried along as they are. A batch
 * whose decimal arithmetic outgrows a long runs the same steps row by row, so every batch gets the
 * row engine's answer.
 */
final class VectorSegment {
    private final List<PipelineStep> steps;
    private final List<UnaryOperator<Batch>> ops = new ArrayList<>();
    private final VectorAggregation aggregation;
    private final SqlType[] inputTypes;
    private final SqlType[] outputTypes;
    private final BuildRows.Cache builds;
    private final Consumer<List<Object[]>> out;
    private final QueryMemory memory;
    /** The same steps on rows, made when a batch first outgrows a long. */
    private Pipeline rowByRow;
    /**
     * When the steps end in a whole aggregate and some batches ran row by row: the groups of both
     * ways, merged from their partial states, so a group both saw comes out once.
     */
    private FinalAggregation merged;

    /**
     * @param steps       filters, projections, the hash joins {@code joins} runs, and maybe a partial aggregate last
     * @param inputTypes  the types of the input columns the steps read; null for the others
     */
    VectorSegment(List<PipelineStep> steps, SqlType[] inputTypes, Map<PipelineStep, VectorHashJoin> joins,
                  BuildRows.Cache builds, Consumer<List<Object[]>> out, QueryMemory memory) {
        this.steps = List.copyOf(steps);
        this.inputTypes = inputTypes;
        this.builds = builds;
        this.out = out;
        this.memory = memory;
        SqlType[] types = inputTypes;
        VectorAggregation partial = null;
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.Filter f) {
                ops.add(filter(VectorCompiler.compile(f.condition())));
            } else if (step instanceof PipelineStep.Project p) {
                ops.add(project(p.exprs().stream().map(VectorCompiler::compile).toArray(VectorExpr[]::new)));
                types = p.exprs().stream().map(Expr::type).toArray(SqlType[]::new);
            } else if (step instanceof PipelineStep.HashJoin j) {
                VectorHashJoin join = joins.get(j);
                ops.add(join::probe);
                types = join.outputTypes(types);
            } else if (step instanceof PipelineStep.Aggregate a) {
                partial = VectorAggregation.of(a, memory, out);
            } else {
                partial = VectorAggregation.of((PipelineStep.PartialAggregate) step, memory, out);
            }
        }
        this.aggregation = partial;
        this.outputTypes = types;
    }

    private static UnaryOperator<Batch> filter(VectorExpr predicate) {
        return b -> {
            byte[] keep = ((BoolVector) predicate.eval(b)).values;
            int[] pos = b.positions();
            int[] kept = new int[b.size()];
            int n = 0;
            for (int k = 0; k < b.size(); k++) {
                if (keep[pos[k]] == BoolVector.TRUE) {
                    kept[n++] = pos[k];
                }
            }
            return b.withPositions(kept, n);
        };
    }

    private static UnaryOperator<Batch> project(VectorExpr[] exprs) {
        return b -> {
            Vector[] columns = new Vector[exprs.length];
            for (int i = 0; i < exprs.length; i++) {
                columns[i] = exprs[i].eval(b);
            }
            return b.withColumns(columns);
        };
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
                Vector v = t == null ? new ObjectVector(new Object[n]) : Vector.allocate(t, n);
                for (int i = 0; i < n; i++) {
                    v.setBoxed(i, rows.get(i)[c], t);
                }
                columns[c] = v;
            }
        } catch (ArithmeticException | ClassCastException notAsTyped) {
            rowByRow().accept(rows);
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
            Batch b = batch;
            for (int s = 0; s < ops.size() && b.size() > 0; s++) {
                b = ops.get(s).apply(b);
            }
            if (b.size() == 0) {
                return;
            }
            if (aggregation != null) {
                aggregation.add(b);
                return;
            }
            rows = b.toRows(outputTypes);
        } catch (ArithmeticException beyondLong) {
            rowByRow().accept(asRows != null ? asRows : batch.toRows(inputTypes));
            return;
        }
        out.accept(rows);
    }

    private Pipeline rowByRow() {
        if (rowByRow == null) {
            PipelineStep last = steps.isEmpty() ? null : steps.get(steps.size() - 1);
            if (aggregation != null && last instanceof PipelineStep.Aggregate whole) {
                merged = new FinalAggregation(whole.keys().size(), whole.aggregates(), memory);
                List<PipelineStep> partial = new ArrayList<>(steps.subList(0, steps.size() - 1));
                partial.add(new PipelineStep.PartialAggregate(whole.keys(), whole.aggregates()));
                rowByRow = new Pipeline(partial, inputTypes.length, builds, rows -> rows.forEach(merged::accept), memory);
            } else {
                rowByRow = new Pipeline(steps, inputTypes.length, builds, out, memory);
            }
        }
        return rowByRow;
    }

    /** The input has ended: groups go out, and what ran row by row finishes. */
    void finish() {
        if (merged != null) {
            aggregation.finishPartials(rows -> rows.forEach(merged::accept));
            rowByRow.finish();
            List<Object[]> results = merged.results();
            for (int from = 0; from < results.size(); from += Pipeline.BATCH_ROWS) {
                out.accept(results.subList(from, Math.min(results.size(), from + Pipeline.BATCH_ROWS)));
            }
            return;
        }
        if (aggregation != null) {
            aggregation.finish();
        }
        if (rowByRow != null) {
            rowByRow.finish();
        }
    }
}
