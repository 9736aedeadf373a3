package org.oooengine.optimizer.rel;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * How physical planning and EXPLAIN estimate rows, in one place: the rows of a logical plan node,
 * the share of rows a condition keeps and the groups a GROUP BY makes. It reads what the tables'
 * statistics say of a column — its distinct values, its stored span ({@link TableLayouts}) — by
 * following a column back to the table it was read from: a column keeps the table alias and name
 * it was scanned under, so a field names its table and column wherever it flows.
 *
 * <ul>
 *   <li>{@code column = constant}: one of the column's distinct values; {@code <>} the rest;
 *       {@code IN (...)}: one per item.</li>
 *   <li>A range of a column whose span is known: the part of the span it covers
 *       ({@link RowEstimates}).</li>
 *   <li>{@code OR}: what any of its terms keeps, taken as independent; {@code NOT}: the rest;
 *       {@code LIKE}: the share of the column's sampled values it matches, else
 *       {@link RowEstimates#likeShare}; {@code NOT LIKE} the rest.</li>
 *   <li>Joins: by the keys' distinct values ({@link #joined}).</li>
 *   <li>{@code GROUP BY}: the product of the keys' distinct values (a year of dates: the years the
 *       column spans), never more than the rows; each node makes at most its share of them.</li>
 *   <li>Anything else: {@link RowEstimates#CONJUNCT_SELECTIVITY} per conjunct, as before statistics.</li>
 * </ul>
 */
final class CardinalityModel {
    /** The rows a LATERAL VIEW is guessed to make of each input row. */
    static final int GENERATED_PER_ROW = 4;

    /** Fewer sampled values than this say too little of a LIKE (a tiny table's few rows). */
    private static final int MIN_SAMPLE = 20;
    private final TableLayouts layouts;
    /** The rows through the physical nodes this model does not know (pipelines the nodes run), or null for the rest. */
    private final java.util.function.Function<RelNode, PipelineRows> physical;
    /** The tables scanned, by alias and, where unambiguous, by column name. */
    private final Map<String, TableInfo> byAlias = new HashMap<>();
    private final Map<String, TableInfo> byColumn = new HashMap<>();
    /** The one scan under each alias (absent where scans of different filters or tables share it). */
    private final Map<String, RelNode.Scan> scanByAlias = new HashMap<>();
    /**
     * The conditions the scans put on one column alone, by alias and column, each over a row of that
     * column only; absent where scans under the same alias put different ones.
     */
    private final Map<List<String>, List<Expr>> scanConditions = new HashMap<>();
    private final Map<RelNode, Long> rows = new IdentityHashMap<>();
    private final Map<RelNode, double[]> columns = new IdentityHashMap<>();
    private final Map<RelNode, ComputedValues> computed = new IdentityHashMap<>();
    /** An expression's distinct values over a sampled column, by the expression and the column. */
    private final Map<List<Object>, Double> sampledDistinct = new HashMap<>();
    /** The scanned columns inner joins estimated so far equate, each pair both ways ({@code alias.column}). */
    private final java.util.Set<List<String>> joinedColumns = new java.util.HashSet<>();

    private CardinalityModel(TableLayouts layouts, List<RelNode.Scan> scans,
                             java.util.function.Function<RelNode, PipelineRows> physical) {
        this.layouts = layouts;
        this.physical = physical;
        Map<String, Integer> seen = new HashMap<>();
        java.util.Set<String> sharedAliases = new java.util.HashSet<>();
        for (RelNode.Scan s : scans) {
            byAlias.put(s.alias(), s.table());
            RelNode.Scan other = scanByAlias.putIfAbsent(s.alias(), s);
            if (other != null && (other.table() != s.table() || !java.util.Objects.equals(other.filter(), s.filter()))) {
                sharedAliases.add(s.alias());
            }
            for (var c : s.table().columns()) {
                TableInfo before = byColumn.put(c.name(), s.table());
                if (before != null && !before.storage().equals(s.table().storage())) {
                    seen.merge(c.name(), 1, Integer::sum);
                }
            }
        }
        seen.keySet().forEach(byColumn::remove); // a name two tables have says nothing of which
        sharedAliases.forEach(scanByAlias::remove);
        java.util.Set<List<String>> ambiguous = new java.util.HashSet<>();
        for (RelNode.Scan s : scans) {
            for (int i = 0; i < s.fields().size(); i++) {
                List<String> key = List.of(s.alias(), s.fields().get(i).name());
                List<Expr> on = conditionsOn(s.filter(), i);
                List<Expr> before = scanConditions.putIfAbsent(key, on);
                if (before != null && !before.equals(on)) {
                    ambiguous.add(key);
                }
            }
        }
        ambiguous.forEach(scanConditions::remove);
    }

    /** The conjuncts of {@code filter} that read column {@code column} alone, over a row of that column only. */
    private static List<Expr> conditionsOn(Expr filter, int column) {
        if (filter == null) {
            return List.of();
        }
        return Exprs.conjuncts(filter).stream().filter(c -> onlyColumn(c) == column)
                .map(c -> Exprs.remap(c, i -> 0)).toList();
    }

    /**
     * The model of a placed plan whose logical plan scanned {@code scans}, over what {@code layouts}
     * knows of their tables; {@code physical} tells the rows through the pipelines the nodes run
     * (null for any other node).
     */
    static CardinalityModel of(TableLayouts layouts, List<RelNode.Scan> scans,
                               java.util.function.Function<RelNode, PipelineRows> physical) {
        return new CardinalityModel(layouts, scans, physical);
    }

    /** The model of a logical plan. */
    static CardinalityModel of(TableLayouts layouts, RelNode plan) {
        return new CardinalityModel(layouts, PlanPrinter.Context.scansOf(plan), n -> null);
    }

    /** Rows a logical plan node is estimated to produce; -1 when unknown (a table in files, MapReduce mode). */
    long rows(RelNode n) {
        Long known = rows.get(n);
        if (known == null) {
            known = estimate(n);
            rows.put(n, known);
        }
        return known;
    }

    private long estimate(RelNode n) {
        PipelineRows pipeline = physical.apply(n);
        if (pipeline != null) {
            return pipeline.outputRows();
        }
        if (n instanceof RelNode.Scan s) {
            long table = layouts.rows(s.table()).orElse(-1);
            return filtered(table, s.filter(), s.fields(), base(s.fields()), column -> layouts.range(s.table(), column));
        } else if (n instanceof RelNode.Filter f) {
            return RowEstimates.kept(rows(f.input()), share(f.condition(), f.input().fields(), columns(f.input()),
                    computed(f.input()), RowEstimates.Ranges.NONE));
        } else if (n instanceof RelNode.Project p) {
            return rows(p.input());
        } else if (n instanceof RelNode.Sort s) {
            return rows(s.input());
        } else if (n instanceof RelNode.Window w) { // a row out for each row in
            return rows(w.input());
        } else if (n instanceof RelNode.Limit l) {
            return PipelineRows.limited(rows(l.input()), l.count());
        } else if (n instanceof RelNode.SingleRow) {
            return 1;
        } else if (n instanceof RelNode.PartialGroups g) { // as merged: the parts' repeats are not known here
            return rows(g.groups());
        } else if (n instanceof RelNode.Aggregate a && a.input() instanceof RelNode.Expand e) {
            return groupingSets(a, e);
        } else if (n instanceof RelNode.Aggregate a) {
            return a.keys().isEmpty() ? 1 : groups(rows(a.input()), a.keys(), a.input().fields(), columns(a.input()));
        } else if (n instanceof RelNode.Expand e) {
            long in = rows(e.input());
            return in < 0 ? -1 : in * e.projections().size();
        } else if (n instanceof RelNode.Replicate r) {
            return rows(r.input());
        } else if (n instanceof RelNode.Generate g) {
            long in = rows(g.input()); // no statistics of arrays: guess a few elements each
            return in < 0 ? -1 : in * GENERATED_PER_ROW;
        } else if (n instanceof RelNode.FinalAggregate a) {
            return a.keyCount() == 0 ? 1 : groups(rows(a.input()), keyColumns(a.keyCount(), a.input()), a.input().fields(),
                    columns(a.input()));
        } else if (n instanceof RelNode.Join j) {
            return joined(j.kind(), rows(j.left()), j.left().fields(), columns(j.left()), computed(j.left()),
                    boxed(j.leftKeys()), side(j.right()), boxed(j.rightKeys()), j.residual());
        } else if (n instanceof RelNode.Union u) {
            long sum = 0;
            for (RelNode in : u.inputs()) {
                long r = rows(in);
                if (r < 0) {
                    return -1;
                }
                sum += r;
            }
            return sum;
        } else if (n instanceof RelNode.Values v) {
            return v.rows().size();
        } else if (n instanceof RelNode.IndexJoinCandidate c) {
            return rows(c.hashJoins());
        }
        return -1;
    }

    /** Distinct values of each output column of {@code n}, each at most its rows; NaN where unknown. */
    double[] columns(RelNode n) {
        double[] known = columns.get(n);
        if (known == null) {
            known = capped(distinctOf(n), rows(n));
            columns.put(n, known);
        }
        return known;
    }

    private double[] distinctOf(RelNode n) {
        PipelineRows pipeline = physical.apply(n);
        if (pipeline != null) {
            return pipeline.outputDistinct();
        }
        if (n instanceof RelNode.Scan s) {
            return narrowed(base(s.fields()), s.filter(), s.fields(), column -> layouts.range(s.table(), column));
        } else if (n instanceof RelNode.Filter f) {
            return narrowed(columns(f.input()), f.condition(), f.input().fields(), RowEstimates.Ranges.NONE);
        } else if (n instanceof RelNode.Project p) {
            return projected(p.exprs(), p.input().fields(), columns(p.input()));
        } else if (n instanceof RelNode.Sort || n instanceof RelNode.Limit || n instanceof RelNode.SingleRow) {
            return columns(inputOf(n));
        } else if (n instanceof RelNode.PartialGroups g) {
            return columns(g.groups());
        } else if (n instanceof RelNode.Aggregate a) {
            return grouped(a.keys(), a.aggregates(), rows(a.input()), a.input().fields(), columns(a.input()), a.fields().size());
        } else if (n instanceof RelNode.FinalAggregate a) {
            // its input is the nodes' partial groups: how many rows each counted is not known here
            return grouped(keyColumns(a.keyCount(), a.input()), a.aggregates(), -1, a.input().fields(), columns(a.input()),
                    a.fields().size());
        } else if (n instanceof RelNode.Join j) {
            return joinedColumns(j.kind(), j.left().fields(), columns(j.left()), boxed(j.leftKeys()), j.right().fields(),
                    columns(j.right()), boxed(j.rightKeys()));
        } else if (n instanceof RelNode.IndexJoinCandidate c) {
            return columns(c.hashJoins());
        }
        return unknown(n.fields().size());
    }

    /**
     * The mean value and spread of each output column of {@code n} that an aggregate computes, or
     * arithmetic over one ({@link MeanValues}); NaN elsewhere (a stored column: its span tells more).
     */
    ComputedValues computed(RelNode n) {
        ComputedValues known = computed.get(n);
        if (known == null) {
            known = computedOf(n);
            computed.put(n, known);
        }
        return known;
    }

    /** The mean values of {@link #computed}. */
    double[] means(RelNode n) {
        return computed(n).means();
    }

    private ComputedValues computedOf(RelNode n) {
        int width = n.fields().size();
        PipelineRows pipeline = physical.apply(n);
        if (pipeline != null) {
            return ComputedValues.unknown(width);
        }
        ComputedValues out;
        if (n instanceof RelNode.Filter f) {
            out = computed(f.input());
        } else if (n instanceof RelNode.Sort || n instanceof RelNode.Limit || n instanceof RelNode.SingleRow) {
            out = computed(inputOf(n));
        } else if (n instanceof RelNode.Project p) {
            out = computed(p.input()).projected(p.exprs());
        } else if (n instanceof RelNode.Join j) {
            ComputedValues left = computed(j.left());
            ComputedValues right = computed(j.right());
            out = j.kind().leftOnly() ? left : j.kind().rightOnly() ? right : left.concat(right);
        } else if (n instanceof RelNode.PartialGroups g) {
            out = computed(g.groups());
        } else if (n instanceof RelNode.Aggregate a && !(a.input() instanceof RelNode.Expand)) {
            out = aggregated(a.keys().size(), a.aggregates(), a.input().fields(), rows(a.input()), rows(a), width);
        } else if (n instanceof RelNode.FinalAggregate a && physical.apply(a.input()) != null) {
            PipelineRows in = physical.apply(a.input()); // its last step is the nodes' partial aggregate
            out = aggregated(a.keyCount(), a.aggregates(), in.lastStepInput(), in.lastStepRows(), rows(a), width);
        } else {
            out = ComputedValues.unknown(width);
        }
        return out.means().length == width ? out : ComputedValues.unknown(width);
    }

    /**
     * The means and spreads of a GROUP BY's {@code keys} keys (unknown) and {@code aggregates} over
     * {@code in} rows of columns {@code fields} in {@code groups} groups: each over a group of the
     * mean rows, its argument a stored column spread evenly over its span.
     */
    ComputedValues aggregated(int keys, List<AggregateCall> aggregates, List<Field> fields, long in, long groups,
                              int width) {
        ComputedValues out = ComputedValues.unknown(width);
        double groupRows = in < 0 || groups <= 0 ? 1 : Math.max(1, (double) in / groups);
        for (int i = 0; i < aggregates.size() && keys + i < width; i++) {
            AggregateCall call = aggregates.get(i);
            double argument = Double.NaN;
            double argumentSpread = Double.NaN;
            if (call.arg() instanceof Expr.Column c && c.index() < fields.size() && fields.get(c.index()) != null) {
                Field f = fields.get(c.index());
                argument = MeanValues.middle(span(f), f.type());
                argumentSpread = MeanValues.evenSpread(span(f), f.type());
            }
            out.means()[keys + i] = MeanValues.aggregate(call, argument, groupRows);
            out.spreads()[keys + i] = MeanValues.aggregateSpread(call, argumentSpread, groupRows);
        }
        return out;
    }

    private static RelNode inputOf(RelNode n) {
        return n instanceof RelNode.Sort s ? s.input() : n instanceof RelNode.Limit l ? l.input()
                : ((RelNode.SingleRow) n).input();
    }

    /**
     * A GROUP BY of grouping sets' copies: for each copy, the groups of the keys it keeps over the
     * input's rows (a key it makes null, a constant, counts once), summed.
     */
    private long groupingSets(RelNode.Aggregate a, RelNode.Expand e) {
        long in = rows(e.input());
        if (in < 0) {
            return -1;
        }
        long sum = 0;
        for (List<Expr> copy : e.projections()) {
            List<Expr> keys = a.keys().stream().map(k -> k instanceof Expr.Column c ? copy.get(c.index()) : k).toList();
            sum += groups(in, keys, e.input().fields(), columns(e.input()));
        }
        return sum;
    }

    /** A join's build side: its rows, those of the table it reads when it reads one under filters, its columns' distinct values. */
    PipelineRows.Side side(RelNode n) {
        return new PipelineRows.Side(n.fields(), rows(n), tableRows(n), columns(n), computed(n));
    }

    /** Each column's distinct values as its table's statistics give them (NaN: not a scanned column). */
    double[] base(List<Field> fields) {
        double[] d = new double[fields.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = distinct(fields.get(i));
        }
        return d;
    }

    static double[] unknown(int width) {
        double[] d = new double[width];
        java.util.Arrays.fill(d, Double.NaN);
        return d;
    }

    /** Each of {@code d} at most {@code rows} (when known; else an infinite count, "one per row", is unknown). */
    static double[] capped(double[] d, long rows) {
        double[] out = d.clone();
        for (int i = 0; i < out.length; i++) {
            // "as many as the rows" is unknown where the rows are
            out[i] = rows < 0 ? (Double.isInfinite(out[i]) ? Double.NaN : out[i]) : Math.min(out[i], Math.max(rows, 1));
        }
        return out;
    }

    /**
     * Columns {@code d} (named {@code fields}) under {@code condition}: an equality to a constant
     * leaves one value, IN its items, a range of a column whose stored span {@code ranges} knows the
     * part of its values the range covers, any other condition on one sampled column the share of
     * the sampled values it holds on ({@code substr(c_phone, 1, 2) IN (...)}).
     */
    double[] narrowed(double[] d, Expr condition, List<Field> fields, RowEstimates.Ranges ranges) {
        if (condition == null) {
            return d;
        }
        double[] out = d.clone();
        for (Expr c : Exprs.conjuncts(condition)) {
            if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ) {
                Expr a = call.args().get(0);
                Expr b = call.args().get(1);
                if (a instanceof Expr.Column x && Exprs.columns(b).isEmpty() && x.index() < out.length) {
                    out[x.index()] = 1;
                } else if (b instanceof Expr.Column y && Exprs.columns(a).isEmpty() && y.index() < out.length) {
                    out[y.index()] = 1;
                }
            } else if (c instanceof Expr.InList in && !in.negated() && in.value() instanceof Expr.Column x
                    && in.constants() != null && x.index() < out.length) {
                out[x.index()] = Math.min(out[x.index()], in.list().size());
            } else if (RowEstimates.rangedColumn(c) < 0) {
                int x = onlyColumn(c);
                double share = x < 0 || x >= out.length ? Double.NaN : sampledShare(c, x, fields);
                if (!Double.isNaN(share)) {
                    out[x] = Math.max(1, out[x] * share);
                }
            }
        }
        Map<Integer, List<Expr>> rangesOf = new HashMap<>();
        for (Expr c : Exprs.conjuncts(condition)) {
            int column = RowEstimates.rangedColumn(c);
            if (column >= 0 && column < out.length && ranges.of(column) != null) {
                rangesOf.computeIfAbsent(column, k -> new java.util.ArrayList<>()).add(c);
            }
        }
        rangesOf.forEach((column, bounds) ->
                out[column] = Math.max(1, out[column] * RowEstimates.share(Exprs.and(bounds), ranges)));
        return out;
    }

    /** The distinct values of each of {@code exprs} over columns {@code fields} whose values {@code d} knows. */
    double[] projected(List<Expr> exprs, List<Field> fields, double[] d) {
        double[] out = new double[exprs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = distinct(exprs.get(i), fields, d);
        }
        return out;
    }

    /**
     * A GROUP BY's output over {@code rows} input rows: its keys' distinct values, then its
     * aggregates', {@code width} columns in all. A sum, average, least or greatest value of a group
     * is taken to be its own (as many values as groups: totals rarely tie); a count is one of the
     * counts from 0 to three times the mean group's rows (few groups hold more), and a sum of
     * integers of few values (partial counts summed: {@link EagerAggregation}) one of those values
     * times the mean group's rows at most.
     */
    double[] grouped(List<Expr> keys, List<AggregateCall> aggregates, long rows, List<Field> fields, double[] d, int width) {
        double[] out = unknown(width);
        for (int i = 0; i < keys.size() && i < width; i++) {
            out[i] = distinct(keys.get(i), fields, d);
        }
        if (keys.size() + aggregates.size() == width) { // not a partial aggregate's running states
            long groups = keys.isEmpty() ? 1 : groups(rows, keys, fields, d);
            for (int i = 0; i < aggregates.size(); i++) {
                AggregateCall.Kind kind = aggregates.get(i).kind();
                boolean count = kind == AggregateCall.Kind.COUNT || kind == AggregateCall.Kind.COUNT_STAR;
                double summed = kind == AggregateCall.Kind.SUM && aggregates.get(i).arg().type().isIntegral()
                        && rows >= 0 && groups > 0 ? distinct(aggregates.get(i).arg(), fields, d) : Double.NaN;
                out[keys.size() + i] = count ? (rows < 0 || groups <= 0 ? Double.NaN : 3.0 * rows / groups + 1)
                        : Double.isFinite(summed) ? summed * Math.max(1.0, (double) rows / groups)
                        : Double.POSITIVE_INFINITY; // capped at the groups
            }
        }
        return out;
    }

    /**
     * A join's output columns: the probe's then the build's (one side only for semi and anti joins),
     * equated keys sharing the fewer values. A key that loses values loses its table's rows with
     * them, so the other columns of that table (same alias) keep the values the surviving rows hold:
     * the nations of one region are five names, not twenty-five.
     */
    double[] joinedColumns(JoinKind kind, List<Field> probeFields, double[] probe, List<Integer> probeKeys,
                           List<Field> buildFields, double[] build, List<Integer> buildKeys) {
        double[] left = probe.clone();
        double[] right = build.clone();
        if (kind == JoinKind.INNER || kind == JoinKind.SEMI || kind == JoinKind.RIGHT_SEMI) {
            for (int i = 0; i < probeKeys.size(); i++) {
                int l = probeKeys.get(i);
                int r = buildKeys.get(i);
                if (l < left.length && r < right.length) {
                    double fewer = Math.min(left[l], right[r]); // NaN when either is unknown
                    if (!Double.isNaN(fewer)) {
                        thinned(left, probeFields, l, fewer / left[l]);
                        thinned(right, buildFields, r, fewer / right[r]);
                        left[l] = fewer;
                        right[r] = fewer;
                    }
                }
            }
        }
        if (kind.leftOnly()) {
            return left;
        }
        if (kind.rightOnly()) {
            return right;
        }
        double[] out = java.util.Arrays.copyOf(left, left.length + right.length);
        System.arraycopy(right, 0, out, left.length, right.length);
        return out;
    }

    /**
     * The columns {@code d} after a share {@code kept} of the rows of the table that column {@code key}
     * of {@code fields} was read from survived: each other column of that table (same alias) keeps
     * the values expected among the surviving rows, taken at random (Cardenas' formula over the
     * table's rows).
     */
    private void thinned(double[] d, List<Field> fields, int key, double kept) {
        if (!(kept < 1) || key >= fields.size() || fields.get(key) == null || fields.get(key).qualifier() == null) {
            return;
        }
        String alias = fields.get(key).qualifier();
        TableInfo table = byAlias.get(alias);
        long tableRows = table == null ? -1 : layouts.rows(table).orElse(-1);
        if (tableRows <= 0) {
            return;
        }
        for (int i = 0; i < d.length && i < fields.size(); i++) {
            Field f = fields.get(i);
            if (i != key && f != null && alias.equals(f.qualifier()) && !Double.isNaN(d[i]) && d[i] > 0) {
                double perValue = Math.max(1, tableRows / d[i]);
                d[i] = Math.min(d[i], Math.max(1, d[i] * (1 - Math.pow(1 - kept, perValue))));
            }
        }
    }

    /** The rows of the table a relation scans under filters and projections, or -1. */
    long tableRows(RelNode n) {
        if (n instanceof RelNode.Scan s) {
            return layouts.rows(s.table()).orElse(-1);
        } else if (n instanceof RelNode.Filter f) {
            return tableRows(f.input());
        } else if (n instanceof RelNode.Project p) {
            return tableRows(p.input());
        } else if (n instanceof RelNode.NodePipeline p) {
            return layouts.rows(p.scan().table()).orElse(-1);
        } else if (n instanceof RelNode.Join j && j.kind().leftOnly()) {
            return tableRows(j.left());
        }
        return -1;
    }

    private static List<Integer> boxed(int[] keys) {
        return java.util.Arrays.stream(keys).boxed().toList();
    }

    /**
     * Rows out of a join of {@code probe} rows (columns {@code probeFields}) with {@code build}'s on
     * {@code probeKeys} = {@code buildKeys}. With the keys' distinct values known (each at most its
     * side's rows): an inner join makes probe × build / the larger distinct count of each key pair,
     * a semi join keeps the probe rows whose key the build side has (the share of the probe's
     * distinct keys the build's cover), an anti join the rest. Without them, a keyed inner join keeps
     * each probe row whose partner survived the build side's filters (a foreign key's join) and a
     * semi or anti join {@link RowEstimates#CONJUNCT_SELECTIVITY} of its rows. -1 where a side's
     * rows are unknown.
     */
    long joined(JoinKind kind, long probe, List<Field> probeFields, double[] probeColumns, List<Integer> probeKeys,
                PipelineRows.Side build, List<Integer> buildKeys, Expr residual) {
        return joined(kind, probe, probeFields, probeColumns, null, probeKeys, build, buildKeys, residual);
    }

    /**
     * As above, with what is known of the probe's computed columns ({@code probeValues}; null:
     * nothing) and the build's: an inner join's residual comparing a stored column with a
     * subquery's sum (TPC-H Q20's {@code ps_availqty > 0.5 * sum(l_quantity)}) keeps the part of the
     * column's span beyond the sum's mean.
     */
    long joined(JoinKind kind, long probe, List<Field> probeFields, double[] probeColumns, ComputedValues probeValues,
                List<Integer> probeKeys, PipelineRows.Side build, List<Integer> buildKeys, Expr residual) {
        if (kind == JoinKind.INNER) {
            for (int i = 0; i < probeKeys.size(); i++) {
                equated(column(probeFields, probeKeys.get(i)), column(build.fields(), buildKeys.get(i)));
            }
        }
        if (probe < 0 || build.rows() < 0) {
            return kind == JoinKind.LEFT ? probe : -1;
        }
        double probeDistinct = 1;
        double buildDistinct = 1;
        double pairs = 1;
        double domain = 1;
        for (int i = 0; i < probeKeys.size(); i++) {
            double p = Math.min(probe, keyDistinct(probeFields, probeColumns, probeKeys.get(i)));
            double b = Math.min(build.rows(), keyDistinct(build.fields(), build.distinct(), buildKeys.get(i)));
            probeDistinct *= p;
            buildDistinct *= b;
            pairs *= Math.max(p, b);
            domain *= Math.max(Math.max(p, b), Math.max(stored(probeFields, probeKeys.get(i)),
                    stored(build.fields(), buildKeys.get(i))));
        }
        boolean keysKnown = !probeKeys.isEmpty() && !Double.isNaN(pairs);
        // a probe key is among the build's with the share of the keys' values the build holds: of all
        // the values either column has in its table, not only of those the probe side kept
        double covered = Math.min(1, buildDistinct / Math.max(1, Math.max(probeDistinct, domain)));
        long out = switch (kind) {
            case LEFT -> Math.max(probe, keysKnown ? inner(probe, build.rows(), pairs) : probe);
            case RIGHT, FULL -> Math.max(probe, build.rows());
            case SEMI -> keysKnown ? kept(probe, covered) : RowEstimates.kept(probe, RowEstimates.CONJUNCT_SELECTIVITY);
            case ANTI, ANTI_NULL_AWARE -> keysKnown ? kept(probe, 1 - covered)
                    : RowEstimates.kept(probe, RowEstimates.CONJUNCT_SELECTIVITY);
            case RIGHT_SEMI, RIGHT_ANTI -> RowEstimates.kept(build.rows(), RowEstimates.CONJUNCT_SELECTIVITY);
            case INNER, CROSS -> probeKeys.isEmpty() ? probe * build.rows()
                    : keysKnown && probeKeys.size() > 1 ? combined(probe, probeDistinct,
                            keysWithin(build.fields(), buildKeys, probeFields, probeKeys) ? keyTableRows(probeFields, probeKeys) : -1,
                            build.rows(), buildDistinct,
                            keysWithin(probeFields, probeKeys, build.fields(), buildKeys) ? keyTableRows(build.fields(), buildKeys) : -1)
                    : keysKnown ? inner(probe, build.rows(), pairs)
                    : build.tableRows() > 0 ? RowEstimates.kept(probe, Math.min(1, (double) build.rows() / build.tableRows()))
                    : probe;
        };
        if (kind != JoinKind.INNER && kind != JoinKind.CROSS) {
            return out;
        }
        List<Field> both = new java.util.ArrayList<>(probeFields);
        both.addAll(build.fields());
        ComputedValues values = (probeValues == null || probeValues.means().length != probeFields.size()
                ? ComputedValues.unknown(probeFields.size()) : probeValues).concat(build.valuesOf(build.fields().size()));
        return filtered(out, residual, both, null, values, RowEstimates.Ranges.NONE);
    }

    /** A scanned column as {@code alias.column}, or null (computed, unnamed or past the fields). */
    private static String column(List<Field> fields, int i) {
        Field f = i < fields.size() ? fields.get(i) : null;
        return f == null || f.qualifier() == null ? null : f.qualifier() + "." + f.name();
    }

    private void equated(String a, String b) {
        if (a != null && b != null && !a.equals(b)) {
            joinedColumns.add(List.of(a, b));
            joinedColumns.add(List.of(b, a));
        }
    }

    private static long inner(long probe, long build, double pairs) {
        double denominator = Math.max(1, Math.min(pairs, Math.max(probe, build)));
        return (long) Math.ceil(probe * (double) build / denominator);
    }

    /**
     * An inner join on several keys, as one key of their combinations. Each side has at most as many
     * combinations as rows, and those of a side that refers to the other's table (a foreign key of
     * several columns) are among that table's combinations, at most its rows: lineitem's
     * {@code (l_partkey, l_suppkey)} are partsupp's 800,000, not the 6 million independent keys
     * would make, so lineitem joined with partsupp keeps each line rather than one in 7.5.
     * {@code probeTable}, {@code buildTable}: the rows of the table each side's keys were read from,
     * where the other side's keys may refer to it ({@link #keysWithin}), else -1.
     */
    private static long combined(long probe, double probeDistinct, long probeTable,
                                 long build, double buildDistinct, long buildTable) {
        double probeCombinations = Math.min(probe, probeDistinct);
        double buildCombinations = Math.min(build, buildDistinct);
        if (buildTable > 0) {
            probeCombinations = Math.min(probeCombinations, buildTable);
        }
        if (probeTable > 0) {
            buildCombinations = Math.min(buildCombinations, probeTable);
        }
        double denominator = Math.max(1, Math.max(probeCombinations, buildCombinations));
        return (long) Math.ceil(probe * (double) build / denominator);
    }

    /**
     * Whether keys {@code keys} of {@code fields} may refer to keys {@code others} of {@code otherFields}:
     * each has no more distinct values in its table than the key it is equated with (a tenth more
     * allowed for the counts' error). A key with more cannot have all its values in the other table.
     */
    private boolean keysWithin(List<Field> fields, List<Integer> keys, List<Field> otherFields, List<Integer> others) {
        for (int i = 0; i < keys.size(); i++) {
            double mine = stored(fields, keys.get(i));
            double theirs = stored(otherFields, others.get(i));
            if (mine <= 0 || theirs <= 0 || mine > 1.1 * theirs) {
                return false;
            }
        }
        return true;
    }

    /**
     * The fewest rows of a table that holds every key of {@code keys} of {@code fields}: its own
     * column or one an inner join equated with it ({@code p_partkey} = {@code ps_partkey} puts
     * {@code (p_partkey, ps_suppkey)} in partsupp), or -1 when no table holds them all.
     */
    private long keyTableRows(List<Field> fields, List<Integer> keys) {
        java.util.Set<String> common = null;
        for (int key : keys) {
            String column = column(fields, key);
            if (column == null) {
                return -1;
            }
            java.util.Set<String> aliases = new java.util.HashSet<>();
            aliases.add(aliasOf(column));
            joinedColumns.stream().filter(pair -> pair.get(0).equals(column)).forEach(pair -> aliases.add(aliasOf(pair.get(1))));
            if (common == null) {
                common = aliases;
            } else {
                common.retainAll(aliases);
            }
        }
        long fewest = -1;
        for (String alias : common == null ? java.util.Set.<String>of() : common) {
            TableInfo table = byAlias.get(alias);
            long rows = table == null ? -1 : layouts.rows(table).orElse(-1);
            if (rows > 0 && (fewest < 0 || rows < fewest)) {
                fewest = rows;
            }
        }
        return fewest;
    }

    private static String aliasOf(String column) {
        return column.substring(0, column.lastIndexOf('.'));
    }

    /** At least one row is kept of a non-empty input: a semi join of a selective build still matches some. */
    private static long kept(long rows, double share) {
        return rows <= 0 ? rows : Math.max(1, RowEstimates.kept(rows, share));
    }

    /** Distinct values the column at {@code key} has in its table (0 when not known: no bound). */
    private double stored(List<Field> fields, int key) {
        double d = key < fields.size() ? distinct(fields.get(key)) : Double.NaN;
        return Double.isNaN(d) ? 0 : d;
    }

    private double keyDistinct(List<Field> fields, double[] d, int key) {
        return key < fields.size() ? distinct(new Expr.Column(key, fields.get(key).type()), fields, d) : Double.NaN;
    }

    private static List<Expr> keyColumns(int count, RelNode input) {
        return java.util.stream.IntStream.range(0, count)
                .<Expr>mapToObj(i -> new Expr.Column(i, input.fields().get(i).type())).toList();
    }

    /**
     * {@code rows} of columns {@code fields} (whose distinct values {@code d} knows; null: as their
     * tables' statistics say) under {@code condition} (null: none); {@code ranges}: spans of the
     * table's own columns.
     */
    long filtered(long rows, Expr condition, List<Field> fields, double[] d, RowEstimates.Ranges ranges) {
        return condition == null ? rows : RowEstimates.kept(rows, share(condition, fields, d, ranges));
    }

    /** The share of rows {@code condition} over columns {@code fields} is taken to keep, as their tables' statistics say. */
    double share(Expr condition, List<Field> fields, RowEstimates.Ranges ranges) {
        return share(condition, fields, null, ranges);
    }

    /** As above, the columns' distinct values as {@code d} knows them (null: as their tables' statistics say). */
    double share(Expr condition, List<Field> fields, double[] d, RowEstimates.Ranges ranges) {
        return share(condition, fields, d, null, ranges);
    }

    /** As above, the rows kept of those whose computed columns {@code values} knows (null: none; {@link MeanValues}). */
    long filtered(long rows, Expr condition, List<Field> fields, double[] d, ComputedValues values,
                  RowEstimates.Ranges ranges) {
        return condition == null ? rows : RowEstimates.kept(rows, share(condition, fields, d, values, ranges));
    }

    /** As above, the values of computed columns as {@code values} knows them (null: none known; {@link MeanValues}). */
    double share(Expr condition, List<Field> fields, double[] d, ComputedValues values, RowEstimates.Ranges ranges) {
        double share = 1;
        java.util.List<Expr> others = new java.util.ArrayList<>();
        // terms that each keep a set of a column's values keep at most the smallest set, not the product
        Map<Integer, Double> byValues = new HashMap<>();
        for (Expr c : Exprs.conjuncts(condition)) {
            double known = known(c, fields, d, values);
            int column = valuesColumn(c);
            if (Double.isNaN(known)) {
                others.add(c);
            } else if (column >= 0) {
                byValues.merge(column, known, Math::min);
            } else {
                share *= known;
            }
        }
        for (double s : byValues.values()) {
            share *= s;
        }
        return others.isEmpty() ? share : share * RowEstimates.share(Exprs.and(others), ranges);
    }

    /**
     * The column {@code term} keeps a set of constant values of ({@code c = 5}, {@code c IN (1, 2)}:
     * TPC-DS Q74's {@code d_year IN (2001, 2002) AND d_year = 2002}), or -1.
     */
    static int valuesColumn(Expr term) {
        if (term instanceof Expr.InList in && !in.negated() && in.value() instanceof Expr.Column c && in.constants() != null) {
            return c.index();
        }
        if (term instanceof Expr.Call call && call.function() == ScalarFunction.EQ) {
            Expr a = call.args().get(0);
            Expr b = call.args().get(1);
            if (a instanceof Expr.Column x && Exprs.columns(b).isEmpty()) {
                return x.index();
            }
            if (b instanceof Expr.Column y && Exprs.columns(a).isEmpty()) {
                return y.index();
            }
        }
        return -1;
    }

    /** The share one term keeps by what the statistics say of its column; NaN when they say nothing of it. */
    private double known(Expr term, List<Field> fields, double[] d, ComputedValues values) {
        if (term instanceof Expr.Or or) {
            double none = 1;
            for (Expr t : or.terms()) {
                double s = share(t, fields, d, values, RowEstimates.Ranges.NONE);
                none *= 1 - s;
            }
            return 1 - none;
        }
        if (term instanceof Expr.Like like) {
            double hit = like.value() instanceof Expr.Column c
                    ? sampledShare(new Expr.Like(c, like.pattern(), false), c.index(), fields) : Double.NaN;
            hit = Double.isNaN(hit) ? RowEstimates.likeShare(like.pattern()) : hit;
            return like.negated() ? 1 - hit : hit;
        }
        if (term instanceof Expr.Not not) {
            double s = known(not.term(), fields, d, values);
            return Double.isNaN(s) ? s : 1 - s;
        }
        if (term instanceof Expr.InList in && in.value() instanceof Expr.Column c && in.constants() != null) {
            double distinct = distinct(c, fields, d);
            double hit = Math.min(1, in.list().size() / distinct);
            return Double.isNaN(distinct) ? distinct : in.negated() ? 1 - hit : hit;
        }
        if (term instanceof Expr.Call call && (call.function() == ScalarFunction.EQ || call.function() == ScalarFunction.NE)) {
            Expr a = call.args().get(0);
            Expr b = call.args().get(1);
            double hit;
            if (a instanceof Expr.Column x && b instanceof Expr.Column y) {
                hit = 1 / Math.max(distinct(x, fields, d), distinct(y, fields, d));
            } else if (a instanceof Expr.Column x && Exprs.columns(b).isEmpty()) {
                hit = 1 / distinct(x, fields, d);
            } else if (b instanceof Expr.Column y && Exprs.columns(a).isEmpty()) {
                hit = 1 / distinct(y, fields, d);
            } else {
                return Double.NaN;
            }
            return call.function() == ScalarFunction.EQ ? hit : 1 - hit;
        }
        if (values != null && term instanceof Expr.Call call && RowEstimates.rangedColumn(call) >= 0) {
            double tail = values.comparedWithConstant(call);
            if (!Double.isNaN(tail)) {
                return tail;
            }
        }
        double[] means = values == null ? null : values.means();
        if (means != null && term instanceof Expr.Call call && RowEstimates.rangedColumn(call) < 0
                && call.args().size() == 2 && call.args().get(0) instanceof Expr.Column a
                && call.args().get(1) instanceof Expr.Column b) {
            ScalarFunction f = call.function();
            boolean below = f == ScalarFunction.LT || f == ScalarFunction.LE;
            boolean above = f == ScalarFunction.GT || f == ScalarFunction.GE;
            if (below || above) {
                double s = comparedWithMean(a, b, below, fields, means);
                return Double.isNaN(s) ? comparedWithMean(b, a, above, fields, means) : s;
            }
        }
        int column = onlyColumn(term);
        return column < 0 ? Double.NaN : sampledShare(term, column, fields);
    }

    /**
     * The share of rows whose stored column {@code stored} lies below (or above) computed column
     * {@code valued}, that column taken at its mean value: the part of the stored column's span on
     * that side of it; NaN when either is unknown.
     */
    private double comparedWithMean(Expr.Column stored, Expr.Column valued, boolean below, List<Field> fields,
                                    double[] means) {
        if (stored.index() >= fields.size() || valued.index() >= means.length
                || (stored.index() < means.length && !Double.isNaN(means[stored.index()]))) {
            return Double.NaN;
        }
        Field f = fields.get(stored.index());
        long[] span = span(f);
        double bound = f == null ? Double.NaN : MeanValues.stored(means[valued.index()], f.type());
        return span == null || Double.isNaN(bound) ? Double.NaN : RowEstimates.spanShare(span, bound, below);
    }

    /** The one column {@code e} reads, or -1. */
    private static int onlyColumn(Expr e) {
        java.util.BitSet read = Exprs.columns(e);
        return read.cardinality() == 1 ? read.nextSetBit(0) : -1;
    }

    /**
     * Groups a GROUP BY on {@code keys} makes of {@code rows} rows of columns {@code fields}: the
     * product of the keys' distinct values, at most the rows; {@link RowEstimates#CONJUNCT_SELECTIVITY}
     * of the rows when a key's values are not known.
     */
    long groups(long rows, List<Expr> keys, List<Field> fields) {
        return groups(rows, keys, fields, null);
    }

    /**
     * As above, the columns' distinct values as {@code d} knows them (null: as their tables'
     * statistics say). Keys read from one table's rows make at most as many combinations as the
     * rows its scan keeps, however many values each has: an item's brand, class, category and
     * name are 18 thousand items' values, not the product of their distinct counts. With the
     * table's primary key among them, as many as the key's values: the key determines the rest.
     * A table joined on its primary key to a column of a table whose groups are its rows (its
     * key among the keys) or to a key among the keys adds none: the row it joined determines it
     * (TPC-H Q10's customers with their nation's name: the customers' count).
     */
    long groups(long rows, List<Expr> keys, List<Field> fields, double[] d) {
        if (rows < 0) {
            return rows;
        }
        double product = 1;
        Map<List<Object>, Double> perTable = new HashMap<>();
        Map<List<Object>, Double> byPrimaryKey = new HashMap<>();
        for (Expr k : keys) {
            double values = distinct(k, fields, d);
            if (Double.isNaN(values)) {
                return RowEstimates.kept(rows, RowEstimates.CONJUNCT_SELECTIVITY);
            }
            List<Object> table = tableRead(k, fields);
            if (table == null) {
                product *= values;
            } else {
                perTable.merge(table, values, (a, b) -> a * b);
                if (List.of(fields.get(onlyColumn(k)).name()).equals(((TableInfo) table.get(1)).uniqueKey())) {
                    byPrimaryKey.put(table, values);
                }
            }
        }
        java.util.Set<List<Object>> determined = determinedTables(perTable.keySet(), byPrimaryKey.keySet(), keys, fields);
        for (Map.Entry<List<Object>, Double> t : perTable.entrySet()) {
            if (determined.contains(t.getKey())) {
                continue;
            }
            long kept = scannedRows((String) t.getKey().get(0), (TableInfo) t.getKey().get(1));
            double combinations = byPrimaryKey.getOrDefault(t.getKey(), t.getValue());
            product *= kept > 0 ? Math.min(kept, combinations) : combinations;
        }
        return (long) Math.ceil(Math.min(rows, product));
    }

    /**
     * The tables of {@code tables} (alias and table, as {@link #tableRead} names them) whose primary
     * key an inner join equated with a column that fixes a group: a key among {@code keys}, or any
     * column of a table whose primary key is among them ({@code keyed}). A table fixed by one that
     * is itself fixed by it (two keys joined one to one) counts once: the first by alias stays.
     */
    private java.util.Set<List<Object>> determinedTables(java.util.Set<List<Object>> tables,
                                                         java.util.Set<List<Object>> keyed, List<Expr> keys,
                                                         List<Field> fields) {
        java.util.Set<String> keyColumns = new java.util.HashSet<>();
        for (Expr k : keys) {
            int c = onlyColumn(k);
            String name = c < 0 ? null : column(fields, c);
            if (name != null) {
                keyColumns.add(name);
            }
        }
        List<List<Object>> ordered = tables.stream().sorted(java.util.Comparator.comparing(t -> (String) t.get(0))).toList();
        java.util.Set<List<Object>> determined = new java.util.LinkedHashSet<>();
        for (List<Object> t : ordered) {
            List<String> pk = ((TableInfo) t.get(1)).uniqueKey();
            if (pk.size() != 1) {
                continue;
            }
            String key = t.get(0) + "." + pk.get(0);
            boolean fixed = joinedColumns.stream().anyMatch(pair -> pair.get(1).equals(key)
                    && (keyColumns.contains(pair.get(0)) || ordered.stream().anyMatch(u -> u != t
                    && !determined.contains(u) && keyed.contains(u) && pair.get(0).startsWith(u.get(0) + "."))));
            if (fixed) {
                determined.add(t);
            }
        }
        return determined;
    }

    /** The alias and table of the one column {@code e} reads, or null when it reads none, several or one of no known table. */
    private List<Object> tableRead(Expr e, List<Field> fields) {
        int column = onlyColumn(e);
        Field f = column < 0 || column >= fields.size() ? null : fields.get(column);
        TableInfo table = tableOf(f);
        return table == null || f.qualifier() == null || byAlias.get(f.qualifier()) != table
                ? null : List.of(f.qualifier(), table);
    }

    /** The rows the scan under {@code alias} is estimated to keep, else its table's rows; -1 when unknown. */
    private long scannedRows(String alias, TableInfo table) {
        RelNode.Scan scan = scanByAlias.get(alias);
        return scan != null ? rows(scan) : layouts.rows(table).orElse(-1);
    }

    /** Partial groups {@code nodes} nodes send for {@code rows} rows spread over them: each makes at most the groups there are. */
    long partialGroups(long rows, List<Expr> keys, List<Field> fields, double[] d, int nodes) {
        if (rows < 0) {
            return rows;
        }
        long groups = groups(rows, keys, fields, d);
        return Math.min(rows, groups * Math.max(1, nodes));
    }

    /**
     * Distinct values of {@code e} over rows of columns {@code fields} whose distinct values
     * {@code d} knows (null, or NaN in it: as the column's table's statistics say): a constant's
     * one, {@code year(x)} the years x's stored span covers (at most x's values); NaN when unknown.
     */
    double distinct(Expr e, List<Field> fields, double[] d) {
        if (e instanceof Expr.Literal) {
            return 1;
        }
        if (e instanceof Expr.Column c) {
            if (c.index() >= fields.size()) {
                return Double.NaN;
            }
            double known = d != null && c.index() < d.length ? d[c.index()] : Double.NaN;
            return Double.isNaN(known) ? distinct(fields.get(c.index())) : known;
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.YEAR
                && call.args().get(0) instanceof Expr.Column c && c.index() < fields.size()) {
            long[] span = span(fields.get(c.index()));
            double years = span == null ? Double.NaN : java.time.LocalDate.ofEpochDay(span[1]).getYear()
                    - java.time.LocalDate.ofEpochDay(span[0]).getYear() + 1;
            // the years of the values a filter left: as many of the span's years as their share of its values
            double values = distinct(call.args().get(0), fields, d);
            double stored = distinct(fields.get(c.index()));
            double left = values < stored ? Math.ceil(years * values / stored) : years;
            return Math.min(left, values);
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.CAST && call.args().size() == 1) {
            return distinct(call.args().get(0), fields, d);
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.COALESCE) {
            // one argument's value or another's: at most their values together (a count of none made 0)
            double values = call.args().stream().mapToDouble(arg -> distinct(arg, fields, d)).sum();
            if (Double.isFinite(values)) {
                return values;
            }
        }
        int column = onlyColumn(e);
        double sampled = column < 0 || column >= fields.size() ? Double.NaN : sampledDistinct(e, column, fields);
        if (Double.isNaN(sampled)) {
            return Double.NaN;
        }
        double values = distinct(new Expr.Column(column, fields.get(column).type()), fields, d);
        return Math.max(1, Math.min(sampled, values));
    }

    /**
     * Distinct values of expression {@code e} of one column, {@code column} of {@code fields}, over
     * the rows of its table the scan's conditions on that column keep: the values it takes over the
     * column's sampled ones those conditions hold on, scaled to those rows ({@link SampledValues#distinct});
     * NaN without a sample big enough.
     */
    private double sampledDistinct(Expr e, int column, List<Field> fields) {
        Field f = fields.get(column);
        return sampledDistinct.computeIfAbsent(java.util.Arrays.asList(e, column, f, fields.size()), k -> {
            List<String> sample = sampleOf(f);
            List<Expr> conditions = f == null || f.qualifier() == null ? null
                    : scanConditions.get(List.of(f.qualifier(), f.name()));
            List<String> kept = conditions == null || conditions.isEmpty() ? sample
                    : SampledValues.holding(Exprs.and(conditions), sample);
            if (kept.size() < MIN_SAMPLE) {
                return Double.NaN;
            }
            long tableRows = layouts.rows(tableOf(f)).orElse(-1);
            long rows = tableRows < 0 ? -1 : Math.max(1, Math.round((double) tableRows * kept.size() / sample.size()));
            return SampledValues.distinct(e, column, fields.size(), kept, rows);
        });
    }

    /**
     * The share of the values sampled from the table of column {@code column} of {@code fields} that
     * {@code condition}, which reads that column alone, holds on (a LIKE, {@code substr(c_phone, 1, 2)
     * IN (...)}; half a value when none does: rare, not absent); NaN without a sample big enough to tell.
     */
    private double sampledShare(Expr condition, int column, List<Field> fields) {
        List<String> sample = column < fields.size() ? sampleOf(fields.get(column)) : List.of();
        return sample.size() < MIN_SAMPLE ? Double.NaN : SampledValues.share(condition, column, fields.size(), sample);
    }

    /** The values sampled from column {@code f}'s table (none when unknown). */
    private List<String> sampleOf(Field f) {
        TableInfo table = tableOf(f);
        int column = table == null ? -1 : table.indexOf(f.name());
        return column < 0 ? List.of() : layouts.sample(table, column);
    }

    /** Distinct values of a column as it was scanned; NaN when its table or statistics are unknown. */
    double distinct(Field f) {
        TableInfo table = tableOf(f);
        if (table == null) {
            return Double.NaN;
        }
        int column = table.indexOf(f.name());
        return column < 0 ? Double.NaN : layouts.distinct(table, column);
    }

    private long[] span(Field f) {
        TableInfo table = tableOf(f);
        int column = table == null ? -1 : table.indexOf(f.name());
        return column < 0 ? null : layouts.range(table, column);
    }

    private TableInfo tableOf(Field f) {
        if (f == null) {
            return null;
        }
        TableInfo byQualifier = f.qualifier() == null ? null : byAlias.get(f.qualifier());
        if (byQualifier != null && byQualifier.indexOf(f.name()) >= 0) {
            return byQualifier;
        }
        return byColumn.get(f.name());
    }
}
