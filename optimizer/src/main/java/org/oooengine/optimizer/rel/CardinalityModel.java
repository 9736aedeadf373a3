package org.oooengine.optimizer.rel;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.sql.JoinKind;
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
 *       {@code LIKE}: {@link RowEstimates#CONTAINS_SELECTIVITY}, {@code NOT LIKE} the rest.</li>
 *   <li>Joins: by the keys' distinct values ({@link #joined}).</li>
 *   <li>{@code GROUP BY}: the product of the keys' distinct values (a year of dates: the years the
 *       column spans), never more than the rows; each node makes at most its share of them.</li>
 *   <li>Anything else: {@link RowEstimates#CONJUNCT_SELECTIVITY} per conjunct, as before statistics.</li>
 * </ul>
 */
final class CardinalityModel {
    private final TableLayouts layouts;
    /** Rows of the physical nodes this model does not know (pipelines the nodes run), or null for the rest. */
    private final java.util.function.Function<RelNode, Long> physical;
    /** The tables scanned, by alias and, where unambiguous, by column name. */
    private final Map<String, TableInfo> byAlias = new HashMap<>();
    private final Map<String, TableInfo> byColumn = new HashMap<>();
    private final Map<RelNode, Long> rows = new IdentityHashMap<>();

    private CardinalityModel(TableLayouts layouts, List<RelNode.Scan> scans,
                             java.util.function.Function<RelNode, Long> physical) {
        this.layouts = layouts;
        this.physical = physical;
        Map<String, Integer> seen = new HashMap<>();
        for (RelNode.Scan s : scans) {
            byAlias.put(s.alias(), s.table());
            for (var c : s.table().columns()) {
                TableInfo before = byColumn.put(c.name(), s.table());
                if (before != null && !before.storage().equals(s.table().storage())) {
                    seen.merge(c.name(), 1, Integer::sum);
                }
            }
        }
        seen.keySet().forEach(byColumn::remove); // a name two tables have says nothing of which
    }

    /**
     * The model of a placed plan whose logical plan scanned {@code scans}, over what {@code layouts}
     * knows of their tables; {@code physical} tells the rows of the pipelines the nodes run (null for
     * any other node).
     */
    static CardinalityModel of(TableLayouts layouts, List<RelNode.Scan> scans,
                               java.util.function.Function<RelNode, Long> physical) {
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
        Long pipeline = physical.apply(n);
        if (pipeline != null) {
            return pipeline;
        }
        if (n instanceof RelNode.Scan s) {
            long table = layouts.rows(s.table()).orElse(-1);
            return filtered(table, s.filter(), s.fields(), column -> layouts.range(s.table(), column));
        } else if (n instanceof RelNode.Filter f) {
            return filtered(rows(f.input()), f.condition(), f.input().fields(), RowEstimates.Ranges.NONE);
        } else if (n instanceof RelNode.Project p) {
            return rows(p.input());
        } else if (n instanceof RelNode.Sort s) {
            return rows(s.input());
        } else if (n instanceof RelNode.Limit l) {
            return PipelineRows.limited(rows(l.input()), l.count());
        } else if (n instanceof RelNode.SingleRow) {
            return 1;
        } else if (n instanceof RelNode.Aggregate a && a.input() instanceof RelNode.Expand e) {
            return groupingSets(a, e);
        } else if (n instanceof RelNode.Aggregate a) {
            return a.keys().isEmpty() ? 1 : groups(rows(a.input()), a.keys(), a.input().fields());
        } else if (n instanceof RelNode.Expand e) {
            long in = rows(e.input());
            return in < 0 ? -1 : in * e.projections().size();
        } else if (n instanceof RelNode.Replicate r) {
            return rows(r.input());
        } else if (n instanceof RelNode.FinalAggregate a) {
            return a.keyCount() == 0 ? 1 : groups(rows(a.input()), keyColumns(a.keyCount(), a.input()), a.input().fields());
        } else if (n instanceof RelNode.Join j) {
            return joined(j.kind(), rows(j.left()), j.left().fields(), boxed(j.leftKeys()), side(j.right()),
                    boxed(j.rightKeys()), j.residual());
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
            sum += groups(in, keys, e.input().fields());
        }
        return sum;
    }

    /** A join's build side: its rows, and those of the table it reads when it reads one under filters. */
    PipelineRows.Side side(RelNode n) {
        return new PipelineRows.Side(n.fields(), rows(n), tableRows(n));
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
    long joined(JoinKind kind, long probe, List<Field> probeFields, List<Integer> probeKeys, PipelineRows.Side build,
                List<Integer> buildKeys, Expr residual) {
        if (probe < 0 || build.rows() < 0) {
            return kind == JoinKind.LEFT ? probe : -1;
        }
        double probeDistinct = 1;
        double buildDistinct = 1;
        double pairs = 1;
        for (int i = 0; i < probeKeys.size(); i++) {
            double p = Math.min(probe, distinct(field(probeFields, probeKeys.get(i))));
            double b = Math.min(build.rows(), distinct(field(build.fields(), buildKeys.get(i))));
            probeDistinct *= p;
            buildDistinct *= b;
            pairs *= Math.max(p, b);
        }
        boolean keysKnown = !probeKeys.isEmpty() && !Double.isNaN(pairs);
        long out = switch (kind) {
            case LEFT -> Math.max(probe, keysKnown ? inner(probe, build.rows(), pairs) : probe);
            case RIGHT, FULL -> Math.max(probe, build.rows());
            case SEMI -> keysKnown ? kept(probe, Math.min(1, buildDistinct / Math.max(1, probeDistinct)))
                    : RowEstimates.kept(probe, RowEstimates.CONJUNCT_SELECTIVITY);
            case ANTI, ANTI_NULL_AWARE -> keysKnown ? kept(probe, 1 - Math.min(1, buildDistinct / Math.max(1, probeDistinct)))
                    : RowEstimates.kept(probe, RowEstimates.CONJUNCT_SELECTIVITY);
            case RIGHT_SEMI, RIGHT_ANTI -> RowEstimates.kept(build.rows(), RowEstimates.CONJUNCT_SELECTIVITY);
            case INNER, CROSS -> probeKeys.isEmpty() ? probe * build.rows()
                    : keysKnown ? inner(probe, build.rows(), pairs)
                    : build.tableRows() > 0 ? RowEstimates.kept(probe, Math.min(1, (double) build.rows() / build.tableRows()))
                    : probe;
        };
        if (kind != JoinKind.INNER && kind != JoinKind.CROSS) {
            return out;
        }
        List<Field> both = new java.util.ArrayList<>(probeFields);
        both.addAll(build.fields());
        return filtered(out, residual, both, RowEstimates.Ranges.NONE);
    }

    private static long inner(long probe, long build, double pairs) {
        double denominator = Math.max(1, Math.min(pairs, Math.max(probe, build)));
        return (long) Math.ceil(probe * (double) build / denominator);
    }

    /** At least one row is kept of a non-empty input: a semi join of a selective build still matches some. */
    private static long kept(long rows, double share) {
        return rows <= 0 ? rows : Math.max(1, RowEstimates.kept(rows, share));
    }

    private static Field field(List<Field> fields, int i) {
        return i < fields.size() ? fields.get(i) : null;
    }

    private static List<Expr> keyColumns(int count, RelNode input) {
        return java.util.stream.IntStream.range(0, count)
                .<Expr>mapToObj(i -> new Expr.Column(i, input.fields().get(i).type())).toList();
    }

    /** {@code rows} of columns {@code fields} under {@code condition} (null: none); {@code ranges}: spans of the table's own columns. */
    long filtered(long rows, Expr condition, List<Field> fields, RowEstimates.Ranges ranges) {
        return condition == null ? rows : RowEstimates.kept(rows, share(condition, fields, ranges));
    }

    /** The share of rows {@code condition} over columns {@code fields} is taken to keep. */
    double share(Expr condition, List<Field> fields, RowEstimates.Ranges ranges) {
        double share = 1;
        java.util.List<Expr> others = new java.util.ArrayList<>();
        for (Expr c : Exprs.conjuncts(condition)) {
            double known = known(c, fields);
            if (Double.isNaN(known)) {
                others.add(c);
            } else {
                share *= known;
            }
        }
        return others.isEmpty() ? share : share * RowEstimates.share(Exprs.and(others), ranges);
    }

    /** The share one term keeps by what the statistics say of its column; NaN when they say nothing of it. */
    private double known(Expr term, List<Field> fields) {
        if (term instanceof Expr.Or or) {
            double none = 1;
            for (Expr t : or.terms()) {
                double s = share(t, fields, RowEstimates.Ranges.NONE);
                none *= 1 - s;
            }
            return 1 - none;
        }
        if (term instanceof Expr.Like like) {
            return like.negated() ? 1 - RowEstimates.CONTAINS_SELECTIVITY : RowEstimates.CONTAINS_SELECTIVITY;
        }
        if (term instanceof Expr.Not not) {
            double s = known(not.term(), fields);
            return Double.isNaN(s) ? s : 1 - s;
        }
        if (term instanceof Expr.InList in && in.value() instanceof Expr.Column c && in.constants() != null) {
            double d = distinct(c, fields);
            double hit = Math.min(1, in.list().size() / d);
            return Double.isNaN(d) ? d : in.negated() ? 1 - hit : hit;
        }
        if (term instanceof Expr.Call call && (call.function() == ScalarFunction.EQ || call.function() == ScalarFunction.NE)) {
            Expr a = call.args().get(0);
            Expr b = call.args().get(1);
            double hit;
            if (a instanceof Expr.Column x && b instanceof Expr.Column y) {
                hit = 1 / Math.max(distinct(x, fields), distinct(y, fields));
            } else if (a instanceof Expr.Column x && Exprs.columns(b).isEmpty()) {
                hit = 1 / distinct(x, fields);
            } else if (b instanceof Expr.Column y && Exprs.columns(a).isEmpty()) {
                hit = 1 / distinct(y, fields);
            } else {
                return Double.NaN;
            }
            return call.function() == ScalarFunction.EQ ? hit : 1 - hit;
        }
        return Double.NaN;
    }

    /**
     * Groups a GROUP BY on {@code keys} makes of {@code rows} rows of columns {@code fields}: the
     * product of the keys' distinct values, at most the rows; {@link RowEstimates#CONJUNCT_SELECTIVITY}
     * of the rows when a key's values are not known.
     */
    long groups(long rows, List<Expr> keys, List<Field> fields) {
        if (rows < 0) {
            return rows;
        }
        double product = 1;
        for (Expr k : keys) {
            double d = distinct(k, fields);
            if (Double.isNaN(d)) {
                return RowEstimates.kept(rows, RowEstimates.CONJUNCT_SELECTIVITY);
            }
            product *= d;
        }
        return (long) Math.ceil(Math.min(rows, product));
    }

    /** Partial groups {@code nodes} nodes send for {@code rows} rows spread over them: each makes at most the groups there are. */
    long partialGroups(long rows, List<Expr> keys, List<Field> fields, int nodes) {
        if (rows < 0) {
            return rows;
        }
        long groups = groups(rows, keys, fields);
        return Math.min(rows, groups * Math.max(1, nodes));
    }

    /**
     * Distinct values of {@code e} over rows of columns {@code fields}: a scanned column's from its
     * table's statistics, a constant's one, {@code year(d)} the years of d's span; NaN when unknown.
     */
    double distinct(Expr e, List<Field> fields) {
        if (e instanceof Expr.Literal) {
            return 1;
        }
        if (e instanceof Expr.Column c) {
            return c.index() < fields.size() ? distinct(fields.get(c.index())) : Double.NaN;
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.YEAR
                && call.args().get(0) instanceof Expr.Column c && c.index() < fields.size()) {
            long[] span = span(fields.get(c.index()));
            return span == null ? Double.NaN : java.time.LocalDate.ofEpochDay(span[1]).getYear()
                    - java.time.LocalDate.ofEpochDay(span[0]).getYear() + 1;
        }
        if (e instanceof Expr.Call call && call.function() == ScalarFunction.CAST && call.args().size() == 1) {
            return distinct(call.args().get(0), fields);
        }
        return Double.NaN;
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
