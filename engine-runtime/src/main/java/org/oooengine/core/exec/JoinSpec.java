package org.oooengine.core.exec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A left-deep chain of equi-joins driven by a range on the first table: the outer table's rows in
 * the range, then, probe by probe, the rows of the next table whose join column equals a column of
 * a table already joined. Seed 004's OL and PL joins are one probe; Q3' (customer, orders,
 * lineitem) is two. Every execution strategy (out-of-order, in-order, hash, PSMJ) runs the same spec.
 * Each joined table has an alias, by default its name, so that a table can be joined more than
 * once (Q8' joins nation as n1 and n2); join and output columns name aliases.
 *
 * @param outerTable the table the range applies to
 * @param outerAlias its alias
 * @param outerRange range on an indexed column of the outer table
 * @param probes     the joined tables in join order
 * @param output     result columns as {@code alias.column}
 */
public record JoinSpec(String outerTable, String outerAlias, ColumnRange outerRange, List<Probe> probes,
                       List<String> output) {
    /**
     * One join step: rows of {@code table}, called {@code alias}, whose {@code column} equals {@code from}.
     *
     * @param from   {@code alias.column} of the outer table or of an earlier probe's table
     * @param table  the probed table
     * @param column its join column: its primary key's leading column or an indexed column
     * @param alias  the name output and later probes know it by
     */
    public record Probe(String from, String table, String column, String alias) {
        /** A probe known by its table's name. */
        public Probe(String from, String table, String column) {
            this(from, table, column, table);
        }

        public String fromAlias() {
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
        Set<String> joined = new LinkedHashSet<>();
        addAlias(joined, outerAlias);
        for (Probe p : probes) {
            if (p.from().indexOf('.') < 0 || !joined.contains(p.fromAlias())) {
                throw new IllegalArgumentException("probe of " + p.alias() + " joins on '" + p.from()
                        + "', which is not a column of a table joined before it " + joined);
            }
            addAlias(joined, p.alias());
        }
    }

    private static void addAlias(Set<String> joined, String alias) {
        // Columns are alias.column, split at the first dot.
        if (alias == null || alias.isEmpty() || alias.indexOf('.') >= 0) {
            throw new IllegalArgumentException("alias '" + alias + "' must be a non-empty name without '.'");
        }
        if (!joined.add(alias)) {
            throw new IllegalArgumentException("alias " + alias + " is joined twice; give one of them another alias");
        }
    }

    /** A chain whose outer table is known by its name. */
    public JoinSpec(String outerTable, ColumnRange outerRange, List<Probe> probes, List<String> output) {
        this(outerTable, outerTable, outerRange, probes, output);
    }

    /** A join of two tables: {@code outerTable.outerJoin = innerTable.innerJoin}. */
    public JoinSpec(String outerTable, ColumnRange outerRange, String outerJoin, String innerTable, String innerJoin,
                    List<String> output) {
        this(outerTable, outerRange, List.of(new Probe(outerTable + "." + outerJoin, innerTable, innerJoin)), output);
    }

    /** The tables in join order, the outer table first; a table joined twice appears twice. */
    public List<String> tables() {
        List<String> out = new ArrayList<>(probes.size() + 1);
        out.add(outerTable);
        probes.forEach(p -> out.add(p.table()));
        return out;
    }

    /** The aliases in join order, the outer table's first: one per entry of {@link #tables()}. */
    public List<String> aliases() {
        List<String> out = new ArrayList<>(probes.size() + 1);
        out.add(outerAlias);
        probes.forEach(p -> out.add(p.alias()));
        return out;
    }

    /** The table an alias stands for. */
    public String tableOf(String alias) {
        int i = aliases().indexOf(alias);
        if (i < 0) {
            throw new IllegalArgumentException("no table is joined as " + alias + " " + aliases());
        }
        return tables().get(i);
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
