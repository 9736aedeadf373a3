package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/**
 * The rows that flow through the steps a node runs, as EXPLAIN shows them: before each step, their
 * columns (so that the step's expressions can name them, where the steps only know positions) and
 * how many are estimated to reach it over all nodes. Estimates follow the rules planning uses
 * ({@link CardinalityModel}), and take a join with keys to
 * keep each probe row whose partner survived the build side's filters (a foreign key's join);
 * -1 where the table's row count is unknown.
 */
final class PipelineRows {
    /**
     * What a join step builds from: its rows' columns, their estimated count, the rows of the table
     * they come from, each column's distinct values (NaN: unknown), and what is known of the values
     * of its computed columns (a subquery's sums that a residual compares with).
     */
    record Side(List<Field> fields, long rows, long tableRows, double[] distinct, ComputedValues values) {
        static final Side UNKNOWN = new Side(List.of(), -1, -1, new double[0]);

        /** A side whose computed columns' values are not known. */
        Side(List<Field> fields, long rows, long tableRows, double[] distinct) {
            this(fields, rows, tableRows, distinct, ComputedValues.unknown(fields.size()));
        }

        /** Its columns' values, as wide as its columns (not known where they were not). */
        ComputedValues valuesOf(int width) {
            return values.means().length == width ? values : ComputedValues.unknown(width);
        }
    }

    private final List<List<Field>> fields = new ArrayList<>();
    private final List<Long> rows = new ArrayList<>();
    private final double[] outputDistinct;
    private final ComputedValues outputValues;

    /**
     * @param output the pipeline's own output columns (what the last step makes), named as the
     *               plan above reads them; null to name them after the expressions
     * @param ranges the scanned table's known column spans, for the filters on its own columns
     * @param nodes  how many nodes run the pipeline (each sends its own first rows of a LIMIT)
     * @param distinct the scanned columns' distinct values (NaN: unknown)
     * @param model  how filters, GROUP BYs and joins are estimated
     */
    PipelineRows(List<Field> scanned, long scannedRows, double[] distinct, List<PipelineStep> steps, List<Field> output,
                 Function<JoinBuild, Side> builds, RowEstimates.Ranges ranges, int nodes, CardinalityModel model) {
        List<Field> row = scanned;
        long count = scannedRows;
        double[] d = distinct.length == scanned.size() ? distinct : CardinalityModel.unknown(scanned.size());
        int named = namedStep(steps);
        boolean tableColumns = true; // a filter reads the table's columns until a step makes others
        ComputedValues values = ComputedValues.unknown(scanned.size());
        for (int i = 0; i < steps.size(); i++) {
            fields.add(row);
            rows.add(count);
            PipelineStep step = steps.get(i);
            Side build = step instanceof PipelineStep.HashJoin j ? builds.apply(j.build()) : null;
            RowEstimates.Ranges spans = tableColumns ? ranges : RowEstimates.Ranges.NONE;
            count = step instanceof PipelineStep.Filter f ? model.filtered(count, f.condition(), row, d, values, spans)
                    : rowsAfter(step, count, row, d, values, build, spans, nodes, model);
            List<Field> next = fieldsAfter(step, row, build, i == named ? output : null);
            d = CardinalityModel.capped(distinctAfter(step, row, rows.get(i), d, build, next.size(), spans, model), count);
            values = valuesAfter(step, values, build, row, rows.get(i), count, next.size(), model);
            row = next;
            tableColumns &= step instanceof PipelineStep.Filter;
        }
        fields.add(row);
        rows.add(count);
        outputDistinct = d;
        outputValues = values;
    }

    /** The distinct values of the columns {@code step} makes of {@code in} rows of columns {@code row} whose values {@code d} knows. */
    private static double[] distinctAfter(PipelineStep step, List<Field> row, long in, double[] d, Side build, int width,
                                          RowEstimates.Ranges ranges, CardinalityModel model) {
        double[] out;
        if (step instanceof PipelineStep.Filter f) {
            out = model.narrowed(d, f.condition(), row, ranges);
        } else if (step instanceof PipelineStep.Project p) {
            out = model.projected(p.exprs(), row, d);
        } else if (step instanceof PipelineStep.Aggregate a) {
            out = model.grouped(a.keys(), a.aggregates(), in, row, d, width);
        } else if (step instanceof PipelineStep.PartialAggregate a) { // running states, not values
            out = model.grouped(a.keys(), List.of(), in, row, d, width);
        } else if (step instanceof PipelineStep.Window) { // the calls' values: not known
            out = java.util.Arrays.copyOf(d, width);
            java.util.Arrays.fill(out, d.length, width, Double.NaN);
        } else if (step instanceof PipelineStep.HashJoin j) {
            double[] built = build.distinct().length == j.buildWidth() ? build.distinct()
                    : CardinalityModel.unknown(j.buildWidth());
            List<Field> builtFields = build.fields().size() == j.buildWidth() ? build.fields() : List.of();
            out = model.joinedColumns(j.kind(), row, d, j.probeKeys(), builtFields, built, j.buildKeys());
        } else {
            out = d;
        }
        return out.length == width ? out : CardinalityModel.unknown(width);
    }

    /**
     * What is known of the values of the columns {@code step} makes of {@code in} rows ({@code out}
     * after it) of columns {@code row}: a GROUP BY's aggregates, and what projections and filters
     * pass on of them ({@link ComputedValues}); a join's columns keep theirs, of either side.
     */
    private static ComputedValues valuesAfter(PipelineStep step, ComputedValues values, Side build, List<Field> row,
                                              long in, long out, int width, CardinalityModel model) {
        ComputedValues after;
        if (step instanceof PipelineStep.Filter || step instanceof PipelineStep.TopN || step instanceof PipelineStep.Limit) {
            after = values;
        } else if (step instanceof PipelineStep.Project p) {
            after = values.projected(p.exprs());
        } else if (step instanceof PipelineStep.Aggregate a) {
            after = model.aggregated(a.keys().size(), a.aggregates(), row, in, out, width);
        } else if (step instanceof PipelineStep.HashJoin j && j.kind().leftOnly()) {
            after = values;
        } else if (step instanceof PipelineStep.HashJoin j && !j.kind().rightOnly()) {
            after = values.widened(row.size()).concat(build.valuesOf(j.buildWidth()));
        } else {
            after = ComputedValues.unknown(width);
        }
        return after.means().length == width ? after : ComputedValues.unknown(width);
    }

    /** The distinct values of the pipeline's output columns (NaN: unknown). */
    double[] outputDistinct() {
        return outputDistinct;
    }

    /** What is known of the values of the pipeline's computed output columns. */
    ComputedValues outputValues() {
        return outputValues;
    }

    /**
     * The step whose columns are the pipeline's output, named as the plan above reads them: the
     * last that makes columns, when only steps that pass them on (filters, sorts, limits) follow;
     * -1 when none (the output of a partial aggregate is running states, named by nothing above).
     */
    private static int namedStep(List<PipelineStep> steps) {
        for (int i = steps.size() - 1; i >= 0; i--) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.Project || step instanceof PipelineStep.Aggregate
                    || step instanceof PipelineStep.HashJoin || step instanceof PipelineStep.Expand
                    || step instanceof PipelineStep.Window || step instanceof PipelineStep.MergePartials) {
                return i;
            }
            if (step instanceof PipelineStep.PartialAggregate) {
                return -1;
            }
        }
        return -1;
    }

    /** The columns of the rows that reach step {@code i} (the pipeline's output for {@code i} = the step count). */
    List<Field> before(int i) {
        return fields.get(i);
    }

    long rowsBefore(int i) {
        return rows.get(i);
    }

    /** The columns of the rows that reach the last step (what a final aggregate's calls name, of the partial one). */
    List<Field> lastStepInput() {
        return fields.get(Math.max(0, fields.size() - 2));
    }

    /** The rows estimated to reach the last step. */
    long lastStepRows() {
        return rows.get(Math.max(0, rows.size() - 2));
    }

    List<Field> output() {
        return fields.get(fields.size() - 1);
    }

    long outputRows() {
        return rows.get(rows.size() - 1);
    }

    private static List<Field> fieldsAfter(PipelineStep step, List<Field> in, Side build, List<Field> named) {
        List<Field> out;
        if (step instanceof PipelineStep.Project p) {
            out = computed(p.exprs(), List.of(), in);
        } else if (step instanceof PipelineStep.Expand e) {
            out = expanded(e, in);
        } else if (step instanceof PipelineStep.Aggregate a) {
            out = computed(a.keys(), a.aggregates(), in);
        } else if (step instanceof PipelineStep.PartialAggregate a) {
            out = computed(a.keys(), List.of(), in); // then each aggregate's running state, which only the final step reads
            for (AggregateCall call : a.aggregates()) {
                String state = ColumnNames.of(in).sql(call);
                out.add(new Field(null, state + " count", org.oooengine.core.sql.SqlType.BIGINT));
                out.add(new Field(null, state + " state", call.type()));
                out.add(new Field(null, state + " squares", org.oooengine.core.sql.SqlType.DOUBLE));
            }
        } else if (step instanceof PipelineStep.MergePartials m) {
            out = new ArrayList<>(in.subList(0, Math.min(m.keyCount(), in.size())));
            for (int i = 0; i < m.aggregates().size(); i++) { // named as the partial aggregate named its states
                int at = m.keyCount() + i * AggregateCall.PARTIAL_WIDTH;
                String name = at < in.size() && in.get(at) != null ? in.get(at).name().replaceFirst(" count$", "")
                        : m.aggregates().get(i).toString();
                out.add(new Field(null, name, m.aggregates().get(i).type()));
            }
        } else if (step instanceof PipelineStep.Window w) {
            List<Field> withCalls = new ArrayList<>(in);
            ColumnNames names = ColumnNames.of(in);
            w.calls().forEach(call -> withCalls.add(new Field(null, call.text(names), call.type())));
            out = withCalls;
        } else if (step instanceof PipelineStep.HashJoin j) {
            out = new ArrayList<>(j.kind().rightOnly() ? List.of() : in);
            if (!j.kind().leftOnly()) {
                out.addAll(build.fields().size() == j.buildWidth() ? build.fields() : unnamed(j.buildWidth()));
            }
        } else {
            return in;
        }
        if (named == null || named.size() != out.size()) {
            return out;
        }
        List<Field> renamed = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            boolean own = out.get(i) != null && !ColumnNames.generated(named.get(i).name());
            renamed.add(own ? named.get(i) : out.get(i));
        }
        return renamed;
    }

    /** Columns made by expressions: a column keeps its name, a dropped one (a null) none, any other is named by its SQL. */
    private static List<Field> computed(List<Expr> exprs, List<AggregateCall> calls, List<Field> in) {
        ColumnNames names = ColumnNames.of(in);
        List<Field> out = new ArrayList<>();
        for (Expr e : exprs) {
            if (e instanceof Expr.Column c) {
                out.add(c.index() < in.size() ? in.get(c.index()) : null);
            } else if (e instanceof Expr.Literal l && l.value() == null) {
                out.add(null);
            } else {
                out.add(new Field(null, names.sql(e), e.type()));
            }
        }
        calls.forEach(call -> out.add(new Field(null, names.sql(call), call.type())));
        return out;
    }

    /**
     * The columns of grouping sets' copies: each named by the first copy that gives it a value
     * (a key some sets leave null), the grouping id (constants only) by what it is.
     */
    private static List<Field> expanded(PipelineStep.Expand e, List<Field> in) {
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < e.width(); i++) {
            int at = i;
            Expr made = e.projections().stream().map(copy -> copy.get(at))
                    .filter(x -> !(x instanceof Expr.Literal l && l.value() == null)).findFirst().orElse(null);
            boolean constants = e.projections().stream().allMatch(copy -> copy.get(at) instanceof Expr.Literal);
            out.add(made == null ? null : constants && e.projections().size() > 1
                    ? new Field(null, "grouping__id", made.type()) : computed(List.of(made), List.of(), in).get(0));
        }
        return out;
    }

    private static List<Field> unnamed(int width) {
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            out.add(new Field(null, "build column " + (i + 1), org.oooengine.core.sql.SqlType.VOID));
        }
        return out;
    }

    private static long rowsAfter(PipelineStep step, long in, List<Field> row, double[] d, ComputedValues values, Side build,
                                  RowEstimates.Ranges ranges, int nodes, CardinalityModel model) {
        if (step instanceof PipelineStep.Filter f) {
            return model.filtered(in, f.condition(), row, d, ranges);
        }
        if (step instanceof PipelineStep.TopN t) {
            return limited(in, t.count() * nodes);
        }
        if (step instanceof PipelineStep.Limit l) {
            return limited(in, l.count() * nodes);
        }
        if (step instanceof PipelineStep.Aggregate a) {
            return a.keys().isEmpty() ? nodes : model.groups(in, a.keys(), row, d);
        }
        if (step instanceof PipelineStep.PartialAggregate a) {
            return a.keys().isEmpty() ? nodes : model.partialGroups(in, a.keys(), row, d, nodes);
        }
        if (step instanceof PipelineStep.DropRepeats r) {
            return model.partialGroups(in, r.keys(), row, d, nodes);
        }
        if (step instanceof PipelineStep.MergePartials m) { // each group's partial rows made one
            return model.groups(in, java.util.stream.IntStream.range(0, m.keyCount())
                    .mapToObj(k -> (Expr) new Expr.Column(k, row.get(k) == null ? org.oooengine.core.sql.SqlType.VOID
                            : row.get(k).type())).toList(), row, d);
        }
        if (step instanceof PipelineStep.HashJoin j) {
            return model.joined(j.kind(), in, row, d, values, j.probeKeys(), build, j.buildKeys(), j.residual());
        }
        if (step instanceof PipelineStep.Expand e) {
            return in < 0 ? -1 : in * e.projections().size();
        }
        return in;
    }

    static long limited(long rows, long count) {
        return rows < 0 ? count : Math.min(rows, count);
    }
}
