package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.expr.Expr;

/**
 * Runs the steps of a {@link ScanPipeline} over batches of rows: filters and projections batch by
 * batch, passing each batch on; a partial aggregate at the end keeps its groups until
 * {@link #finish} and then sends their states. Rows are SQL values (see {@code SqlType}).
 */
public final class Pipeline {
    /** Rows per batch: large enough to amortise a call per step, small enough to stay in cache. */
    public static final int BATCH_ROWS = 1024;

    private final List<PipelineStep> steps;
    private final PipelineStep.PartialAggregate aggregate;
    private final GroupTable groups;
    private final Consumer<List<Object[]>> out;
    private long rowsIn;
    private long rowsOut;

    public Pipeline(List<PipelineStep> steps, Consumer<List<Object[]>> out) {
        int last = steps.size() - 1;
        for (int i = 0; i < last; i++) {
            if (steps.get(i) instanceof PipelineStep.PartialAggregate) {
                throw new IllegalArgumentException("a partial aggregate ends a pipeline");
            }
        }
        this.aggregate = last >= 0 && steps.get(last) instanceof PipelineStep.PartialAggregate a ? a : null;
        this.steps = aggregate == null ? List.copyOf(steps) : List.copyOf(steps.subList(0, last));
        this.groups = aggregate == null ? null : new GroupTable(aggregate.aggregates());
        this.out = out;
    }

    public void accept(List<Object[]> batch) {
        rowsIn += batch.size();
        List<Object[]> rows = batch;
        for (PipelineStep step : steps) {
            if (rows.isEmpty()) {
                return;
            }
            rows = apply(step, rows);
        }
        if (aggregate != null) {
            aggregateBatch(rows);
        } else if (!rows.isEmpty()) {
            rowsOut += rows.size();
            out.accept(rows);
        }
    }

    /** The input has ended: a partial aggregate sends its groups (one group without keys, even empty). */
    public void finish() {
        if (aggregate == null) {
            return;
        }
        if (groups.isEmpty() && aggregate.keys().isEmpty()) {
            groups.group(new Object[0]);
        }
        List<Object[]> batch = new ArrayList<>(BATCH_ROWS);
        for (GroupTable.Group g : groups.groups()) {
            batch.add(g.partial());
            if (batch.size() == BATCH_ROWS) {
                emit(batch);
                batch = new ArrayList<>(BATCH_ROWS);
            }
        }
        emit(batch);
    }

    public long rowsIn() {
        return rowsIn;
    }

    public long rowsOut() {
        return rowsOut;
    }

    private void emit(List<Object[]> batch) {
        if (!batch.isEmpty()) {
            rowsOut += batch.size();
            out.accept(batch);
        }
    }

    private static List<Object[]> apply(PipelineStep step, List<Object[]> rows) {
        if (step instanceof PipelineStep.Filter f) {
            List<Object[]> kept = new ArrayList<>(rows.size());
            Expr condition = f.condition();
            for (Object[] row : rows) {
                if (Boolean.TRUE.equals(condition.eval(row))) {
                    kept.add(row);
                }
            }
            return kept;
        }
        if (step instanceof PipelineStep.Project p) {
            Expr[] exprs = p.exprs().toArray(Expr[]::new);
            List<Object[]> projected = new ArrayList<>(rows.size());
            for (Object[] row : rows) {
                Object[] r = new Object[exprs.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = exprs[i].eval(row);
                }
                projected.add(r);
            }
            return projected;
        }
        throw new IllegalStateException("no batch form of " + step);
    }

    private void aggregateBatch(List<Object[]> rows) {
        Expr[] keys = aggregate.keys().toArray(Expr[]::new);
        Object[] keyValues = new Object[keys.length];
        for (Object[] row : rows) {
            for (int i = 0; i < keys.length; i++) {
                keyValues[i] = keys[i].eval(row);
            }
            groups.group(Arrays.copyOf(keyValues, keys.length)).add(row);
        }
    }
}
