package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.Batch;

/**
 * A pipeline's steps over column batches: each run of filters and projections (and a partial
 * aggregate that ends the pipeline) is a {@link VectorSegment}; the steps between runs (hash joins,
 * whole aggregates) run on rows of SQL values, each in a row {@link Pipeline} of its own, whose
 * output becomes the next segment's batches.
 */
final class VectorPipeline {
    private final VectorSegment head;
    /** Every stage after the head in order, to finish in that order: a finishing stage may still send rows on. */
    private final List<Runnable> finishers = new ArrayList<>();

    /**
     * @param inputTypes per input column its type, null for the columns the scan does not read
     * @param builds     what the joins build from
     */
    VectorPipeline(List<PipelineStep> steps, SqlType[] inputTypes, Pipeline.BuildSource builds,
                   Consumer<List<Object[]>> out, QueryMemory memory) {
        // Cut the steps into runs of vectorizable steps and the single row steps between them.
        List<List<PipelineStep>> runs = new ArrayList<>();
        List<PipelineStep> rowSteps = new ArrayList<>();
        List<PipelineStep> run = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            PipelineStep step = steps.get(i);
            boolean vectorizable = step instanceof PipelineStep.Filter || step instanceof PipelineStep.Project
                    || (step instanceof PipelineStep.PartialAggregate && i == steps.size() - 1);
            if (vectorizable) {
                run.add(step);
            } else {
                runs.add(run);
                rowSteps.add(step);
                run = new ArrayList<>();
            }
        }
        runs.add(run);
        // Widths of each run's input: the scan's, then what each row step leaves.
        int[] widths = new int[runs.size()];
        int width = inputTypes.length;
        for (int r = 0; r < runs.size(); r++) {
            widths[r] = width;
            for (PipelineStep s : runs.get(r)) {
                width = Pipeline.widthAfter(s, width);
            }
            if (r < rowSteps.size()) {
                width = Pipeline.widthAfter(rowSteps.get(r), width);
            }
        }
        // Wire them from the end: each stage sends its rows to the one after it.
        Consumer<List<Object[]>> next = out;
        List<Runnable> reversed = new ArrayList<>();
        VectorSegment segment = null;
        for (int r = runs.size() - 1; r >= 0; r--) {
            SqlType[] types = r == 0 ? inputTypes : VectorSegment.typesRead(runs.get(r), widths[r]);
            segment = VectorSegment.of(runs.get(r), types, next, memory);
            if (r > 0) {
                VectorSegment s = segment;
                reversed.add(s::finish);
                Pipeline rowStage = new Pipeline(List.of(rowSteps.get(r - 1)), widths[r - 1] + widthOfRun(runs.get(r - 1),
                        widths[r - 1]), builds, s::acceptRows, memory);
                reversed.add(rowStage::finish);
                next = rowStage::accept;
            }
        }
        this.head = segment;
        for (int i = reversed.size() - 1; i >= 0; i--) {
            finishers.add(reversed.get(i));
        }
    }

    /** How much a run changes its input's width: its output width minus its input width. */
    private static int widthOfRun(List<PipelineStep> run, int inputWidth) {
        int w = inputWidth;
        for (PipelineStep s : run) {
            w = Pipeline.widthAfter(s, w);
        }
        return w - inputWidth;
    }

    /** Runs a batch of input rows through the steps. */
    void accept(Batch batch) {
        head.accept(batch);
    }

    /** The input has ended: each stage in turn sends what it held back (groups, unmatched build rows). */
    void finish() {
        head.finish();
        finishers.forEach(Runnable::run);
    }

    /** The column types a run reads of its input (from its expressions' column references), null for the others. */
    static SqlType[] columnTypes(List<Expr> exprs, SqlType[] into) {
        for (Expr e : exprs) {
            if (e instanceof Expr.Column c) {
                into[c.index()] = c.type();
            }
            columnTypes(e.children(), into);
        }
        return into;
    }
}
