package org.oooengine.core.exec;

import java.util.List;
import org.oooengine.core.store.Table;

/**
 * Builds result rows from the rows of the joined tables — one per table, in join order — according
 * to a spec's output list, whose columns name the tables by alias.
 */
public final class JoinOutput {
    private final int[] tableOf;
    private final int[] positions;
    private final int tableCount;

    /** {@code aliases} and {@code tables} in join order, one alias per table. */
    public JoinOutput(List<String> output, List<String> aliases, List<Table> tables) {
        if (aliases.size() != tables.size()) {
            throw new IllegalArgumentException(aliases.size() + " aliases for " + tables.size() + " tables");
        }
        tableCount = tables.size();
        tableOf = new int[output.size()];
        positions = new int[output.size()];
        for (int i = 0; i < output.size(); i++) {
            String q = output.get(i);
            int dot = q.indexOf('.');
            if (dot < 0) {
                throw new IllegalArgumentException("output column '" + q + "' must be qualified as alias.column");
            }
            tableOf[i] = aliases.indexOf(q.substring(0, dot));
            if (tableOf[i] < 0) {
                throw new IllegalArgumentException("output column '" + q + "' names none of the joined tables " + aliases);
            }
            positions[i] = tables.get(tableOf[i]).schema().indexOf(q.substring(dot + 1));
        }
    }

    /** The output of {@code spec}, given its tables in join order. */
    public JoinOutput(JoinSpec spec, List<Table> tables) {
        this(spec.output(), spec.aliases(), tables);
    }

    /** The result row of one row per joined table, in join order. */
    public Object[] combine(Object[]... rows) {
        Object[] out = new Object[positions.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = rows[tableOf[i]][positions[i]];
        }
        return out;
    }

    /** Positions in the {@code table}-th joined table that the output needs. */
    public int[] positions(int table) {
        if (table < 0 || table >= tableCount) {
            throw new IndexOutOfBoundsException("table " + table + " of " + tableCount);
        }
        int n = 0;
        for (int t : tableOf) {
            n += t == table ? 1 : 0;
        }
        int[] out = new int[n];
        for (int i = 0, j = 0; i < positions.length; i++) {
            if (tableOf[i] == table) {
                out[j++] = positions[i];
            }
        }
        return out;
    }

    public int[] outerPositions() {
        return positions(0);
    }

    public int[] innerPositions() {
        return positions(1);
    }
}
