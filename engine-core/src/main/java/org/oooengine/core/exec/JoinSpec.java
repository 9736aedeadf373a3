package org.oooengine.core.exec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A left-deep chain of equi-joins driven by a range on the first table: the outer table's rows in
 * the range, then, probe by probe, the rows of the next table whose join column equals a column of
 * a table already joined. Seed 004's OL and PL joins are one probe; Q3' (customer, orders,
 * lineitem) is two. Every execution strategy (out-of-order, in-order, hash, PSMJ) runs the same spec.
 *
 * @param outerTable the table the range applies to
 * @param outerRange range on an indexed column of the outer table
 * @param probes     the joined tables in join order
 * @param output     result columns as {@code table.column}
 */
public record JoinSpec(String outerTable, ColumnRange outerRange, List<Probe> probes, List<String> output) {
    /**
     * One join step: rows of {@code table} whose {@code column} equals {@code from}.
     *
     * @param from   {@code table.column} of the outer table or of an earlier probe's table
     * @param table  the probed table
     * @param column its join column: its primary key's leading column or an indexed column
     */
    public record Probe(String from, String table, String column) {
        public String fromTable() {
            return from.substring(0, from.indexOf('.'));
        }

        public String fromColumn() {
            return from.substring(from.indexOf('.') + 1);
        }
    }

    public JoinSpec {
        probes = List.copyOf(probes);
        output = List.copyOf(output);
        if (probes.isEmpty()) {
            throw new IllegalArgumentException("a join needs at least one probe");
        }
        Set<String> joined = new HashSet<>(List.of(outerTable));
        for (Probe p : probes) {
            if (p.from().indexOf('.') < 0 || !joined.contains(p.fromTable())) {
                throw new IllegalArgumentException("probe of " + p.table() + " joins on '" + p.from()
                        + "', which is not a column of a table joined before it " + joined);
            }
            if (!joined.add(p.table())) {
                throw new IllegalArgumentException("table " + p.table() + " is joined twice");
            }
        }
    }

    /** A join of two tables: {@code outerTable.outerJoin = innerTable.innerJoin}. */
    public JoinSpec(String outerTable, ColumnRange outerRange, String outerJoin, String innerTable, String innerJoin,
                    List<String> output) {
        this(outerTable, outerRange, List.of(new Probe(outerTable + "." + outerJoin, innerTable, innerJoin)), output);
    }

    /** The tables in join order, the outer table first. */
    public List<String> tables() {
        List<String> out = new ArrayList<>(probes.size() + 1);
        out.add(outerTable);
        probes.forEach(p -> out.add(p.table()));
        return out;
    }

    /** The first probe's table: the inner table of a two-table join. */
    public String innerTable() {
        return probes.get(0).table();
    }

    /** Whether this joins just two tables (one probe). */
    public boolean isTwoTables() {
        return probes.size() == 1;
    }

    /** The one probe of a two-table join, for operators that join two tables only; anything longer is refused. */
    public Probe onlyProbe(String operator) {
        if (!isTwoTables()) {
            throw new IllegalArgumentException(operator + " joins two tables; this join has " + tables().size() + ": "
                    + tables());
        }
        return probes.get(0);
    }
}
