package org.oooengine.hive.sql.exec;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.hive.sql.plan.RelNode;

/**
 * An in-memory hash join: the right side's rows in a table by their key values, the left side
 * probing it; the residual condition over the joined row. Outer joins pad the unmatched side
 * with nulls; semi and anti joins pass a left row once or not at all. A null key never matches
 * (SQL equality). A cross join pairs every row.
 */
final class HashJoin {
    private HashJoin() {
    }

    static List<Object[]> run(RelNode.Join j, List<Object[]> left, List<Object[]> right, Cancellation cancel) {
        int lw = j.left().fields().size();
        int rw = j.right().fields().size();
        Map<List<Object>, List<Object[]>> table = Executor.newTable(right.size());
        boolean rightHasNullKey = false;
        for (Object[] r : right) {
            List<Object> key = key(r, j.rightKeys());
            if (key != null) {
                table.computeIfAbsent(key, k -> new ArrayList<>(1)).add(r);
            } else {
                rightHasNullKey = true;
            }
        }
        RelNode.JoinKind kind = j.kind();
        if (kind == RelNode.JoinKind.ANTI_NULL_AWARE && rightHasNullKey) {
            return List.of(); // x NOT IN (..., NULL, ...) is never true
        }
        boolean keepLeft = kind == RelNode.JoinKind.LEFT || kind == RelNode.JoinKind.FULL;
        boolean keepRight = kind == RelNode.JoinKind.RIGHT || kind == RelNode.JoinKind.FULL;
        Set<Object[]> matchedRight = keepRight ? java.util.Collections.newSetFromMap(new IdentityHashMap<>()) : Set.of();
        List<Object[]> out = new ArrayList<>();
        for (Object[] l : left) {
            // per outer row: a cross join may do a whole table's work for each
            cancel.check();
            List<Object> leftKey = key(l, j.leftKeys());
            if (kind == RelNode.JoinKind.ANTI_NULL_AWARE && leftKey == null) {
                if (right.isEmpty()) {
                    out.add(l);
                }
                continue;
            }
            List<Object[]> candidates = kind == RelNode.JoinKind.CROSS ? right : matches(table, leftKey);
            boolean matched = false;
            for (Object[] r : candidates) {
                Object[] row = concat(l, r, lw, rw);
                if (j.residual() == null || Boolean.TRUE.equals(j.residual().eval(row))) {
                    matched = true;
                    if (kind.leftOnly()) {
                        break;
                    }
                    out.add(row);
                    if (keepRight) {
                        matchedRight.add(r);
                    }
                }
            }
            if (kind == RelNode.JoinKind.SEMI ? matched : kind.leftOnly() && !matched) {
                out.add(l);
            } else if (!matched && keepLeft) {
                out.add(concat(l, null, lw, rw));
            }
        }
        if (keepRight) {
            for (Object[] r : right) {
                if (!matchedRight.contains(r)) {
                    out.add(concat(null, r, lw, rw));
                }
            }
        }
        return out;
    }

    private static List<Object[]> matches(Map<List<Object>, List<Object[]>> table, List<Object> key) {
        if (key == null) {
            return List.of();
        }
        return table.getOrDefault(key, List.of());
    }

    /** The key values as equality sees them, or null when one is null. */
    private static List<Object> key(Object[] row, int[] columns) {
        List<Object> key = new ArrayList<>(columns.length);
        for (int c : columns) {
            Object v = row[c];
            if (v == null) {
                return null;
            }
            key.add(Values.groupKey(v));
        }
        return key;
    }

    private static Object[] concat(Object[] l, Object[] r, int lw, int rw) {
        Object[] row = new Object[lw + rw];
        if (l != null) {
            System.arraycopy(l, 0, row, 0, lw);
        }
        if (r != null) {
            System.arraycopy(r, 0, row, lw, rw);
        }
        return row;
    }
}
