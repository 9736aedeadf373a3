package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Values;

/**
 * An in-memory hash join: the build rows in a table by their key values, probe rows meeting them
 * a batch at a time; the residual condition over the joined row (probe columns, then build
 * columns). A null key never matches (SQL equality); a cross join pairs every row. Outer kinds pad
 * the unmatched side with nulls; semi and anti joins pass a probe row once or not at all. What a
 * probe makes goes on in bounded batches as it is made, however many rows a probe row meets.
 * Probing is not thread-safe.
 */
public final class HashJoinTable {
    /** About the heap bytes the table takes per build row beyond the row itself (map entry, key, list). */
    public static final long ENTRY_BYTES = 64;
    /** The most rows a probe hands on at once. */
    public static final int OUT_ROWS = Pipeline.BATCH_ROWS;

    private final JoinKind kind;
    private final int[] probeKeys;
    private final Expr residual;
    private final int probeWidth;
    private final int buildWidth;
    private final List<Object[]> buildRows;
    /** Key (the value itself for one key column, a list for several) to its row, or to a {@link Matches} list of rows. */
    private final Map<Object, Object> table;
    private final boolean buildHasNullKey;
    private final Set<Object[]> matchedBuild;

    public HashJoinTable(JoinKind kind, List<Object[]> build, int[] buildKeys, int[] probeKeys, Expr residual,
                         int probeWidth, int buildWidth) {
        this.kind = kind;
        this.probeKeys = probeKeys;
        this.residual = residual;
        this.probeWidth = probeWidth;
        this.buildWidth = buildWidth;
        this.buildRows = build;
        this.table = new HashMap<>(Math.max(16, build.size() * 4 / 3));
        boolean nullKey = false;
        for (Object[] r : build) {
            Object key = key(r, buildKeys);
            if (key == null) {
                nullKey = true;
                continue;
            }
            Object held = table.putIfAbsent(key, r);
            if (held instanceof Matches m) {
                m.add(r);
            } else if (held != null) {
                Matches m = new Matches();
                m.add((Object[]) held);
                m.add(r);
                table.put(key, m);
            }
        }
        this.buildHasNullKey = nullKey;
        this.matchedBuild = keepsBuild() ? Collections.newSetFromMap(new IdentityHashMap<>()) : Set.of();
    }

    /**
     * The joined rows of a batch of probe rows, handed to {@code out} in batches of at most
     * {@link #OUT_ROWS} rows as they are made: a probe row may meet a whole table (a cross join, a
     * key most rows share), and the rows it makes never wait in one list. {@code stop} is asked
     * after each batch sent and every {@link #OUT_ROWS} candidates tried; once it says so (the
     * limit after the join has its rows) no more are made.
     */
    public void probe(List<Object[]> batch, Consumer<List<Object[]>> out, BooleanSupplier stop) {
        if (kind == JoinKind.ANTI_NULL_AWARE && buildHasNullKey) {
            return; // x NOT IN (..., NULL, ...) is never true
        }
        Output joined = new Output(out, stop, Math.min(batch.size(), OUT_ROWS));
        boolean keepProbe = kind == JoinKind.LEFT || kind == JoinKind.FULL;
        for (Object[] l : batch) {
            if (joined.stopped) {
                return;
            }
            Object probeKey = key(l, probeKeys);
            if (kind == JoinKind.ANTI_NULL_AWARE && probeKey == null) {
                if (buildRows.isEmpty()) {
                    joined.add(l);
                }
                continue;
            }
            List<Object[]> candidates = kind == JoinKind.CROSS ? buildRows : candidates(probeKey);
            if (kind.rightOnly()) {
                markMatches(l, candidates, joined);
                continue;
            }
            boolean matched = false;
            for (Object[] r : candidates) {
                if (joined.tried()) {
                    return;
                }
                Object[] row = concat(l, r);
                if (residual == null || meets(residual.eval(row))) {
                    matched = true;
                    if (kind.leftOnly()) {
                        break;
                    }
                    if (keepsBuild()) {
                        matchedBuild.add(r);
                    }
                    if (!joined.add(row)) {
                        return;
                    }
                }
            }
            if (kind == JoinKind.SEMI ? matched : kind.leftOnly() && !matched) {
                joined.add(l);
            } else if (!matched && keepProbe) {
                joined.add(concat(l, null));
            }
        }
        joined.flush();
    }

    /** As {@link #probe(List, Consumer, BooleanSupplier)}, never stopping early. */
    public void probe(List<Object[]> batch, Consumer<List<Object[]>> out) {
        probe(batch, out, () -> false);
    }

    /** Rows made by a probe, sent on a batch at a time; remembers when its consumer has had enough. */
    private static final class Output {
        private final Consumer<List<Object[]>> out;
        private final BooleanSupplier stop;
        private List<Object[]> rows;
        private int tried;
        boolean stopped;

        Output(Consumer<List<Object[]>> out, BooleanSupplier stop, int expected) {
            this.out = out;
            this.stop = stop;
            this.rows = new ArrayList<>(Math.max(16, expected));
        }

        /** Adds a row; false when no more are wanted. */
        boolean add(Object[] row) {
            rows.add(row);
            if (rows.size() >= OUT_ROWS) {
                flush();
            }
            return !stopped;
        }

        /** Counts a candidate tried; true when no more are wanted (asked every {@link #OUT_ROWS}). */
        boolean tried() {
            if (++tried >= OUT_ROWS) {
                tried = 0;
                stopped |= stop.getAsBoolean();
            }
            return stopped;
        }

        void flush() {
            if (!rows.isEmpty() && !stopped) {
                List<Object[]> full = rows;
                rows = new ArrayList<>(Math.min(OUT_ROWS, 2 * full.size()));
                out.accept(full);
            }
            stopped |= stop.getAsBoolean();
        }
    }

    /**
     * Whether a candidate's residual counts as a match: true does; for NOT IN unknown does too,
     * since {@code x NOT IN (..., s, ...)} holds only when {@code x <> s} is true for every s.
     */
    private boolean meets(Object residualValue) {
        return Boolean.TRUE.equals(residualValue) || (residualValue == null && kind == JoinKind.ANTI_NULL_AWARE);
    }

    /** Marks the build rows that probe row {@code l} meets (a right semi or anti join outputs nothing per probe). */
    private void markMatches(Object[] l, List<Object[]> candidates, Output joined) {
        for (Object[] r : candidates) {
            if (joined.tried()) {
                return;
            }
            if (!matchedBuild.contains(r) && (residual == null || meets(residual.eval(concat(l, r))))) {
                matchedBuild.add(r);
            }
        }
    }

    /**
     * After the last probe: for RIGHT and FULL joins the build rows no probe row met, padded; for
     * RIGHT_SEMI those some probe row met, for RIGHT_ANTI those none did, as they are; else none.
     * To {@code out} in batches of at most {@link #OUT_ROWS}.
     */
    public void buildRowsAtEnd(Consumer<List<Object[]>> out) {
        if (!keepsBuild()) {
            return;
        }
        Output rows = new Output(out, () -> false, OUT_ROWS);
        for (Object[] r : buildRows) {
            boolean met = matchedBuild.contains(r);
            if (kind == JoinKind.RIGHT_SEMI ? met : !met) {
                rows.add(kind.rightOnly() ? r : concat(null, r));
            }
        }
        rows.flush();
    }

    private boolean keepsBuild() {
        return kind == JoinKind.RIGHT || kind == JoinKind.FULL || kind.rightOnly();
    }

    private List<Object[]> candidates(Object probeKey) {
        Object held = probeKey == null ? null : table.get(probeKey);
        if (held == null) {
            return List.of();
        }
        if (held instanceof Matches m) {
            return m;
        }
        return List.<Object[]>of((Object[]) held);
    }

    /** The build rows of a key that more than one row has. */
    private static final class Matches extends ArrayList<Object[]> {
        Matches() {
            super(2);
        }
    }

    /** The key values as equality sees them (one column: its value; several: a list), or null when one is null. */
    private static Object key(Object[] row, int[] columns) {
        if (columns.length == 1) {
            Object v = row[columns[0]];
            return v == null ? null : Values.groupKey(v);
        }
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

    private Object[] concat(Object[] l, Object[] r) {
        Object[] row = new Object[probeWidth + buildWidth];
        if (l != null) {
            System.arraycopy(l, 0, row, 0, probeWidth);
        }
        if (r != null) {
            System.arraycopy(r, 0, row, probeWidth, buildWidth);
        }
        return row;
    }
}
