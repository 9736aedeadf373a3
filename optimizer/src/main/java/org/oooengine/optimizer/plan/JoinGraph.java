package org.oooengine.optimizer.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;

/**
 * A query as the optimizer sees it: tables under their aliases, the equalities that join them, a
 * range on the table that drives the join, and the columns to return. The order of a
 * {@link JoinSpec} it was made from does not matter; the optimizer picks its own.
 *
 * @param name    for plans and reports
 * @param tables  table of each alias, the driving alias first
 * @param range   the range on a column of the driving alias
 * @param edges   equi-join predicates between aliases
 * @param output  result columns as {@code alias.column}
 * @param rangeRows rows the range selects as the caller estimated them; null: estimate from the histogram
 */
public record JoinGraph(String name, Map<String, String> tables, ColumnRange range, List<Edge> edges,
                        List<String> output, Long rangeRows) {

    /** {@code left = right}, both as {@code alias.column}. */
    public record Edge(String left, String right) {
        public static String alias(String qualified) {
            return qualified.substring(0, qualified.indexOf('.'));
        }

        public static String column(String qualified) {
            return qualified.substring(qualified.indexOf('.') + 1);
        }

        /** This edge's column on {@code alias}'s side, or null when it does not touch that alias. */
        public String sideOf(String alias) {
            return alias(left).equals(alias) ? left : alias(right).equals(alias) ? right : null;
        }

        public String otherSide(String alias) {
            return alias(left).equals(alias) ? right : left;
        }
    }

    public JoinGraph {
        tables = new LinkedHashMap<>(tables);
        edges = List.copyOf(edges);
        output = List.copyOf(output);
        for (Edge e : edges) {
            for (String side : List.of(e.left(), e.right())) {
                if (!tables.containsKey(Edge.alias(side))) {
                    throw new IllegalArgumentException("join predicate names '" + side + "', not a table of the query "
                            + tables.keySet());
                }
            }
        }
        if (edges.size() != tables.size() - 1) {
            throw new IllegalArgumentException("the join predicates must connect the " + tables.size()
                    + " tables as a tree; got " + edges.size() + " predicates");
        }
    }

    /** The alias whose range drives every plan. */
    public String driving() {
        return tables.keySet().iterator().next();
    }

    /** The graph of a spec: its outer table drives, each probe is an edge. */
    public static JoinGraph of(String name, JoinSpec spec) {
        Map<String, String> tables = new LinkedHashMap<>();
        tables.put(spec.outerAlias(), spec.outerTable());
        List<Edge> edges = new ArrayList<>();
        for (JoinSpec.Probe p : spec.probes()) {
            tables.put(p.alias(), p.table());
            edges.add(new Edge(p.from(), p.alias() + "." + p.column()));
        }
        return new JoinGraph(name, tables, spec.outerRange(), edges, spec.output(), null);
    }

    /** This graph with the rows its range selects counted exactly. */
    public JoinGraph withRangeRows(long rows) {
        return new JoinGraph(name, tables, range, edges, output, rows);
    }

    /** Aliases in the order given. */
    public List<String> aliases() {
        return new ArrayList<>(tables.keySet());
    }
}
