package org.oooengine.core.fragment;

import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.ChunkBatches;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;
import org.oooengine.core.vector.Vectors;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A {@link PipelineStep.HashJoin} (or a cross join: no keys) over column batches: the build rows
 * by key in a {@link JoinKeyTable}, each key column made longs by its {@link JoinKeyCoding} (a
 * string's code, a decimal's unscaled value), their columns turned into vectors once
 * (in the table's key order where keys repeat); each probe batch finds its candidate pairs, filters them by the
 * residual, and comes out as the gathered columns of the pairs (inner, left, right, full) or as
 * its own rows narrowed (semi, anti). Where build rows come out after the last probe
 * ({@link #finishBuild}) it marks those met: a right or full join's unmet rows, padded; a right
 * semi join's met rows, a right anti join's unmet ones. Answers what {@link HashJoinTable}
 * answers for these kinds.
 */
final class VectorHashJoin {
    /** The most pairs a probe sends on at once. */
    static final int OUT_PAIRS = 4 * Pipeline.BATCH_ROWS;

    private final JoinKind kind;
    private final int[] probeKeys;
    /** Per key, how its values become the table's longs, and the probe column's type. */
    private final JoinKeyCoding[] codings;
    private final SqlType[] probeKeyTypes;
    private final VectorExpr residual;
    /** The residual on rows of SQL values, for pairs whose decimal arithmetic outgrows a long. */
    private final org.oooengine.core.sql.expr.Expr residualExpr;
    /** The types of a pair's columns, as far as known (those the residual reads among them). */
    private final SqlType[] pairTypes;
    private final int probeWidth;
    private final Vector[] buildColumns;
    private final SqlType[] buildTypes;
    private final long[][] buildKeys;
    /** The build rows by key: the key itself where there is one, a hash of the keys where there are several. */
    private final JoinKeyTable table;
    /** Per joined column whether a later step reads it; null when all are: the others are left out of the pairs. */
    private final boolean[] gathered;
    /** Per joined column whether the residual reads it; null without a residual. */
    private final boolean[] residualRead;
    /** The heap the key table and the reordered copies take, beyond the build rows as they came. */
    private final long tableBytes;
    private final int buildRows;
    /**
     * For the joins whose build rows come out at the end ({@link #keepsBuild}), per build row (in
     * the table's order, the rows of null or unmatchable keys last) whether a probe row met it; else null.
     */
    private final boolean[] met;
    /** What NULLs decide of a NOT IN (a null-aware anti join); {@link NotInNulls#NONE} for every other join. */
    private final NotInNulls notIn;

    /**
     * {@code x NOT IN (build keys)} is an anti join but for NULLs: a NULL among the build's keys
     * makes it true for no row, and a NULL {@code x} is not known to be out of a build with rows.
     */
    private enum NotInNulls {
        /** Not a NOT IN, or one over no build rows (true for every row, a NULL {@code x} too): an anti join. */
        NONE,
        /** Build rows, no NULL among their keys: rows whose {@code x} is NULL are dropped too. */
        PROBE_NULLS_OUT,
        /** A NULL among the build's keys: no row passes. */
        NOTHING_PASSES
    }

    private VectorHashJoin(JoinKind kind, int[] probeKeys, JoinKeyCoding[] codings, VectorExpr residual,
                           org.oooengine.core.sql.expr.Expr residualExpr, SqlType[] probeTypes, Vector[] buildColumns,
                           SqlType[] buildTypes, long[][] buildKeys, boolean[] usable, boolean[] gathered,
                           NotInNulls notIn) {
        this.notIn = notIn;
        this.codings = codings;
        this.probeKeyTypes = new SqlType[probeKeys.length];
        for (int k = 0; k < probeKeys.length; k++) {
            probeKeyTypes[k] = probeTypes[probeKeys[k]];
        }
        this.gathered = gathered;
        this.buildTypes = buildTypes.clone();
        this.residualExpr = residualExpr;
        int probeWidth = probeTypes.length;
        this.residualRead = residualExpr == null ? null : new boolean[probeWidth + buildColumns.length];
        if (residualExpr != null) {
            org.oooengine.core.sql.expr.Exprs.columns(residualExpr).stream().filter(c -> c < residualRead.length)
                    .forEach(c -> residualRead[c] = true);
        }
        SqlType[] pairs = Arrays.copyOf(probeTypes, probeWidth + buildColumns.length);
        System.arraycopy(buildTypes, 0, pairs, probeWidth, Math.min(buildTypes.length, buildColumns.length));
        if (residualExpr != null) {
            VectorPipeline.columnTypes(List.of(residualExpr), pairs);
        }
        this.pairTypes = pairs;
        this.kind = kind;
        this.probeKeys = probeKeys;
        this.residual = residual;
        this.probeWidth = probeWidth;
        this.table = new JoinKeyTable(buildKeys.length == 1 ? buildKeys[0] : hashes(buildKeys, usable.length), usable);
        int[] order = table.order();
        if (order != null && keepsBuild(kind) && order.length < usable.length) {
            order = withUnusableLast(order, usable); // they come out at the end, never met
        }
        long bytes = table.bytes();
        for (JoinKeyCoding coding : codings) {
            bytes += coding.bytes();
        }
        // without keys (a cross join) every row is usable and under one key: the order is the rows' own
        if (order == null || buildKeys.length == 0) {
            this.buildColumns = buildColumns;
            this.buildKeys = buildKeys;
        } else { // the rows in the table's key order, so that a key's partners are gathered side by side
            boolean none = kind.leftOnly() && residual == null; // no build column read, none made
            this.buildColumns = new Vector[buildColumns.length];
            for (int c = 0; c < buildColumns.length; c++) {
                boolean made = !none && (gathered == null || gathered[probeWidth + c]);
                this.buildColumns[c] = made ? Vectors.gather(buildColumns[c], order, order.length) : buildColumns[c];
                bytes += made ? 9L * order.length : 0; // a value or reference and a null flag a row
            }
            // one key is looked up exactly and never compared again; several are compared row by row
            this.buildKeys = buildKeys.length == 1 ? null : new long[buildKeys.length][];
            for (int k = 0; buildKeys.length > 1 && k < buildKeys.length; k++) {
                this.buildKeys[k] = new long[order.length];
                bytes += 8L * order.length;
                for (int t = 0; t < order.length; t++) {
                    this.buildKeys[k][t] = buildKeys[k][order[t]];
                }
            }
        }
        this.tableBytes = bytes;
        this.buildRows = usable.length;
        this.met = keepsBuild(kind) ? new boolean[order == null ? usable.length : order.length] : null;
    }

    /** Whether build rows come out after the last probe: a right or full join's unmet, a right semi or anti join's. */
    static boolean keepsBuild(JoinKind kind) {
        return kind == JoinKind.RIGHT || kind == JoinKind.FULL || kind.rightOnly();
    }

    /** {@code order} (the usable rows in key order) followed by the rows {@code usable} leaves out. */
    private static int[] withUnusableLast(int[] order, boolean[] usable) {
        int[] all = java.util.Arrays.copyOf(order, usable.length);
        int at = order.length;
        for (int r = 0; r < usable.length; r++) {
            if (!usable[r]) {
                all[at++] = r;
            }
        }
        return all;
    }

    /**
     * The heap bytes this join holds beyond its build rows: the key table (16 bytes a slot, two to
     * four slots a row), the codes of keys that are not numbers and, where keys repeat, the build
     * columns copied into key order.
     */
    long tableBytes() {
        return tableBytes;
    }

    /** How many build rows the table was made of. */
    int buildRows() {
        return buildRows;
    }

    /**
     * The vector form of {@code join} over {@code build}, or null when the row engine must run it:
     * another kind, a key whose build values compare with the probe's otherwise than as the
     * longs of a {@link JoinKeyCoding}, a residual or a build column read later that vectors
     * cannot hold.
     *
     * @param probeTypes the probe batch's column types (null where unknown)
     * @param buildTypes the build columns read after the join, by type; null for those carried as they are
     */
    static VectorHashJoin of(PipelineStep.HashJoin join, List<Object[]> build, SqlType[] probeTypes, SqlType[] buildTypes,
                             boolean[] needed) {
        return of(join, new RowsBuild(build), probeTypes, buildTypes, needed);
    }

    /** As above, over build rows that came as a chunk: its columns become vectors and keys as the wire held them. */
    static VectorHashJoin of(PipelineStep.HashJoin join, ColumnarRows.Chunk build, SqlType[] probeTypes,
                             SqlType[] buildTypes, boolean[] needed) {
        return of(join, build.columns() == null ? new RowsBuild(build.rows()) : new ColumnsBuild(build), probeTypes,
                buildTypes, needed);
    }

    private static VectorHashJoin of(PipelineStep.HashJoin join, Build build, SqlType[] probeTypes, SqlType[] buildTypes,
                                     boolean[] needed) {
        // a cross join is an inner join without keys: every build row is in one chain, and each probe
        // row meets them all (a scalar subquery's one row: TPC-DS Q23's maximum before its GROUP BY)
        JoinKind kind = join.kind() == JoinKind.CROSS ? JoinKind.INNER : join.kind();
        boolean notIn = kind == JoinKind.ANTI_NULL_AWARE;
        if (notIn && (join.probeKeys().size() != 1 || join.residual() != null)) {
            return null; // NOT IN over several columns, or with a residual, decides NULLs in ways of its own
        }
        kind = notIn ? JoinKind.ANTI : kind;
        if (kind != JoinKind.INNER && kind != JoinKind.LEFT && kind != JoinKind.SEMI && kind != JoinKind.ANTI
                && !keepsBuild(kind)) {
            return null;
        }
        int keys = join.probeKeys().size();
        int[] probeKeys = new int[keys];
        JoinKeyCoding[] codings = new JoinKeyCoding[keys];
        for (int k = 0; k < keys; k++) {
            probeKeys[k] = join.probeKeys().get(k);
            codings[k] = JoinKeyCoding.of(probeKeys[k] < probeTypes.length ? probeTypes[probeKeys[k]] : null);
            if (codings[k] == null) {
                return null;
            }
        }
        int n = build.size();
        if (n > JoinKeyTable.MAX_ROWS) {
            return null;
        }
        long[][] buildKeys = new long[keys][];
        boolean[] usable = new boolean[n];
        Arrays.fill(usable, true);
        try {
            for (int k = 0; k < keys; k++) {
                buildKeys[k] = build.keys(join.buildKeys().get(k), codings[k], usable);
            }
        } catch (JoinKeyCoding.NotComparable otherwise) {
            return null;
        }
        VectorExpr residual = null;
        if (join.residual() != null) {
            residual = VectorCompiler.compile(join.residual());
            if (residual == null) {
                return null;
            }
        }
        SqlType[] types = new SqlType[join.buildWidth()];
        for (int c = 0; c < types.length; c++) {
            types[c] = c < buildTypes.length ? buildTypes[c] : null;
            if (types[c] != null && Vector.representation(types[c]) == null) {
                return null;
            }
        }
        boolean[] gathered = needed == null ? null : Arrays.copyOf(needed, probeTypes.length + types.length);
        if (gathered != null && join.residual() != null) {
            Exprs.columns(join.residual()).stream().filter(c -> c < gathered.length).forEach(c -> gathered[c] = true);
        }
        // a semi or anti join without a residual never reads a build column
        boolean none = kind.leftOnly() && join.residual() == null;
        boolean[] made = new boolean[types.length];
        for (int c = 0; c < made.length; c++) {
            made[c] = !none && (gathered == null || gathered[probeTypes.length + c]);
        }
        Vector[] columns = build.columns(types, made);
        if (columns == null) {
            return null;
        }
        NotInNulls nulls = !notIn || n == 0 ? NotInNulls.NONE
                : build.anyNull(join.buildKeys().get(0)) ? NotInNulls.NOTHING_PASSES : NotInNulls.PROBE_NULLS_OUT;
        return new VectorHashJoin(kind, probeKeys, codings, residual, join.residual(), probeTypes, columns, buildTypes,
                buildKeys, usable, gathered, nulls);
    }

    /** The build rows as the table is made of them. */
    private interface Build {
        int size();

        /**
         * Each row's key at {@code column} as {@code coding} makes it, {@code usable} cleared where
         * it is null or no probe key can equal it (7.5 against integers); throws
         * {@link JoinKeyCoding.NotComparable} as the coding does.
         */
        long[] keys(int column, JoinKeyCoding coding, boolean[] usable);

        /** Whether a row's value at {@code column} is NULL. */
        boolean anyNull(int column);

        /**
         * The columns as vectors of {@code types} (null: objects), those not {@code made} empty
         * of values; null when a value is not of its column's type.
         */
        Vector[] columns(SqlType[] types, boolean[] made);
    }

    /** Rows of SQL values. */
    private record RowsBuild(List<Object[]> rows) implements Build {
        @Override
        public int size() {
            return rows.size();
        }

        @Override
        public long[] keys(int column, JoinKeyCoding coding, boolean[] usable) {
            return keysOf(r -> rows.get(r)[column], coding, usable);
        }

        @Override
        public boolean anyNull(int column) {
            return rows.stream().anyMatch(row -> row[column] == null);
        }

        @Override
        public Vector[] columns(SqlType[] types, boolean[] made) {
            int n = rows.size();
            Vector[] columns = new Vector[types.length];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = types[c] == null || !made[c] ? new ObjectVector(new Object[made[c] ? n : 0])
                        : Vector.allocate(types[c], n);
            }
            // row by row: the build rows are objects of their own, and reading one column of every row
            // before the next column misses the cache on each row every time
            try {
                for (int r = 0; r < n; r++) {
                    Object[] row = rows.get(r);
                    for (int c = 0; c < columns.length; c++) {
                        if (made[c]) {
                            columns[c].setBoxed(r, row[c], types[c]);
                        }
                    }
                }
            } catch (ArithmeticException | ClassCastException notOfItsType) {
                return null;
            }
            return columns;
        }
    }

    /** A chunk's columns as the wire held them. */
    private record ColumnsBuild(ColumnarRows.Chunk chunk) implements Build {
        @Override
        public int size() {
            return chunk.size();
        }

        @Override
        public long[] keys(int column, JoinKeyCoding coding, boolean[] usable) {
            ColumnarRows.Column keys = chunk.columns()[column];
            long[] held = coding.buildKeys(keys, usable);
            return held != null ? held : keysOf(keys::value, coding, usable);
        }

        @Override
        public boolean anyNull(int column) {
            ColumnarRows.Column keys = chunk.columns()[column];
            for (int r = 0; r < chunk.size(); r++) {
                if (keys.isNull(r)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Vector[] columns(SqlType[] types, boolean[] made) {
            Vector[] columns = new Vector[types.length];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = made[c] ? ChunkBatches.vector(chunk.columns()[c], types[c], chunk.size())
                        : new ObjectVector(new Object[0]);
                if (columns[c] == null) { // held otherwise than the type's vector holds it: value by value, as rows are
                    columns[c] = ChunkBatches.valueByValue(chunk.columns()[c], types[c], chunk.size());
                    if (columns[c] == null) {
                        return null;
                    }
                }
            }
            return columns;
        }
    }

    /** The types of the joined columns, given the probe side's (null for columns carried as they are). */
    SqlType[] outputTypes(SqlType[] probeTypes) {
        if (kind.leftOnly()) {
            return probeTypes;
        }
        if (kind.rightOnly()) {
            return buildTypes.clone();
        }
        SqlType[] all = Arrays.copyOf(probeTypes, probeTypes.length + buildTypes.length);
        System.arraycopy(buildTypes, 0, all, probeTypes.length, buildTypes.length);
        return all;
    }

    /** The keys of the rows as {@link Build#keys} makes them, from each row's SQL value {@code valueAt}. */
    private static long[] keysOf(java.util.function.IntFunction<Object> valueAt, JoinKeyCoding coding, boolean[] usable) {
        long[] keys = new long[usable.length];
        for (int r = 0; r < keys.length; r++) {
            Object v = valueAt.apply(r);
            Long key = v == null ? null : coding.buildKey(v);
            if (key == null) {
                usable[r] = false;
            } else {
                keys[r] = key;
            }
        }
        return keys;
    }

    private static final long HASH_SEED = 0x9E3779B97F4A7C15L;

    /** Per build row, the hash of its keys (all rows the same where there are none: a cross join). */
    private static long[] hashes(long[][] keys, int n) {
        long[] hashes = new long[n];
        for (int r = 0; r < n; r++) {
            long h = 1;
            for (long[] k : keys) {
                h = h * HASH_SEED + k[r];
            }
            hashes[r] = mixed(h);
        }
        return hashes;
    }

    /**
     * The build rows whose keys hash as probe row {@code i}'s (put in {@code probe}), as
     * {@link JoinKeyTable#rows} gives them; 0 when a key is null or none.
     */
    private long candidates(LongVector[] keys, int i, long[] probe) {
        long h = 1;
        for (int k = 0; k < keys.length; k++) {
            if (keys[k].isNull(i)) {
                return 0;
            }
            probe[k] = keys[k].values[i];
            h = h * HASH_SEED + probe[k];
        }
        return table.rows(mixed(h));
    }

    /**
     * The keys' combined hash with its bits mixed (murmur3's finalizer): without it, pairs such as
     * (k, 1) over k take homes a multiple of the same constant apart and pile up in long runs of
     * the table's slots, which each probe that misses walks to its end.
     */
    private static long mixed(long h) {
        h = (h ^ (h >>> 33)) * 0xFF51AFD7ED558CCDL;
        h = (h ^ (h >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }

    /**
     * The joined rows of a probe batch, to {@code out} in batches of at most {@link #OUT_PAIRS}
     * pairs as they are found: a probe row may meet many build rows, and the pairs never wait in
     * one batch. {@code stop} is asked after each batch sent; once it says so no more are made.
     * A residual whose decimal arithmetic outgrows a long is evaluated on rows of SQL values, as
     * the row engine does, so a batch sent is never taken back.
     */
    void probe(Batch in, Consumer<Batch> out, BooleanSupplier stop) {
        if (notIn == NotInNulls.NOTHING_PASSES) {
            return;
        }
        int n = in.size();
        int[] pos = in.positions();
        LongVector[] keys = new LongVector[probeKeys.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = codings[k].probeKeys(in.column(probeKeys[k]), probeKeyTypes[k], pos, n, in.capacity());
        }
        boolean[] matched = kind == JoinKind.INNER || kind == JoinKind.RIGHT || kind.rightOnly() ? null
                : new boolean[in.capacity()];
        // candidate pairs: probe position, build row
        int[] pp = new int[Math.min(OUT_PAIRS, Math.max(16, n))];
        int[] bb = new int[pp.length];
        int m = 0;
        long[] probe = new long[keys.length];
        // one key (most joins): looked up straight from its array, without the loops over keys
        LongVector single = keys.length == 1 ? keys[0] : null;
        boolean onePartner = kind.leftOnly(); // a semi or anti join needs one partner
        // ... and without a residual, its first is one: the row is decided there, no pair made
        boolean firstDecides = onePartner && residual == null;
        for (int j = 0; j < n; j++) {
            int i = pos[j];
            long rows;
            if (single != null) {
                if (single.isNull(i)) {
                    continue;
                }
                rows = table.rows(single.values[i]);
            } else {
                rows = candidates(keys, i, probe);
            }
            int last = JoinKeyTable.first(rows) + JoinKeyTable.count(rows);
            for (int r = JoinKeyTable.first(rows); r < last; r++) {
                if (onePartner && matched[i]) {
                    break;
                }
                if (kind.rightOnly() && met[r]) {
                    continue; // a build row met once comes out once
                }
                // one key: every row of the chain has it; several: rows whose keys only hash alike are passed over
                if (single != null || sameKeys(probe, r)) {
                    if (firstDecides) {
                        matched[i] = true;
                        break;
                    }
                    if (kind.rightOnly() && residual == null) {
                        met[r] = true;
                        continue;
                    }
                    if (m == pp.length) {
                        if (m < OUT_PAIRS) {
                            pp = Arrays.copyOf(pp, Math.min(OUT_PAIRS, 2 * m));
                            bb = Arrays.copyOf(bb, pp.length);
                        } else {
                            pairs(in, pp, bb, m, matched, out);
                            m = 0;
                            if (stop.getAsBoolean()) {
                                return;
                            }
                        }
                    }
                    pp[m] = i;
                    bb[m] = r;
                    m++;
                }
            }
        }
        pairs(in, pp, bb, m, matched, out);
        if (kind == JoinKind.INNER || kind == JoinKind.RIGHT || kind.rightOnly() || stop.getAsBoolean()) {
            return;
        }
        if (kind == JoinKind.SEMI || kind == JoinKind.ANTI) {
            int[] kept = new int[n];
            int k = 0;
            boolean nullsOut = notIn == NotInNulls.PROBE_NULLS_OUT;
            for (int j = 0; j < n; j++) {
                if (matched[pos[j]] == (kind == JoinKind.SEMI) && !(nullsOut && single.isNull(pos[j]))) {
                    kept[k++] = pos[j];
                }
            }
            if (k > 0) {
                out.accept(in.withPositions(kept, k));
            }
            return;
        }
        // LEFT, FULL: after the pairs, each probe row that met none, padded with nulls
        m = 0;
        for (int j = 0; j < n; j++) {
            if (!matched[pos[j]]) {
                if (m == pp.length) {
                    pp = Arrays.copyOf(pp, 2 * m);
                    bb = Arrays.copyOf(bb, 2 * m);
                }
                pp[m] = pos[j];
                bb[m] = -1;
                m++;
            }
        }
        if (m > 0) {
            out.accept(joined(in, pp, bb, m));
        }
    }

    /**
     * Probe rows of SQL values that do not fit the probe batch's vectors (a decimal past a long):
     * joined against the same table as {@link #probe} joins batches, marking the same build rows
     * met, the joined rows to {@code out} as rows (the build's columns not read later null).
     */
    void probeRows(List<Object[]> rows, Consumer<List<Object[]>> out) {
        if (notIn == NotInNulls.NOTHING_PASSES) {
            return;
        }
        List<Object[]> made = new java.util.ArrayList<>();
        long[] probe = new long[probeKeys.length];
        for (Object[] row : rows) {
            boolean nullKey = false;
            boolean absent = false;
            long h = 1;
            for (int k = 0; k < probe.length; k++) {
                Object v = row[probeKeys[k]];
                Long key = v == null ? null : codings[k].probeKey(v);
                nullKey |= v == null;
                absent |= key == null;
                probe[k] = key == null ? JoinKeyCoding.ABSENT : key;
                h = h * HASH_SEED + probe[k];
            }
            long chain = absent ? 0 : table.rows(probe.length == 1 ? probe[0] : mixed(h));
            boolean matched = false;
            int last = JoinKeyTable.first(chain) + JoinKeyTable.count(chain);
            for (int r = JoinKeyTable.first(chain); r < last && !(matched && kind.leftOnly()); r++) {
                if ((kind.rightOnly() && met[r]) || (probe.length > 1 && !sameKeys(probe, r))) {
                    continue;
                }
                Object[] pair = kind.leftOnly() && residualExpr == null ? null : pairOf(row, r);
                if (residualExpr != null && !Boolean.TRUE.equals(residualExpr.eval(pair))) {
                    continue;
                }
                matched = true;
                if (met != null) {
                    met[r] = true;
                }
                if (!kind.leftOnly() && !kind.rightOnly()) {
                    made.add(pair);
                }
            }
            if (kind == JoinKind.SEMI ? matched
                    : kind == JoinKind.ANTI && !matched && !(nullKey && notIn == NotInNulls.PROBE_NULLS_OUT)) {
                made.add(row);
            } else if (!matched && (kind == JoinKind.LEFT || kind == JoinKind.FULL)) {
                made.add(pairOf(row, -1));
            }
        }
        if (!made.isEmpty()) {
            out.accept(made);
        }
    }

    /** Probe row {@code row} beside build row {@code r} (in the table's order; -1: nulls), as {@link HashJoinTable} joins them. */
    private Object[] pairOf(Object[] row, int r) {
        Object[] pair = Arrays.copyOf(row, probeWidth + buildColumns.length);
        for (int c = 0; r >= 0 && c < buildColumns.length; c++) {
            if (gathered == null || gathered[probeWidth + c] || residualRead != null && residualRead[probeWidth + c]) {
                pair[probeWidth + c] = buildColumns[c].box(r, buildTypes.length > c ? buildTypes[c] : null);
            }
        }
        return pair;
    }

    /**
     * The first {@code m} candidate pairs: those the residual keeps are marked matched and, for an
     * inner or left join, sent on as one batch.
     */
    private void pairs(Batch in, int[] pp, int[] bb, int m, boolean[] matched, Consumer<Batch> out) {
        if (m == 0) {
            return;
        }
        if (residual != null) {
            // the residual sees only the columns it reads: most pairs of a semi join's EXISTS (TPC-H Q21's
            // other suppliers' lines) fail it, and a semi join sends none of their columns on anyway
            byte[] keep = kept(joined(in, pp, bb, m, residualRead));
            int kept = 0;
            for (int k = 0; k < m; k++) {
                if (keep[k] == BoolVector.TRUE) {
                    pp[kept] = pp[k];
                    bb[kept] = bb[k];
                    kept++;
                }
            }
            m = kept;
        }
        if (matched != null) {
            for (int k = 0; k < m; k++) {
                matched[pp[k]] = true;
            }
        }
        if (met != null) {
            for (int k = 0; k < m; k++) {
                met[bb[k]] = true;
            }
        }
        if (m > 0 && !kind.leftOnly() && !kind.rightOnly()) {
            out.accept(joined(in, pp, bb, m));
        }
    }

    /**
     * After the last probe, the build rows {@link #keepsBuild} says come out: those of a right semi
     * join a probe row met, of a right anti join those none did, as the build's columns; those of a
     * right or full join none met, behind probe columns of nulls. In batches of at most
     * {@link Pipeline#BATCH_ROWS} rows.
     */
    void finishBuild(Consumer<Batch> out) {
        boolean wanted = kind == JoinKind.RIGHT_SEMI;
        int[] kept = new int[Pipeline.BATCH_ROWS];
        int k = 0;
        for (int r = 0; r < met.length; r++) {
            if (met[r] == wanted) {
                kept[k++] = r;
                if (k == kept.length) {
                    out.accept(buildRowsOut(kept, k));
                    kept = new int[Pipeline.BATCH_ROWS];
                    k = 0;
                }
            }
        }
        if (k > 0) {
            out.accept(buildRowsOut(kept, k));
        }
    }

    /** The first {@code k} build rows of {@code rows} as {@link #finishBuild} sends them on. */
    private Batch buildRowsOut(int[] rows, int k) {
        if (kind.rightOnly()) {
            return Batch.of(buildColumns, met.length).withPositions(rows, k);
        }
        Vector[] columns = new Vector[probeWidth + buildColumns.length];
        for (int c = 0; c < probeWidth; c++) {
            if (gathered == null || gathered[c]) {
                columns[c] = nulls(pairTypes[c], k);
            }
        }
        for (int c = 0; c < buildColumns.length; c++) {
            if (gathered == null || gathered[probeWidth + c]) {
                columns[probeWidth + c] = Vectors.gather(buildColumns[c], rows, k);
            }
        }
        return Batch.of(columns, k);
    }

    /** {@code n} nulls in a vector of {@code type} (objects where it is not known). */
    private static Vector nulls(SqlType type, int n) {
        if (type == null) {
            return new ObjectVector(new Object[n]);
        }
        Vector v = Vector.allocate(type, n);
        for (int i = 0; i < n; i++) {
            v.setBoxed(i, null, type);
        }
        return v;
    }

    /** Per pair, whether the residual holds (TRUE) or not: on vectors, or on rows when vectors overflow. */
    private byte[] kept(Batch pairs) {
        try {
            return ((BoolVector) residual.eval(pairs)).values;
        } catch (ArithmeticException beyondLong) {
            List<Object[]> rows = pairs.toRows(pairTypes);
            byte[] keep = new byte[rows.size()];
            for (int k = 0; k < keep.length; k++) {
                keep[k] = Boolean.TRUE.equals(residualExpr.eval(rows.get(k))) ? BoolVector.TRUE : 0;
            }
            return keep;
        }
    }

    private boolean sameKeys(long[] probe, int r) {
        for (int k = 0; k < probe.length; k++) {
            if (buildKeys[k][r] != probe[k]) {
                return false;
            }
        }
        return true;
    }

    /** The pairs as a batch: the probe columns, then the build columns (those a later step reads). */
    private Batch joined(Batch in, int[] pp, int[] bb, int m) {
        return joined(in, pp, bb, m, gathered);
    }

    /** The pairs as a batch of the columns {@code wanted} marks (all where it is null); the others missing. */
    private Batch joined(Batch in, int[] pp, int[] bb, int m, boolean[] wanted) {
        Vector[] columns = new Vector[probeWidth + buildColumns.length];
        for (int c = 0; c < probeWidth; c++) {
            if (wanted == null || wanted[c]) {
                columns[c] = Vectors.gather(in.column(c), pp, m);
            }
        }
        for (int c = 0; c < buildColumns.length; c++) {
            if (wanted == null || wanted[probeWidth + c]) {
                columns[probeWidth + c] = Vectors.gather(buildColumns[c], bb, m);
            }
        }
        return Batch.of(columns, m);
    }
}
