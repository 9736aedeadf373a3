package org.oooengine.core.fragment;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.Decimals;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.DoubleVector;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;
import org.oooengine.core.vector.Vectors;

/**
 * A GROUP BY over column batches: groups found in an open-addressing table of key hashes, states
 * kept in arrays per aggregate (decimal sums exact in 128 bits). At the end it sends what the row
 * engine's {@link GroupTable} sends: each group's partial states ({@link PipelineStep.PartialAggregate})
 * or its results ({@link PipelineStep.Aggregate}). Over grouping sets that nest ({@link #cascaded}),
 * a chain of them, one per set: the first groups the rows, each next one the groups of the one
 * before it as they leave, merging their partial states.
 * A partial one not in a cascade whose groups are nearly as many as
 * its first rows ({@link PipelineStep.PartialAggregate#skipPercent}) stops grouping: it sends its
 * groups, then each further row as a group of its own, for the final aggregation to group once.
 */
final class VectorAggregation {
    private static final int NULL_HASH = 0x5bd1e995;
    private static final int INITIAL_GROUPS = 64;
    /** The rows a partial aggregate groups before it weighs its groups against them. */
    static final long SKIP_SAMPLE_ROWS = 100_000;

    /** Per key its vector form, null for a key without columns, whose value {@code constants} holds. */
    private final VectorExpr[] keys;
    private final SqlType[] keyTypes;
    private final Object[] constants;
    private final List<AggregateCall> calls;
    private final VectorExpr[] args;
    private final QueryMemory memory;
    private final boolean partial;
    private final long groupBytes;
    private final Consumer<List<Object[]>> out;
    private KeyColumn[] keyColumns;
    private State[] states;
    private int groups;
    /** Bytes the groups hold reserved of the query's memory. */
    private long held;
    /** A whole aggregate's groups moved to disk when they outgrew the query's memory; null until then. */
    private SpilledGroups spilled;
    private int[] table = new int[2 * INITIAL_GROUPS];
    private int[] hashes = new int[INITIAL_GROUPS];
    /** Where the groups have one integer key, the table that finds them by it (and {@link #table} stays empty); else null. */
    private LongGroupTable longKeys;
    /**
     * Whether every group so far came in ascending order of one integer key, none in the table: a
     * larger key than the last is a new group without a lookup. Rows stored in key order (lineitem
     * by its order key, TPC-H Q18's 1.5 million orders) are grouped so; the table is filled once
     * a key comes out of order.
     */
    private boolean ascending;
    /** In a cascade: the next set's aggregation, which takes this one's groups before they leave; else null. */
    private VectorAggregation coarser;
    /**
     * In a cascade, per key: the constant this set has in its place (a null left out, the grouping
     * id), or null where it keeps the finer set's key.
     */
    private VectorExpr[] constantKeys;
    /**
     * A partial aggregate's rows to group before it weighs its groups against them (Long.MAX_VALUE:
     * it never does), and the most groups per 100 of them at which it keeps grouping.
     */
    private long sampleRows = Long.MAX_VALUE;
    private int skipPercent = PipelineStep.PartialAggregate.NEVER_SKIP;
    /** The rows grouped and the groups made, until it weighed them. */
    private long rowsGrouped;
    private long groupsMade;
    /** Whether it stopped grouping, and the rows it has sent on since as groups of their own. */
    private boolean skipping;
    /** Whether to number a batch's keys ({@link FewKeys}): where there are keys, until a batch holds many values of one. */
    private boolean fewKeys;
    private long rowsUngrouped;

    private VectorAggregation(VectorExpr[] keys, SqlType[] keyTypes, Object[] constants, List<AggregateCall> calls,
                              VectorExpr[] args, boolean partial, QueryMemory memory, Consumer<List<Object[]>> out) {
        this.partial = partial;
        this.constants = constants;
        this.out = out;
        this.keys = keys;
        this.keyTypes = keyTypes;
        this.calls = calls;
        this.args = args;
        this.memory = memory;
        this.groupBytes = 64L + 16L * keys.length + 40L * calls.size();
        this.fewKeys = keys.length > 0;
        empty();
        if (keys.length == 0 && partial) {
            newGroup(0); // one group without keys, even when no row comes
        }
    }

    /** Starts over without groups, giving back what they held. */
    private void empty() {
        memory.release(held);
        held = 0;
        groups = 0;
        ascending = true;
        table = new int[2 * INITIAL_GROUPS];
        Arrays.fill(table, -1);
        hashes = new int[INITIAL_GROUPS];
        keyColumns = new KeyColumn[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyColumns[k] = keys[k] == null ? null : new KeyColumn(Vector.representation(keyTypes[k]));
        }
        boolean oneLongKey = keys.length == 1 && keyColumns[0] != null
                && keyColumns[0].representation == Vector.Representation.LONG;
        longKeys = oneLongKey ? new LongGroupTable() : null;
        states = new State[calls.size()];
        for (int a = 0; a < states.length; a++) {
            states[a] = new State(calls.get(a));
        }
    }

    /**
     * The vector form of {@code step}, sending its groups to {@code out}, or null when a key or
     * argument is of a type vectors do not hold. When its groups outgrow the query's memory it sends
     * them early and starts over (the final aggregation merges a group's states from anywhere).
     */
    static VectorAggregation of(PipelineStep.PartialAggregate step, QueryMemory memory, Consumer<List<Object[]>> out) {
        return of(step, SKIP_SAMPLE_ROWS, memory, out);
    }

    /** As above, weighing its groups after {@code sampleRows} rows. */
    static VectorAggregation of(PipelineStep.PartialAggregate step, long sampleRows, QueryMemory memory,
                                Consumer<List<Object[]>> out) {
        VectorAggregation a = of(step.keys(), step.aggregates(), true, memory, out);
        if (a != null && !step.keys().isEmpty() && step.skipPercent() < PipelineStep.PartialAggregate.NEVER_SKIP) {
            a.sampleRows = sampleRows;
            a.skipPercent = step.skipPercent();
        }
        return a;
    }

    /**
     * The keys seen of a {@link PipelineStep.DropRepeats}: a partial aggregate without aggregates
     * whose groups, when they outgrow its share of the memory, are forgotten; null as {@link #of} is.
     */
    static VectorAggregation keysSeen(PipelineStep.DropRepeats step, QueryMemory memory) {
        return of(step.keys(), List.of(), true, memory, forgotten -> { });
    }

    /**
     * The batch's rows whose keys have no group yet, each making one: of rows alike in a batch,
     * the first. Keys forgotten (the groups outgrew their share of the memory) count as unseen.
     */
    Batch unseen(Batch batch) {
        Vector[] keyValues = eval(keys, batch);
        int n = batch.size();
        int[] pos = batch.positions();
        int[] kept = new int[n];
        int[] count = {0};
        int[] next = {groups};
        grouped(keyValues, pos, n, false, null, (groupOf, from, to) -> {
            if (from > 0) {
                next[0] = 0; // the groups were forgotten before these rows
            }
            for (int r = from; r < to; r++) {
                if (groupOf[r] == next[0]) { // groups are numbered in the order their first rows come
                    kept[count[0]++] = pos[r];
                    next[0]++;
                }
            }
        });
        return batch.withPositions(kept, count[0]);
    }

    /** Forgets every group, giving back the memory they held. */
    void forget() {
        empty();
    }

    /** The rows it sent on as groups of their own once it stopped grouping (0 while it groups). */
    long rowsUngrouped() {
        return rowsUngrouped;
    }

    /**
     * The vector form of a whole aggregate, or null as above or when an aggregate is over distinct
     * values. When its groups outgrow the query's memory they spill to disk, if the memory allows.
     */
    static VectorAggregation of(PipelineStep.Aggregate step, QueryMemory memory, Consumer<List<Object[]>> out) {
        if (step.aggregates().stream().anyMatch(AggregateCall::distinct)) {
            return null;
        }
        return of(step.keys(), step.aggregates(), false, memory, out);
    }

    /**
     * The partial aggregate {@code step} of {@code expand}'s copies, set by set: the batches it
     * adds are the first copy's, and each further set is grouped from the groups of the set before
     * it, which it takes as they leave (partial states merge exactly: sums, counts, extremes). Null
     * when the copies do not cascade ({@link PipelineStep.Expand#cascades}) or as {@link #of} is.
     */
    static VectorAggregation cascaded(PipelineStep.Expand expand, PipelineStep.PartialAggregate step, QueryMemory memory,
                                      Consumer<List<Object[]>> out) {
        // each set groups every row or group it is given: none stops grouping, as a lone partial aggregate may
        boolean nest = expand.cascades(step.keys(), step.aggregates())
                && step.keys().stream().noneMatch(k -> Exprs.columns(k).isEmpty());
        VectorAggregation first = nest ? of(step.keys(), step.aggregates(), true, memory, out) : null;
        VectorAggregation finer = first;
        for (int p = 1; finer != null && p < expand.projections().size(); p++) {
            VectorAggregation set = of(step.keys(), step.aggregates(), true, memory, out);
            set.constantKeys = new VectorExpr[step.keys().size()];
            for (int k = 0; k < set.constantKeys.length; k++) {
                Expr made = expand.projections().get(p).get(((Expr.Column) step.keys().get(k)).index());
                if (made instanceof Expr.Literal && (set.constantKeys[k] = VectorCompiler.compile(made)) == null) {
                    return null;
                }
            }
            finer.coarser = set;
            finer = set;
        }
        return first;
    }

    private static VectorAggregation of(List<Expr> keyExprs, List<AggregateCall> calls, boolean partial,
                                        QueryMemory memory, Consumer<List<Object[]>> out) {
        if (calls.stream().anyMatch(c -> !c.kind().isSimple())) {
            // variances keep a mean and squared deviations, collect_list its values: the row engine's accumulators do
            return null;
        }
        PipelineStep.PartialAggregate step = new PipelineStep.PartialAggregate(keyExprs, calls);
        VectorExpr[] keys = new VectorExpr[step.keys().size()];
        SqlType[] keyTypes = new SqlType[keys.length];
        Object[] constants = new Object[keys.length];
        for (int k = 0; k < keys.length; k++) {
            Expr key = step.keys().get(k);
            keyTypes[k] = key.type();
            if (Exprs.columns(key).isEmpty()) {
                // the same value in every group (a NULL kept as a key): nothing to hash, even of a type vectors do not hold
                try {
                    constants[k] = key.eval(new Object[0]);
                } catch (RuntimeException notConstant) {
                    return null;
                }
                continue;
            }
            keys[k] = VectorCompiler.compile(key);
            if (keys[k] == null || Vector.representation(key.type()) == Vector.Representation.BOOL) {
                return null;
            }
        }
        VectorExpr[] args = new VectorExpr[step.aggregates().size()];
        for (int a = 0; a < args.length; a++) {
            AggregateCall call = step.aggregates().get(a);
            if (call.kind() == AggregateCall.Kind.COUNT_STAR) {
                continue;
            }
            args[a] = VectorCompiler.compile(call.arg());
            Vector.Representation r = Vector.representation(call.arg().type());
            if (args[a] == null || r == Vector.Representation.BOOL && call.kind() != AggregateCall.Kind.COUNT) {
                return null;
            }
        }
        return new VectorAggregation(keys, keyTypes, constants, step.aggregates(), args, partial, memory, out);
    }

    /** Adds a batch's rows; evaluates every key and argument before any state changes. */
    void add(Batch batch) {
        if (skipping) {
            sendOneByOne(batch);
            return;
        }
        Vector[] keyValues = eval(keys, batch);
        Vector[] argValues = eval(args, batch);
        int n = batch.size();
        FewKeys codes = fewKeys ? FewKeys.of(keyValues, batch.positions(), n) : null;
        fewKeys = codes != null; // a batch with many values of a key: the next ones will have them too
        grouped(keyValues, batch.positions(), n, false, codes, (groupOf, from, to) -> {
            for (int a = 0; a < states.length; a++) {
                states[a].add(argValues[a], batch.positions(), groupOf, from, to);
            }
        });
        if (rowsGrouped < sampleRows) {
            rowsGrouped += n;
            if (rowsGrouped >= sampleRows && 100 * groupsMade > (long) skipPercent * rowsGrouped) {
                // grouping barely reduces the rows: the groups go on, and from now on each row as its own
                skipping = true;
                send(true, out);
                empty();
            }
        }
    }

    /** What to do with rows {@code [from, to)} once their groups are {@code groupOf[from..to)}. */
    @FunctionalInterface
    private interface GroupedRows {
        void add(int[] groupOf, int from, int to);
    }

    /**
     * Finds or makes the group of each of the {@code n} rows at {@code pos} by its {@code keyValues}
     * and hands them on to {@code rows}, as many at a time as the groups have room for. Returns
     * {@code n}; or, when not even one group fits and {@code mayGiveUp}, the first row not grouped
     * (else it throws).
     */
    private int grouped(Vector[] keyValues, int[] pos, int n, boolean mayGiveUp, FewKeys codes, GroupedRows rows) {
        int[] groupOf = new int[n];
        int from = 0;
        while (from < n) {
            int to = n;
            MemoryLimitExceededException full = null;
            if (keys.length > 0) {
                LongVector oneKey = oneIntegerKey(keyValues);
                // a group per code, found once an iteration: groups made before a makeRoom are gone after it
                int[] groupOfCode = codes == null ? null : new int[codes.groups()];
                if (groupOfCode != null) {
                    Arrays.fill(groupOfCode, -1);
                }
                try {
                    for (to = from; to < n; to++) {
                        if (groupOfCode != null) {
                            int c = codes.of(to);
                            int g = groupOfCode[c];
                            groupOf[to] = g >= 0 ? g : (groupOfCode[c] = findOrAdd(keyValues, pos[to]));
                        } else {
                            // rows come in runs of one key where the input is stored in key order
                            // (lineitem by order key): those after the first need no lookup
                            groupOf[to] = oneKey != null ? groupOfLong(keyValues, oneKey, pos, from, to, groupOf)
                                    : to > from && sameKeysAt(keyValues, pos[to], pos[to - 1]) ? groupOf[to - 1]
                                    : findOrAdd(keyValues, pos[to]);
                        }
                    }
                } catch (MemoryLimitExceededException e) {
                    full = e;
                }
            }
            rows.add(groupOf, from, to);
            // the groups so far leave memory (sent on, or spilled) and the rest of the batch goes on
            if (full != null && !makeRoom()) {
                if (mayGiveUp) {
                    return to;
                }
                throw full;
            }
            from = to;
        }
        return n;
    }

    /**
     * Adds the groups of {@code finer}, the set before this one in a cascade, by their partial
     * states: each under its own keys but those this set makes constant.
     */
    private void addGroupsOf(VectorAggregation finer) {
        int n = finer.groups;
        if (n == 0) {
            return;
        }
        Batch all = Batch.of(new Vector[0], n);
        int done = grouped(keysOf(finer, all), all.positions(), n, true, null, (groupOf, from, to) -> {
            for (int a = 0; a < states.length; a++) {
                states[a].merge(finer.states[a], groupOf, from, to);
            }
        });
        if (done < n) { // the finer sets hold the memory: the rest go on as copies would, a row per group and set
            for (VectorAggregation set = this; set != null; set = set.coarser) {
                set.sendAsCopies(finer, set.keysOf(finer, all), done);
            }
        }
    }

    /** This set's keys of {@code finer}'s groups (at positions {@code all}): theirs, but those this set makes constant. */
    private Vector[] keysOf(VectorAggregation finer, Batch all) {
        Vector[] keyValues = new Vector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyValues[k] = constantKeys[k] != null ? constantKeys[k].eval(all) : finer.keyColumns[k].vector();
        }
        return keyValues;
    }

    /** Sends {@code finer}'s groups from {@code from} on as this set's partial rows, under {@code keyValues}. */
    private void sendAsCopies(VectorAggregation finer, Vector[] keyValues, int from) {
        send(keyValues, finer.states, from, finer.groups, true, out);
    }

    /**
     * Sends each row of the batch on as a group of its own: its keys, then every aggregate's state
     * of that one row, made by the states' own code with a group per row.
     */
    private void sendOneByOne(Batch batch) {
        Vector[] keyValues = eval(keys, batch);
        Vector[] argValues = eval(args, batch);
        int n = batch.size();
        int[] pos = batch.positions();
        int[] groupOf = new int[n];
        for (int r = 0; r < n; r++) {
            for (int k = 0; k < keys.length; k++) {
                if (keyColumns[k] != null) {
                    keyColumns[k].add(keyValues[k], pos[r], r);
                }
            }
            for (State s : states) {
                s.ensure(r + 1);
            }
            groupOf[r] = r;
        }
        for (int a = 0; a < states.length; a++) {
            states[a].add(argValues[a], pos, groupOf, 0, n);
        }
        groups = n;
        send(true, out);
        groups = 0;
        for (State s : states) {
            s.clear(n);
        }
        rowsUngrouped += n;
    }

    /** Each expression's values over the batch; null for a null expression (a constant key, count(*)). */
    private static Vector[] eval(VectorExpr[] exprs, Batch batch) {
        Vector[] values = new Vector[exprs.length];
        for (int i = 0; i < exprs.length; i++) {
            values[i] = exprs[i] == null ? null : exprs[i].eval(batch);
        }
        return values;
    }

    /** The one key's values where the groups have one key, held as integers ({@link #longKeys} finds them); else null. */
    private LongVector oneIntegerKey(Vector[] keyValues) {
        return longKeys != null ? (LongVector) keyValues[0] : null;
    }

    /**
     * The group of row {@code pos[to]} where the groups have one integer key (an order key, a
     * customer key): looked up by the key itself, without a call per key column to hash and compare.
     */
    private int groupOfLong(Vector[] keyValues, LongVector key, int[] pos, int from, int to, int[] groupOf) {
        int i = pos[to];
        if (key.isNull(i)) {
            return findOrAdd(keyValues, i);
        }
        long v = key.values[i];
        if (to > from && !key.isNull(pos[to - 1]) && key.values[pos[to - 1]] == v) {
            return groupOf[to - 1];
        }
        return findOrAddLong(keyValues, v, i);
    }

    /** {@link #findOrAdd} of row {@code i}, whose one key is the integer {@code v}: found in {@link #longKeys}. */
    private int findOrAddLong(Vector[] keyValues, long v, int i) {
        KeyColumn column = keyColumns[0];
        if (ascending) {
            int last = groups - 1;
            if (last < 0 || !column.nulls[last] && v > column.longs[last]) {
                return appended(keyValues, i, 0);
            }
            if (!column.nulls[last] && v == column.longs[last]) {
                return last;
            }
            tableAll();
        }
        int found = longKeys.find(v);
        if (found >= 0) {
            return found;
        }
        int g = groups;
        newGroup(0);
        column.add(keyValues[0], i, g);
        longKeys.put(~found, v, g);
        return g;
    }

    private int findOrAdd(Vector[] keyValues, int i) {
        if (longKeys != null) {
            LongVector key = (LongVector) keyValues[0];
            return key.isNull(i) ? nullGroup(keyValues, i) : findOrAddLong(keyValues, key.values[i], i);
        }
        if (ascending) {
            tableAll();
        }
        int h = 1;
        for (int k = 0; k < keyValues.length; k++) {
            if (keyValues[k] != null) {
                h = 31 * h + hash(keyValues[k], i);
            }
        }
        int mask = table.length - 1;
        int slot = mix(h) & mask;
        while (true) {
            int g = table[slot];
            if (g < 0) {
                break;
            }
            if (hashes[g] == h && sameKeys(g, keyValues, i)) {
                return g;
            }
            slot = (slot + 1) & mask;
        }
        return added(keyValues, i, h, slot);
    }

    /** The group of the row at {@code i}, whose one integer key is NULL. */
    private int nullGroup(Vector[] keyValues, int i) {
        if (ascending) {
            tableAll();
        }
        int g = longKeys.nullGroup();
        if (g < 0) {
            g = groups;
            newGroup(0);
            keyColumns[0].add(keyValues[0], i, g);
            longKeys.setNullGroup(g);
        }
        return g;
    }

    /** A new group of the row at {@code i}, of hash {@code h}, in the table's empty {@code slot}. */
    private int added(Vector[] keyValues, int i, int h, int slot) {
        int g = groups;
        newGroup(h);
        for (int k = 0; k < keyValues.length; k++) {
            if (keyColumns[k] != null) {
                keyColumns[k].add(keyValues[k], i, g);
            }
        }
        table[slot] = g;
        if (2 * groups > table.length / 2) {
            rehash();
        }
        return g;
    }

    /** A new group of the row at {@code i}, of hash {@code h}, while the groups come in key order and are not in the table. */
    private int appended(Vector[] keyValues, int i, int h) {
        int g = groups;
        newGroup(h);
        keyColumns[0].add(keyValues[0], i, g);
        return g;
    }

    /** Ends the groups' key order: puts every group in the table, as large as adding them one by one would have made it. */
    private void tableAll() {
        ascending = false;
        if (longKeys != null) {
            longKeys = LongGroupTable.forGroups(groups);
            KeyColumn column = keyColumns[0];
            for (int g = 0; g < groups; g++) {
                if (column.nulls[g]) {
                    longKeys.setNullGroup(g);
                } else {
                    longKeys.put(~longKeys.find(column.longs[g]), column.longs[g], g);
                }
            }
            return;
        }
        int size = table.length;
        while (2 * groups > size / 2) {
            size *= 2;
        }
        table = table(hashes, groups, size);
    }

    /**
     * Empties the table when its groups outgrow the query's memory: a partial aggregate sends them
     * on (in a cascade, with every coarser set's), a whole one spills them to disk. False when
     * neither can help.
     */
    private boolean makeRoom() {
        if (partial && coarser != null) {
            return flushCascade();
        }
        if (groups == 0 || !partial && !memory.canSpill()) {
            return false;
        }
        if (partial) {
            send(true, out);
        } else {
            if (spilled == null) {
                spilled = new SpilledGroups(keys.length, calls, memory, "aggregation");
            }
            send(true, spilled::spill);
        }
        empty();
        return true;
    }

    private void newGroup(int hash) {
        if (partial && groups > 0 && held + groupBytes > Math.max(1 << 20, memory.limit() / Pipeline.PARTIAL_SHARE)) {
            // its share is full: the groups go on (makeRoom) before another is made
            throw new MemoryLimitExceededException("partial aggregation holds its share of the query's memory");
        }
        memory.reserve(partial ? "partial aggregation" : "aggregation", groupBytes);
        held += groupBytes;
        groupsMade++;
        if (groups == hashes.length) {
            hashes = Arrays.copyOf(hashes, 2 * groups);
        }
        hashes[groups] = hash;
        for (State s : states) {
            s.ensure(groups + 1);
        }
        groups++;
    }

    private void rehash() {
        table = table(hashes, groups, table.length * 2);
    }

    /** An open-addressing table of {@code size} slots (a power of two) holding groups 0 to {@code groups - 1} by their hashes. */
    static int[] table(int[] hashes, int groups, int size) {
        int[] table = new int[size];
        Arrays.fill(table, -1);
        int mask = size - 1;
        for (int g = 0; g < groups; g++) {
            int slot = mix(hashes[g]) & mask;
            while (table[slot] >= 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = g;
        }
        return table;
    }

    private boolean sameKeys(int g, Vector[] keyValues, int i) {
        for (int k = 0; k < keyValues.length; k++) {
            if (keyColumns[k] != null && !keyColumns[k].matches(g, keyValues[k], i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether positions {@code i} and {@code j} have the same keys, as one group's (nulls alike). */
    private boolean sameKeysAt(Vector[] keyValues, int i, int j) {
        for (int k = 0; k < keyValues.length; k++) {
            Vector v = keyValues[k];
            if (keyColumns[k] == null) {
                continue;
            }
            boolean isNull = v.isNull(i);
            if (isNull != v.isNull(j)) {
                return false;
            }
            if (isNull) {
                continue;
            }
            boolean same;
            if (v instanceof LongVector l) {
                same = l.values[i] == l.values[j];
            } else if (v instanceof DoubleVector d) {
                same = Double.doubleToLongBits(d.values[i]) == Double.doubleToLongBits(d.values[j]);
            } else {
                Object[] values = ((ObjectVector) v).values;
                same = values[i] == values[j] || values[i].equals(values[j]);
            }
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /** Spreads a hash over the bits a table's slot is taken from. */
    static int mix(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }

    private static int hash(Vector v, int i) {
        if (v.isNull(i)) {
            return NULL_HASH;
        }
        if (v instanceof LongVector l) {
            return Long.hashCode(l.values[i] * 0x9E3779B97F4A7C15L);
        }
        if (v instanceof DoubleVector d) {
            return Double.hashCode(d.values[i]);
        }
        return ((ObjectVector) v).values[i].hashCode();
    }

    /** Sends each group's keys and partial states or results, in the order the groups appeared. */
    void finish() {
        if (spilled != null) {
            send(true, spilled::spill);
            empty();
            spilled.finish(out);
            return;
        }
        if (coarser != null) {
            flushCascade();
            return;
        }
        send(partial, out);
    }

    /**
     * In a cascade: this set's groups go on, once the next set took them, and so do the next
     * set's and every coarser one's in turn; each starts over empty, its memory given back. False
     * when none held a group.
     */
    private boolean flushCascade() {
        boolean any = groups > 0;
        if (any) {
            if (coarser != null) {
                coarser.addGroupsOf(this);
            }
            send(true, out);
            empty();
        }
        return coarser != null && coarser.flushCascade() || any;
    }

    /** Sends every group's partial states instead of its results, also those it spilled (unmerged). */
    void finishPartials(Consumer<List<Object[]>> partials) {
        if (spilled != null) {
            send(true, spilled::spill);
            empty();
            spilled.readPartials(partials);
            return;
        }
        send(true, partials);
    }

    /** Each group's keys, then its partial states or its results, a batch at a time. */
    private void send(boolean partialStates, Consumer<List<Object[]>> out) {
        Vector[] keyValues = new Vector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyValues[k] = keyColumns[k] == null ? null : keyColumns[k].vector();
        }
        send(keyValues, states, 0, groups, partialStates, out);
    }

    /** Groups {@code [from, to)} of {@code states}, under the keys at their numbers in {@code keyValues}. */
    private void send(Vector[] keyValues, State[] states, int from, int to, boolean partialStates,
                      Consumer<List<Object[]>> out) {
        if (out instanceof BatchSink sink && (partialStates ? sentAsBatches(keyValues, states, from, to, sink)
                : resultsSentAsBatches(keyValues, states, from, to, sink))) {
            return;
        }
        RowBatches batches = new RowBatches(out);
        int width = partialStates ? AggregateCall.PARTIAL_WIDTH : 1;
        for (int g = from; g < to; g++) {
            Object[] row = new Object[keys.length + states.length * width];
            for (int k = 0; k < keys.length; k++) {
                row[k] = keyValues[k] == null ? constants[k] : keyValues[k].box(g, keyTypes[k]);
            }
            for (int a = 0; a < states.length; a++) {
                if (partialStates) {
                    states[a].partial(g, row, keys.length + a * width);
                } else {
                    row[keys.length + a] = states[a].result(g);
                }
            }
            batches.add(row);
        }
        batches.flush();
    }

    /**
     * Sends groups {@code [from, to)}' partial rows to {@code sink} as column batches of
     * {@link Pipeline#BATCH_ROWS} groups, the key and state arrays as they are (a shuffle writes
     * them on the wire without boxing a value): keys, then per aggregate its count, its value and
     * a column no state fills. False, having sent nothing, where a key is a constant of a type
     * vectors do not hold or a state's values are not held in a primitive array
     * ({@link State#partialValues}).
     */
    private boolean sentAsBatches(Vector[] keyValues, State[] states, int from, int to, BatchSink sink) {
        int width = keys.length + states.length * AggregateCall.PARTIAL_WIDTH;
        Vector[] columns = new Vector[width];
        SqlType[] types = new SqlType[width];
        if (!keyVectors(keyValues, to, columns, types)) {
            return false;
        }
        for (int a = 0; a < states.length; a++) {
            int at = keys.length + a * AggregateCall.PARTIAL_WIDTH;
            columns[at] = new LongVector(states[a].counts, null);
            types[at] = SqlType.BIGINT;
            if (states[a].counted()) {
                continue; // the value column stays null, as a count's partial row has it
            }
            columns[at + 1] = states[a].partialValues(from, to);
            if (columns[at + 1] == null) {
                return false;
            }
            types[at + 1] = states[a].partialType();
        }
        sendInBatches(columns, types, from, to, sink);
        return true;
    }

    /**
     * Sends groups {@code [from, to)}' result rows to {@code sink} as column batches of
     * {@link Pipeline#BATCH_ROWS} groups (what a whole aggregate hands the steps after it): keys as
     * they are held, counts from their array, every other result written into a vector of its
     * type. False, having sent nothing, where a key or a result is of a type no vector holds or a
     * result does not fit its vector (a decimal sum beyond 18 digits).
     */
    private boolean resultsSentAsBatches(Vector[] keyValues, State[] states, int from, int to, BatchSink sink) {
        Vector[] columns = new Vector[keys.length + states.length];
        SqlType[] types = new SqlType[columns.length];
        if (!keyVectors(keyValues, to, columns, types)) {
            return false;
        }
        for (int a = 0; a < states.length; a++) {
            AggregateCall call = states[a].call;
            int at = keys.length + a;
            types[at] = call.type();
            if (states[a].counted()) {
                columns[at] = new LongVector(states[a].counts, null);
                continue;
            }
            if (Vector.representation(call.type()) == null) {
                return false;
            }
            Vector results = Vector.allocate(call.type(), to);
            try {
                for (int g = from; g < to; g++) {
                    results.setBoxed(g, states[a].result(g), call.type());
                }
            } catch (ArithmeticException beyondItsVector) {
                return false;
            }
            columns[at] = results;
        }
        sendInBatches(columns, types, from, to, sink);
        return true;
    }

    /**
     * The groups' key vectors into the first columns: a constant key (a grouping set's rolled-up
     * keys, its grouping__id) as a vector of it, {@code size} long; false where such a constant is
     * of a type no vector holds.
     */
    private boolean keyVectors(Vector[] keyValues, int size, Vector[] columns, SqlType[] types) {
        for (int k = 0; k < keys.length; k++) {
            columns[k] = keyValues[k] != null ? keyValues[k] : Vectors.constant(keyTypes[k], constants[k], size);
            if (columns[k] == null) {
                return false;
            }
            types[k] = keyTypes[k];
        }
        return true;
    }

    /** Groups {@code [from, to)} of {@code columns} to {@code sink}, {@link Pipeline#BATCH_ROWS} at a time. */
    private static void sendInBatches(Vector[] columns, SqlType[] types, int from, int to, BatchSink sink) {
        for (int start = from; start < to; start += Pipeline.BATCH_ROWS) {
            int n = Math.min(Pipeline.BATCH_ROWS, to - start);
            int[] positions = new int[n];
            for (int i = 0; i < n; i++) {
                positions[i] = start + i;
            }
            sink.acceptBatch(new Batch(columns, positions, n), types);
        }
    }

    /** The key values of the groups, held as the key's vectors hold them. */
    private static final class KeyColumn {
        private final Vector.Representation representation;
        private long[] longs = new long[0];
        private double[] doubles = new double[0];
        private Object[] objects = new Object[0];
        private boolean[] nulls = new boolean[0];

        KeyColumn(Vector.Representation representation) {
            this.representation = representation;
        }

        void add(Vector v, int i, int g) {
            if (g == nulls.length) {
                int size = Math.max(INITIAL_GROUPS, 2 * g);
                nulls = Arrays.copyOf(nulls, size);
                switch (representation) {
                    case LONG -> longs = Arrays.copyOf(longs, size);
                    case DOUBLE -> doubles = Arrays.copyOf(doubles, size);
                    default -> objects = Arrays.copyOf(objects, size);
                }
            }
            nulls[g] = v.isNull(i);
            if (v instanceof LongVector l) {
                longs[g] = l.values[i];
            } else if (v instanceof DoubleVector d) {
                doubles[g] = d.values[i];
            } else {
                objects[g] = ((ObjectVector) v).values[i];
            }
        }

        boolean matches(int g, Vector v, int i) {
            boolean isNull = v.isNull(i);
            if (isNull || nulls[g]) {
                return isNull == nulls[g];
            }
            if (v instanceof LongVector l) {
                return longs[g] == l.values[i];
            }
            if (v instanceof DoubleVector d) {
                return Double.doubleToLongBits(doubles[g]) == Double.doubleToLongBits(d.values[i]);
            }
            return objects[g].equals(((ObjectVector) v).values[i]);
        }

        /** The groups' values as a vector, a group's at its number (the arrays themselves, not copied). */
        Vector vector() {
            return switch (representation) {
                case LONG -> new LongVector(longs, nulls);
                case DOUBLE -> new DoubleVector(doubles, nulls);
                default -> new ObjectVector(objects);
            };
        }
    }

    /** One aggregate's state per group: the count of values, and their sum (128 bits for decimals) or extreme. */
    private static final class State {
        /** Decimal sums below this in magnitude are at most 18 digits, as a column of decimals in longs holds. */
        private static final long MAX_LONG_DECIMAL = 1_000_000_000_000_000_000L;
        private final AggregateCall call;
        private final boolean extreme;
        private final int direction;
        private long[] counts = new long[0];
        private long[] low = new long[0];
        private long[] high = new long[0];
        private double[] doubles = new double[0];
        private Object[] objects = new Object[0];

        State(AggregateCall call) {
            this.call = call;
            this.extreme = call.kind() == AggregateCall.Kind.MIN || call.kind() == AggregateCall.Kind.MAX;
            this.direction = call.kind() == AggregateCall.Kind.MIN ? -1 : 1;
        }

        /** Whether the state is a count alone (its partial value is always null). */
        boolean counted() {
            return call.kind() == AggregateCall.Kind.COUNT_STAR || call.kind() == AggregateCall.Kind.COUNT;
        }

        /**
         * The partial values of groups {@code [from, to)} as {@link #partial} writes them, in a
         * vector indexed by group (null where a group counted no value), over this state's own
         * array; null where they are not held so: booleans, objects, a decimal sum past 18 digits.
         */
        Vector partialValues(int from, int to) {
            Vector.Representation r = Vector.representation(call.arg().type());
            if (r != Vector.Representation.LONG && r != Vector.Representation.DOUBLE) {
                return null;
            }
            boolean decimalSum = !extreme && r == Vector.Representation.LONG
                    && call.arg().type().kind() == SqlType.Kind.DECIMAL;
            boolean[] nulls = null;
            for (int g = from; g < to; g++) {
                if (counts[g] == 0) {
                    if (nulls == null) {
                        nulls = new boolean[to];
                    }
                    nulls[g] = true;
                } else if (decimalSum && (high[g] != low[g] >> 63 || Math.abs(low[g]) >= MAX_LONG_DECIMAL)) {
                    return null;
                }
            }
            return r == Vector.Representation.DOUBLE ? new DoubleVector(doubles, nulls) : new LongVector(low, nulls);
        }

        /** The type of {@link #partialValues}: an integer sum's a BIGINT, a decimal sum's of 18 digits. */
        SqlType partialType() {
            SqlType arg = call.arg().type();
            if (extreme || Vector.representation(arg) == Vector.Representation.DOUBLE) {
                return arg;
            }
            return arg.kind() == SqlType.Kind.DECIMAL ? SqlType.decimal(18, arg.scale()) : SqlType.BIGINT;
        }

        /** Empties the first {@code n} groups' states, for groups made anew. */
        void clear(int n) {
            Arrays.fill(counts, 0, n, 0);
            Arrays.fill(low, 0, n, 0);
            Arrays.fill(high, 0, n, 0);
            Arrays.fill(doubles, 0, n, 0);
            Arrays.fill(objects, 0, n, null);
        }

        void ensure(int groups) {
            if (groups > counts.length) {
                int size = Math.max(INITIAL_GROUPS, 2 * counts.length);
                counts = Arrays.copyOf(counts, size);
                low = Arrays.copyOf(low, size);
                high = Arrays.copyOf(high, size);
                doubles = Arrays.copyOf(doubles, size);
                objects = Arrays.copyOf(objects, size);
            }
        }

        /** Adds the values at positions {@code pos[from..to)}, whose groups are {@code groupOf[from..to)}. */
        void add(Vector values, int[] pos, int[] groupOf, int from, int to) {
            if (values == null) { // count(*)
                for (int k = from; k < to; k++) {
                    counts[groupOf[k]]++;
                }
                return;
            }
            boolean sum = call.kind() == AggregateCall.Kind.SUM || call.kind() == AggregateCall.Kind.AVG;
            if (sum && values instanceof LongVector l && l.nulls() == null) {
                addSums(l.values, pos, groupOf, from, to);
            } else if (values instanceof LongVector l) {
                for (int k = from; k < to; k++) {
                    int i = pos[k];
                    if (l.isNull(i)) {
                        continue;
                    }
                    int g = groupOf[k];
                    long v = l.values[i];
                    if (sum) {
                        long s = low[g] + v;
                        high[g] += (v >> 63) + (Long.compareUnsigned(s, low[g]) < 0 ? 1 : 0);
                        low[g] = s;
                    } else if (extreme && (counts[g] == 0 || Long.compare(v, low[g]) == direction)) {
                        low[g] = v;
                    }
                    counts[g]++;
                }
            } else if (values instanceof DoubleVector d) {
                for (int k = from; k < to; k++) {
                    int i = pos[k];
                    if (d.isNull(i)) {
                        continue;
                    }
                    int g = groupOf[k];
                    double v = d.values[i];
                    if (sum) {
                        doubles[g] += v;
                    } else if (extreme && (counts[g] == 0 || Double.compare(v, doubles[g]) == direction)) {
                        doubles[g] = v;
                    }
                    counts[g]++;
                }
            } else {
                addObjects(values, pos, groupOf, from, to);
            }
        }

        /**
         * The sums of values without nulls, each a 128-bit sum (low, high): a loop of its own, with
         * no test of the kind of aggregate or of a null per value (TPC-H Q01's eight aggregates over
         * six million lines).
         */
        private void addSums(long[] values, int[] pos, int[] groupOf, int from, int to) {
            long[] low = this.low;
            long[] high = this.high;
            long[] counts = this.counts;
            for (int k = from; k < to; k++) {
                int g = groupOf[k];
                long v = values[pos[k]];
                long before = low[g];
                long s = before + v;
                high[g] += (v >> 63) + (Long.compareUnsigned(s, before) < 0 ? 1 : 0);
                low[g] = s;
                counts[g]++;
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private void addObjects(Vector values, int[] pos, int[] groupOf, int from, int to) {
            for (int k = from; k < to; k++) {
                int i = pos[k];
                if (values.isNull(i)) {
                    continue;
                }
                int g = groupOf[k];
                if (extreme) {
                    Object v = values instanceof ObjectVector o ? o.values[i] : ((BoolVector) values).values[i];
                    if (counts[g] == 0 || Integer.signum(((Comparable) v).compareTo(objects[g])) == direction) {
                        objects[g] = v;
                    }
                }
                counts[g]++;
            }
        }

        /**
         * Merges the states of {@code finer}'s groups {@code [from, to)} (the same aggregate) into
         * groups {@code groupOf[from..to)}: their counts and sums added, their extremes compared.
         */
        @SuppressWarnings({"unchecked", "rawtypes"})
        void merge(State finer, int[] groupOf, int from, int to) {
            boolean sum = call.kind() == AggregateCall.Kind.SUM || call.kind() == AggregateCall.Kind.AVG;
            boolean counted = call.kind() == AggregateCall.Kind.COUNT_STAR || call.kind() == AggregateCall.Kind.COUNT;
            Vector.Representation r = counted ? null : Vector.representation(call.arg().type());
            for (int k = from; k < to; k++) {
                long n = finer.counts[k];
                if (n == 0) {
                    continue;
                }
                int g = groupOf[k];
                boolean first = counts[g] == 0;
                if (r == Vector.Representation.LONG) {
                    long v = finer.low[k];
                    if (sum) {
                        long s = low[g] + v;
                        high[g] += finer.high[k] + (Long.compareUnsigned(s, low[g]) < 0 ? 1 : 0);
                        low[g] = s;
                    } else if (extreme && (first || Long.compare(v, low[g]) == direction)) {
                        low[g] = v;
                    }
                } else if (r == Vector.Representation.DOUBLE) {
                    double v = finer.doubles[k];
                    if (sum) {
                        doubles[g] += v;
                    } else if (extreme && (first || Double.compare(v, doubles[g]) == direction)) {
                        doubles[g] = v;
                    }
                } else if (r != null && extreme
                        && (first || Integer.signum(((Comparable) finer.objects[k]).compareTo(objects[g])) == direction)) {
                    objects[g] = finer.objects[k];
                }
                counts[g] += n;
            }
        }

        /** Writes the count and the sum or extreme of group {@code g}, as {@link AggregateCall.Accumulator#partial} does. */
        void partial(int g, Object[] out, int offset) {
            long n = counts[g];
            out[offset] = n;
            if (call.kind() == AggregateCall.Kind.COUNT_STAR || call.kind() == AggregateCall.Kind.COUNT || n == 0) {
                out[offset + 1] = null;
                return;
            }
            SqlType t = call.arg().type();
            Vector.Representation r = Vector.representation(t);
            if (r == Vector.Representation.DOUBLE) {
                out[offset + 1] = doubles[g];
            } else if (r == Vector.Representation.OBJECT) {
                out[offset + 1] = objects[g];
            } else if (extreme) {
                out[offset + 1] = new LongVector(new long[] {low[g]}, null).box(0, t);
            } else if (t.kind() == SqlType.Kind.DECIMAL) {
                out[offset + 1] = decimal(high[g], low[g], t.scale());
            } else {
                out[offset + 1] = low[g]; // integer sums wrap in a long, as the row engine's do
            }
        }

        /** The result of group {@code g}, as {@link AggregateCall.Accumulator#result} gives it. */
        Object result(int g) {
            Object[] state = new Object[AggregateCall.PARTIAL_WIDTH];
            partial(g, state, 0);
            long n = (Long) state[0];
            if (call.kind() == AggregateCall.Kind.COUNT_STAR || call.kind() == AggregateCall.Kind.COUNT) {
                return n;
            }
            Object v = state[1];
            if (v == null || call.kind() != AggregateCall.Kind.SUM && call.kind() != AggregateCall.Kind.AVG) {
                return v;
            }
            SqlType argType = call.arg().type();
            if (call.kind() == AggregateCall.Kind.SUM) {
                return argType.kind() == SqlType.Kind.DECIMAL
                        ? ((BigDecimal) v).setScale(call.type().scale(), java.math.RoundingMode.HALF_UP) : v;
            }
            return switch (argType.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> (double) (Long) v / n;
                case DECIMAL -> ((BigDecimal) v).divide(BigDecimal.valueOf(n), call.type().scale(), java.math.RoundingMode.HALF_UP);
                default -> (Double) v / n;
            };
        }

    }

    /** The decimal of scale {@code scale} whose unscaled value is the 128-bit {@code high:low}. */
    static BigDecimal decimal(long high, long low, int scale) {
        if (high == (low >> 63)) {
            return Decimals.of(low, scale);
        }
        BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
        return new BigDecimal(unscaled, scale);
    }
}
