package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.SortKey;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprText;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * What EXPLAIN writes for one operator, in the words of SQL: columns by name, expressions as
 * written, each operator's output columns ({@code revenue := sum(...)} where a column is made).
 * The same text for an operator of the coordinator and for a step of the nodes' pipelines.
 */
final class StepText {
    /** How many columns a projection that only reorders them may have to be spelled out. */
    private static final int SPELLED_OUT = 8;

    private StepText() {
    }

    static String filter(Expr condition, List<Field> in) {
        return "Filter " + ColumnNames.of(in).sql(condition);
    }

    /**
     * The columns a projection makes, named where they are not just an input column passed on; a
     * pipeline's placeholders for columns no one reads (nulls) left out; a mere reordering of all
     * the columns (a join's sides put back in the written order) said in a word.
     */
    static String project(List<Expr> exprs, List<Field> in, List<Field> out) {
        ColumnNames inNames = ColumnNames.of(in);
        if (exprs.size() > SPELLED_OUT && reordersAll(exprs, in.size())) {
            return "Project [all " + exprs.size() + " columns, reordered]";
        }
        ColumnNames outNames = ColumnNames.of(out);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            Expr e = exprs.get(i);
            if (e instanceof Expr.Literal l && l.value() == null && !outNames.carried(i)) {
                continue;
            }
            String sql = inNames.sql(e);
            String name = outNames.carried(i) ? outNames.apply(i) : sql;
            items.add(name.equals(sql) ? sql : name + " := " + sql);
        }
        return "Project [" + String.join(", ", items) + "]";
    }

    private static boolean reordersAll(List<Expr> exprs, int inputWidth) {
        if (exprs.size() != inputWidth || exprs.size() < 2) {
            return false;
        }
        boolean[] seen = new boolean[inputWidth];
        boolean moved = false;
        for (int i = 0; i < exprs.size(); i++) {
            if (!(exprs.get(i) instanceof Expr.Column c) || seen[c.index()]) {
                return false;
            }
            seen[c.index()] = true;
            moved |= c.index() != i;
        }
        return moved;
    }

    /**
     * GROUPING SETS' copies of each row: the columns that differ between the copies (the keys, a
     * null where a set leaves one out, and the grouping id), copy by copy, then those every copy
     * passes on alike; cascaded, each set is grouped from the groups of the one before.
     */
    static String expand(List<List<Expr>> copies, boolean cascaded, List<Field> in, List<Field> out) {
        ColumnNames inNames = ColumnNames.of(in);
        ColumnNames outNames = ColumnNames.of(out);
        List<Integer> differing = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        for (int i = 0; i < copies.get(0).size(); i++) {
            Expr first = copies.get(0).get(i);
            int at = i;
            if (copies.stream().anyMatch(copy -> !copy.get(at).equals(first))) {
                differing.add(i);
            } else if (!(first instanceof Expr.Literal l && l.value() == null)) {
                String sql = inNames.sql(first);
                String name = outNames.carried(i) ? outNames.apply(i) : sql;
                passed.add(name.equals(sql) ? sql : name + " := " + sql);
            }
        }
        StringBuilder b = new StringBuilder("Expand ").append(copies.size()).append(" grouping sets")
                .append(cascaded ? ", each grouped from the one before [" : " [")
                .append(differing.stream().map(outNames::apply).collect(Collectors.joining(", "))).append("]:");
        for (List<Expr> copy : copies) {
            b.append(" (").append(differing.stream().map(i -> inNames.sql(copy.get(i))).collect(Collectors.joining(", ")))
                    .append(')');
        }
        return passed.isEmpty() ? b.toString() : b.append(" passing [").append(String.join(", ", passed)).append(']').toString();
    }

    /** A GROUP BY: its keys and its aggregates, each named as the columns it makes. */
    static String aggregate(String operator, List<Expr> keys, List<AggregateCall> calls, List<Field> in, List<Field> out) {
        ColumnNames inNames = ColumnNames.of(in);
        ColumnNames outNames = out == null ? null : ColumnNames.of(out);
        List<String> keyItems = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String sql = inNames.sql(keys.get(i));
            keyItems.add(item(outNames, i, sql));
        }
        List<String> aggItems = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            aggItems.add(item(outNames, keys.size() + i, inNames.sql(calls.get(i))));
        }
        return operator + " keys [" + String.join(", ", keyItems) + "] aggs [" + String.join(", ", aggItems) + "]";
    }

    /** {@code name := sql} for output column {@code at}, or just the SQL where the column has no name of its own. */
    private static String item(ColumnNames outNames, int at, String sql) {
        if (outNames == null || at >= outNames.size() || !outNames.carried(at) || ColumnNames.generated(outNames.apply(at))) {
            return sql;
        }
        String name = outNames.apply(at);
        return name.equals(sql) ? sql : name + " := " + sql;
    }

    static String sortKeys(List<SortKey> keys, List<Field> in) {
        ColumnNames names = ColumnNames.of(in);
        return "[" + keys.stream().map(k -> names.apply(k.column()) + direction(k.ascending(), k.nullsFirst()))
                .collect(Collectors.joining(", ")) + "]";
    }

    private static String direction(boolean ascending, boolean nullsFirst) {
        // nulls come last going up and first going down unless the query says otherwise
        return (ascending ? " ASC" : " DESC") + (nullsFirst != ascending ? "" : nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }

    /**
     * Window functions: the partition and order keys, then each call named as the column it makes,
     * e.g. {@code Window partition by [i_class] order by [] [sum(ws_ext_sales_price) ROWS BETWEEN ...]}.
     */
    static String window(List<Expr> partition, List<WindowCall.OrderKey> order, List<WindowCall> calls, List<Field> in,
                         List<Field> out) {
        ColumnNames inNames = ColumnNames.of(in);
        ColumnNames outNames = ColumnNames.of(out);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            items.add(item(outNames, in.size() + i, calls.get(i).text(inNames)));
        }
        return "Window partition by [" + partition.stream().map(inNames::sql).collect(Collectors.joining(", "))
                + "] order by [" + order.stream().map(k -> inNames.sql(k.expr()) + direction(k.ascending(), k.nullsFirst()))
                .collect(Collectors.joining(", ")) + "] calls [" + String.join(", ", items) + "]";
    }

    /** A hash join: {@code probe = build} key pairs, the rest of the condition, and (may be null) where the build rows come from. */
    static String join(JoinKind kind, List<Integer> probeKeys, List<Integer> buildKeys, Expr residual, List<Field> probe,
                       List<Field> build, String buildFrom) {
        ColumnNames row = ColumnNames.of(probe, build);
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < probeKeys.size(); i++) {
            pairs.add(row.apply(probeKeys.get(i)) + " = " + row.apply(probe.size() + buildKeys.get(i)));
        }
        StringBuilder b = new StringBuilder("HashJoin ").append(kind);
        if (!pairs.isEmpty()) {
            b.append(" [").append(String.join(", ", pairs)).append(']');
        }
        if (residual != null) {
            b.append(pairs.isEmpty() ? " ON " + row.sql(residual) : " AND " + ExprText.conjunct(residual, row));
        }
        return buildFrom == null ? b.toString() : b.append(", build: ").append(buildFrom).toString();
    }

    /** Where the nodes' hash join takes its build rows from: how the join is distributed. */
    static String buildFrom(JoinBuild build, String localTable) {
        if (build instanceof JoinBuild.Local local) {
            return "co-located (" + (local.pipeline().slicedBy() >= 0 ? "the same slice" : "local partition")
                    + " of " + localTable + ")";
        }
        if (build instanceof JoinBuild.Broadcast b) {
            return "broadcast #" + b.slot() + (b.byRanges() ? " routed by ranges" : b.routed() ? " routed by key" : "");
        }
        if (build instanceof JoinBuild.Shuffled s) {
            return "shuffle #" + s.slot();
        }
        if (build instanceof JoinBuild.Exchanged) {
            return "both sides shuffled by key";
        }
        return String.valueOf(build);
    }

    /** A step of the nodes' pipelines other than a join, over rows of {@code in}, making rows of {@code out}. */
    static String step(PipelineStep step, List<Field> in, List<Field> out) {
        return step(step, in, out, true);
    }

    /** As above; {@code wholeGroups}: whether an aggregate's groups are whole on each node, or each node's own. */
    static String step(PipelineStep step, List<Field> in, List<Field> out, boolean wholeGroups) {
        if (step instanceof PipelineStep.Filter f) {
            return filter(f.condition(), in);
        } else if (step instanceof PipelineStep.Project p) {
            return project(p.exprs(), in, out);
        } else if (step instanceof PipelineStep.DropRepeats d) {
            ColumnNames names = ColumnNames.of(in);
            return "DropRepeats of [" + String.join(", ", d.keys().stream().map(names::sql).toList())
                    + "] (the DISTINCT above drops them anyway; stops when under " + (100 - d.keepPercent()) + "% repeat)";
        } else if (step instanceof PipelineStep.Expand e) {
            return expand(e.projections(), e.cascaded(), in, out);
        } else if (step instanceof PipelineStep.PartialAggregate a) {
            return aggregate("PartialAggregate", a.keys(), a.aggregates(), in, null);
        } else if (step instanceof PipelineStep.Aggregate a) {
            return aggregate("Aggregate", a.keys(), a.aggregates(), in, out)
                    + (wholeGroups ? " (each group on one node)" : " (groups of each node's own rows, merged above)");
        } else if (step instanceof PipelineStep.TopN t) {
            return "TopN " + t.count() + " " + sortKeys(t.keys(), in);
        } else if (step instanceof PipelineStep.Sort s) {
            return "Sort " + sortKeys(s.keys(), in);
        } else if (step instanceof PipelineStep.Limit l) {
            return "Limit " + l.count();
        } else if (step instanceof PipelineStep.MergePartials m) {
            return "FinalAggregate keys " + ColumnNames.of(in).list(0, m.keyCount()) + " calls "
                    + ColumnNames.of(out).list(m.keyCount(), out.size()) + " (each group's partial rows merged on one node)";
        } else if (step instanceof PipelineStep.Window w) {
            return window(w.partitionKeys(), w.orderKeys(), w.calls(), in, out) + " (each partition on one node)";
        }
        throw new IllegalArgumentException("a join step is written with its build: " + step);
    }
}
