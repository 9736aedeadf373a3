package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Values;

/**
 * The groups of a GROUP BY, found by their key values under GROUP BY's equality ({@link
 * Values#groupKey}: 1 and 1.0 are one group), each with one accumulator per aggregate. Not
 * thread-safe.
 */
public final class GroupTable {
    private final List<AggregateCall> calls;
    private final Map<List<Object>, Group> groups = new LinkedHashMap<>();

    private final QueryMemory memory;
    private final String operator;
    private long reserved;

    public GroupTable(List<AggregateCall> calls) {
        this(calls, QueryMemory.unbounded(), "aggregation");
    }

    /** Groups held against {@code memory}, a group's keys and states reserved when it is made, as {@code operator}. */
    public GroupTable(List<AggregateCall> calls, QueryMemory memory, String operator) {
        this.calls = List.copyOf(calls);
        this.memory = memory;
        this.operator = operator;
    }

    /** The group of {@code keys}, made on first sight. */
    public Group group(Object[] keys) {
        List<Object> key = new ArrayList<>(keys.length);
        for (Object k : keys) {
            key.add(Values.groupKey(k));
        }
        Group g = groups.get(key);
        if (g == null) {
            long bytes = 2 * QueryMemory.rowBytes(keys) + 64L + 48L * calls.size();
            memory.reserve(operator, bytes);
            reserved += bytes;
            g = new Group(keys, calls);
            groups.put(key, g);
        }
        return g;
    }

    /** What the groups hold reserved of their query's memory. */
    public long reservedBytes() {
        return reserved;
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    public int size() {
        return groups.size();
    }

    public Collection<Group> groups() {
        return groups.values();
    }

    /** Sends each group's result row (keys, then the aggregates' results) to {@code out}, a batch at a time. */
    public void sendResults(java.util.function.Consumer<List<Object[]>> out) {
        List<Object[]> batch = new java.util.ArrayList<>(Pipeline.BATCH_ROWS);
        for (Group g : groups.values()) {
            batch.add(g.result());
            if (batch.size() == Pipeline.BATCH_ROWS) {
                out.accept(batch);
                batch = new java.util.ArrayList<>(Pipeline.BATCH_ROWS);
            }
        }
        if (!batch.isEmpty()) {
            out.accept(batch);
        }
    }

    /** One group: its key values as first seen, and its accumulators. */
    public static final class Group {
        private final Object[] keys;
        private final AggregateCall.Accumulator[] accumulators;

        Group(Object[] keys, List<AggregateCall> calls) {
            this.keys = keys;
            this.accumulators = calls.stream().map(AggregateCall::newAccumulator).toArray(AggregateCall.Accumulator[]::new);
        }

        /** Adds an input row to every aggregate. */
        public void add(Object[] row) {
            for (AggregateCall.Accumulator acc : accumulators) {
                acc.add(row);
            }
        }

        /** Adds a partial row's states, which start at {@code offset}, one per aggregate. */
        public void merge(Object[] partial, int offset) {
            for (int i = 0; i < accumulators.length; i++) {
                accumulators[i].merge(partial, offset + i * AggregateCall.PARTIAL_WIDTH);
            }
        }

        /** The keys, then each aggregate's result. */
        public Object[] result() {
            Object[] r = new Object[keys.length + accumulators.length];
            System.arraycopy(keys, 0, r, 0, keys.length);
            for (int i = 0; i < accumulators.length; i++) {
                r[keys.length + i] = accumulators[i].result();
            }
            return r;
        }

        /** The keys, then each aggregate's partial state. */
        public Object[] partial() {
            Object[] r = new Object[keys.length + accumulators.length * AggregateCall.PARTIAL_WIDTH];
            System.arraycopy(keys, 0, r, 0, keys.length);
            for (int i = 0; i < accumulators.length; i++) {
                accumulators[i].partial(r, keys.length + i * AggregateCall.PARTIAL_WIDTH);
            }
            return r;
        }
    }
}
