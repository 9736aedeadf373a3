package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;

/**
 * A run of filters, projections, hash joins, repeats dropped and grouping sets' copies, maybe ended by an aggregate
 * (whole, or the partial one that ends a pipeline, set by set over copies that cascade) or a top-N, on column batches. Its input comes as batches (from a scan) or as rows, which become a
 * batch: the columns its steps read as typed vectors, the others carried along as they are. A batch
 * whose decimal arithmetic outgrows a long runs the same steps row by row, so every batch gets the
 * row engine's answer.
 */
final class VectorSegment {
    private final List<PipelineStep> steps;
    /** Per step but a closing aggregate: what it does to a batch, handing what comes out to the next. */
    private final List<Op> ops = new ArrayList<>();
    /** Per step, the types of its input's columns (null where not read); then those of the steps' output. */
    private final List<SqlType[]> typesAt = new ArrayList<>();
    private final VectorAggregation aggregation;
    /** The top-N that ends the steps, or null. */
    private final VectorTopN topN;
    /**
     * By step, the joins whose build rows come out when the input ends (right and full joins; a
     * right semi or anti join, which ends the steps), in the order of their steps.
     */
    private final java.util.TreeMap<Integer, VectorHashJoin> keepers = new java.util.TreeMap<>();
    private final SqlType[] inputTypes;
    private final SqlType[] outputTypes;
    private final BuildRows.Cache builds;
    private final Consumer<List<Object[]>> out;
    private final QueryMemory memory;
    /** Per step, the steps from it on, on rows, made when a batch there first outgrows a long. */
    private final java.util.TreeMap<Integer, Pipeline> rowByRow = new java.util.TreeMap<>();
    /** Asked between the batches a join makes: the pipeline needs no more rows, or was cancelled. */
    private java.util.function.BooleanSupplier stop = () -> false;

    /** A step on batches: {@code next} takes what it makes, one batch or (a join) several. */
    @FunctionalInterface
    private interface Op {
        void apply(Batch batch, Consumer<Batch> next);

        static Op of(UnaryOperator<Batch> f) {
            return (b, next) -> next.accept(f.apply(b));
        }
    }
    /**
     * When the steps end in a whole aggregate and some batches ran row by row: the groups of both
     * ways, merged from their partial states, so a group both saw comes out once.
     */
    private FinalAggregation merged;

    /**
     * @param steps       filters, projections, the hash joins {@code joins} runs, and maybe an aggregate or a top-N last
     * @param inputTypes  the types of the input columns the steps read; null for the others
     */
    VectorSegment(List<PipelineStep> steps, SqlType[] inputTypes, Map<PipelineStep, VectorHashJoin> joins,
                  Map<PipelineStep, VectorExpand> expands, BuildRows.Cache builds, Consumer<List<Object[]>> out,
                  QueryMemory memory) {
        this.steps = List.copyOf(steps);
        this.inputTypes = inputTypes;
        this.builds = builds;
        this.out = out;
        this.memory = memory;
        SqlType[] types = inputTypes;
        VectorAggregation partial = null;
        VectorAggregation cascade = null;
        VectorTopN top = null;
        for (int i = 0; i < steps.size(); i++) {
            PipelineStep step = steps.get(i);
            typesAt.add(types);
            if (step instanceof PipelineStep.Filter f) {
                List<Expr> terms = f.condition() instanceof Expr.And and ? and.terms() : List.of(f.condition());
                ops.add(Op.of(new FilterTerms(terms.stream().map(VectorCompiler::compile).toArray(VectorExpr[]::new))::kept));
            } else if (step instanceof PipelineStep.DropRepeats d) {
                ops.add(Op.of(VectorRepeatsDropped.of(d, memory)::kept));
            } else if (step instanceof PipelineStep.Project p) {
                ops.add(Op.of(project(p.exprs().stream().map(VectorCompiler::compile).toArray(VectorExpr[]::new))));
                types = p.exprs().stream().map(Expr::type).toArray(SqlType[]::new);
            } else if (step instanceof PipelineStep.HashJoin j && j.kind().rightOnly()) {
                VectorHashJoin join = joins.get(j);
                keepers.put(i, join); // (the last step: VectorPipeline ends a run with it)
                ops.add((b, rest) -> join.probe(b, made -> { }, stop));
                types = join.outputTypes(types);
            } else if (step instanceof PipelineStep.HashJoin j) {
                VectorHashJoin join = joins.get(j);
                if (VectorHashJoin.keepsBuild(j.kind())) {
                    keepers.put(i, join);
                }
                int next = ops.size() + 1;
                // each batch the join makes goes on by itself: one that overflows runs row by row from there
                ops.add((b, rest) -> join.probe(b, made -> guarded(made, next), stop));
                types = join.outputTypes(types);
            } else if (step instanceof PipelineStep.Expand e) {
                VectorExpand expand = expands.get(e);
                cascade = e.cascaded() && i == steps.size() - 2 && steps.get(i + 1) instanceof PipelineStep.PartialAggregate p
                        ? VectorAggregation.cascaded(e, p, memory, out) : null;
                if (cascade != null) { // the first set's copy only: the aggregation makes each next set from its groups
                    ops.add(Op.of(b -> expand.copy(b, 0)));
                } else {
                    int next = ops.size() + 1;
                    // each copy goes on by itself: one that overflows runs row by row from there
                    ops.add((b, rest) -> expand.expand(b, copy -> guarded(copy, next)));
                }
                types = e.projections().get(0).stream().map(Expr::type).toArray(SqlType[]::new);
            } else if (step instanceof PipelineStep.Aggregate a) {
                partial = VectorAggregation.of(a, memory, out);
            } else if (step instanceof PipelineStep.TopN t) {
                top = new VectorTopN(t, memory, out);
            } else {
                partial = cascade != null ? cascade : VectorAggregation.of((PipelineStep.PartialAggregate) step, memory, out);
            }
        }
        this.aggregation = partial;
        this.topN = top;
        this.outputTypes = types;
        typesAt.add(types); // after the last step: what a join that ends the steps makes
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

    /** Has the joins stop making rows once {@code stop} says so (it may throw, to cancel). */
    void stopWhen(java.util.function.BooleanSupplier stop) {
        this.stop = stop;
    }

    /** Rows of SQL values in: the columns read become typed vectors, the others ride along as they are. */
    void acceptRows(List<Object[]> rows) {
        if (rows.isEmpty()) {
            return;
        }
        Batch batch = batchOf(rows, inputTypes);
        if (batch == null) {
            rowByRow(0).accept(rows);
            return;
        }
        guarded(batch, rows, 0);
    }

    /**
     * Rows that ran row by row up to step {@code at}, a join whose table only the batches reach,
     * into it: as a batch where they fit its probe types, else row by row into its table and on
     * through the steps after it on rows.
     */
    private void acceptRowsAt(List<Object[]> rows, int at) {
        if (rows.isEmpty()) {
            return;
        }
        Batch batch = batchOf(rows, typesAt.get(at));
        if (batch != null) {
            push(batch, at);
        } else {
            keepers.get(at).probeRows(rows, made -> rowByRow(at + 1).accept(made));
        }
    }

    /** The rows as a batch of {@code typed} columns (the others objects as they are); null where a value does not fit its type. */
    private static Batch batchOf(List<Object[]> rows, SqlType[] typed) {
        int n = rows.size();
        int width = rows.get(0).length;
        Vector[] columns = new Vector[width];
        SqlType[] types = new SqlType[width];
        for (int c = 0; c < width; c++) {
            types[c] = c < typed.length ? typed[c] : null;
            columns[c] = types[c] == null ? new ObjectVector(new Object[n]) : Vector.allocate(types[c], n);
        }
        try {
            // row by row: each row is an array of its own, read once while it is in the cache
            for (int i = 0; i < n; i++) {
                Object[] row = rows.get(i);
                for (int c = 0; c < width; c++) {
                    columns[c].setBoxed(i, row[c], types[c]);
                }
            }
        } catch (ArithmeticException | ClassCastException notAsTyped) {
            return null;
        }
        return Batch.of(columns, n);
    }

    /**
     * Where a stage before this one sends its rows: rows as {@link #acceptRows} takes them, batches
     * as {@link #acceptTyped} does.
     */
    BatchSink input() {
        return new BatchSink() {
            @Override
            public void accept(List<Object[]> rows) {
                acceptRows(rows);
            }

            @Override
            public void acceptBatch(Batch batch, SqlType[] types) {
                acceptTyped(batch, types);
            }
        };
    }

    /**
     * A batch whose column c holds values of {@code types[c]} (a whole aggregate's groups): each
     * column as it is where the steps read it as that type, boxed into objects where they do not
     * read it (it passes through as its values), converted where they read it as another type.
     */
    void acceptTyped(Batch batch, SqlType[] types) {
        Vector[] columns = new Vector[batch.width()];
        int[] pos = batch.positions();
        try {
            for (int c = 0; c < columns.length; c++) {
                Vector v = batch.column(c);
                SqlType want = c < inputTypes.length ? inputTypes[c] : null;
                if (v == null || want != null && want.equals(types[c])) {
                    columns[c] = v;
                    continue;
                }
                Vector to = want == null ? new ObjectVector(new Object[batch.capacity()])
                        : Vector.allocate(want, batch.capacity());
                for (int k = 0; k < batch.size(); k++) {
                    to.setBoxed(pos[k], v.box(pos[k], types[c]), want);
                }
                columns[c] = to;
            }
        } catch (ArithmeticException | ClassCastException notAsTyped) {
            acceptRows(batch.toRows(types));
            return;
        }
        guarded(new Batch(columns, pos, batch.size()), null, 0);
    }

    /** A batch in. */
    void accept(Batch batch) {
        guarded(batch, null, 0);
    }

    private void guarded(Batch batch, int from) {
        guarded(batch, null, from);
    }

    /**
     * Runs a batch through the steps from {@code from} on; when its decimal arithmetic outgrows a
     * long, the batch runs row by row from there instead. Nothing of it went on by then: a step
     * sends a batch on only after it is done with it, and a join's batches are guarded each.
     */
    private void guarded(Batch batch, List<Object[]> asRows, int from) {
        try {
            push(batch, from);
        } catch (ArithmeticException beyondLong) {
            rowByRow(from).accept(asRows != null ? asRows : batch.toRows(typesAt.get(from)));
        }
    }

    private void push(Batch batch, int from) {
        Batch b = batch;
        for (int s = from; s < ops.size(); s++) {
            if (b.size() == 0) {
                return;
            }
            Batch[] made = {null};
            ops.get(s).apply(b, out -> made[0] = out);
            if (made[0] == null) {
                return; // a join: it sent each batch it made through the steps after it
            }
            b = made[0];
        }
        if (b.size() == 0) {
            return;
        }
        if (aggregation != null) {
            aggregation.add(b);
            return;
        }
        if (topN != null) {
            topN.add(b, outputTypes); // throws no ArithmeticException: a batch is never kept twice
            return;
        }
        BatchSink.send(out, b, outputTypes);
    }

    /** The steps from {@code from} on, on rows of SQL values. */
    private Pipeline rowByRow(int from) {
        Pipeline rows = rowByRow.get(from);
        if (rows == null) {
            List<PipelineStep> rest = steps.subList(from, steps.size());
            PipelineStep last = steps.isEmpty() ? null : steps.get(steps.size() - 1);
            int width = typesAt.get(from).length;
            Integer keeper = keepers.ceilingKey(from);
            if (keeper != null) {
                // the steps before the join on rows, whose rows then probe the one table of build rows it marks
                rows = new Pipeline(steps.subList(from, keeper), width, builds, r -> acceptRowsAt(r, keeper), memory);
            } else if (aggregation != null && last instanceof PipelineStep.Aggregate whole) {
                if (merged == null) {
                    merged = new FinalAggregation(whole.keys().size(), whole.aggregates(), memory);
                }
                List<PipelineStep> partial = new ArrayList<>(rest.subList(0, rest.size() - 1));
                partial.add(new PipelineStep.PartialAggregate(whole.keys(), whole.aggregates()));
                rows = new Pipeline(partial, width, builds, merged::acceptAll, memory);
            } else if (topN != null) {
                // the rows before the top-N, into the one the batches reach
                rows = new Pipeline(rest.subList(0, rest.size() - 1), width, builds, topN::addRows, memory);
            } else {
                rows = new Pipeline(rest, width, builds, out, memory);
            }
            rowByRow.put(from, rows);
        }
        return rows;
    }

    /** The rows its aggregate sent on ungrouped ({@link VectorAggregation#rowsUngrouped}). */
    long rowsUngrouped() {
        return aggregation == null ? 0 : aggregation.rowsUngrouped();
    }

    /**
     * The input has ended: the build rows of each join that keeps them go through the steps after
     * it (once the rows that ran row by row up to it probed it too), then groups go out, and what
     * ran row by row finishes.
     */
    void finish() {
        int finishedTo = -1; // the row pipelines from steps up to here are finished
        for (var keeper : keepers.entrySet()) {
            finishedTo = finishRowByRow(finishedTo, keeper.getKey());
            int next = keeper.getKey() + 1;
            keeper.getValue().finishBuild(b -> guarded(b, next));
        }
        if (merged != null) {
            aggregation.finishPartials(merged::acceptAll);
            finishRowByRow(finishedTo, steps.size());
            merged.finish(out);
            return;
        }
        if (aggregation != null) {
            aggregation.finish();
        }
        finishRowByRow(finishedTo, steps.size());
        if (topN != null) {
            topN.finish();
        }
    }

    /** Finishes the row pipelines from steps after {@code after} up to {@code to}, in order; returns {@code to}. */
    private int finishRowByRow(int after, int to) {
        // a row pipeline finishing may overflow into one made later from a later step: looked up anew each time
        for (var e = rowByRow.higherEntry(after); e != null && e.getKey() <= to; e = rowByRow.higherEntry(e.getKey())) {
            e.getValue().finish();
        }
        return to;
    }
}
