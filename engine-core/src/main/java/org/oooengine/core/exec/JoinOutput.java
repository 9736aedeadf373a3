package org.oooengine.core.exec;

import java.util.List;
import org.oooengine.core.store.Table;

/** Builds result rows from an outer and an inner row according to a spec's output list. */
public final class JoinOutput {
    private final boolean[] fromOuter;
    private final int[] positions;

    public JoinOutput(List<String> output, Table outer, Table inner) {
        fromOuter = new boolean[output.size()];
        positions = new int[output.size()];
        for (int i = 0; i < output.size(); i++) {
            String q = output.get(i);
            int dot = q.indexOf('.');
            if (dot < 0) {
                throw new IllegalArgumentException("output column '" + q + "' must be qualified as table.column");
            }
            String table = q.substring(0, dot);
            String column = q.substring(dot + 1);
            if (table.equals(outer.name())) {
                fromOuter[i] = true;
                positions[i] = outer.schema().indexOf(column);
            } else if (table.equals(inner.name())) {
                positions[i] = inner.schema().indexOf(column);
            } else {
                throw new IllegalArgumentException("output column '" + q + "' names neither " + outer.name() + " nor "
                        + inner.name());
            }
        }
    }

    public Object[] combine(Object[] outerRow, Object[] innerRow) {
        Object[] out = new Object[positions.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (fromOuter[i] ? outerRow : innerRow)[positions[i]];
        }
        return out;
    }

    /** Outer-table positions the output needs. */
    public int[] outerPositions() {
        return positionsOf(true);
    }

    public int[] innerPositions() {
        return positionsOf(false);
    }

    private int[] positionsOf(boolean outer) {
        int n = 0;
        for (boolean b : fromOuter) {
            n += b == outer ? 1 : 0;
        }
        int[] out = new int[n];
        for (int i = 0, j = 0; i < positions.length; i++) {
            if (fromOuter[i] == outer) {
                out[j++] = positions[i];
            }
        }
        return out;
    }
}
