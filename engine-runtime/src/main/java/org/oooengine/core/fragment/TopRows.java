package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The first {@code limit} rows in an order, of rows arriving in any order (ORDER BY ... LIMIT):
 * a heap whose top is the last row kept, so a row past it is dropped at once and memory holds
 * {@code limit} rows, reserved of the query's memory as they are kept. Ties keep the row that came
 * first. Not thread-safe.
 */
public final class TopRows {
    private final Comparator<Object[]> order;
    private final int limit;
    private final QueryMemory memory;
    private final String operator;
    /** The kept rows, the last in the order (of the latest arrival among equals) on top. */
    private final PriorityQueue<Ranked> heap;
    private long arrivals;
    private long reserved;

    private record Ranked(Object[] row, long arrival, long bytes) {
    }

    public TopRows(List<SortKey> keys, long limit, QueryMemory memory, String operator) {
        if (limit < 0 || limit > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("cannot keep the first " + limit + " rows");
        }
        Comparator<Object[]> rows = SortKey.order(keys);
        this.order = rows;
        this.limit = (int) limit;
        this.memory = memory;
        this.operator = operator;
        Comparator<Ranked> ranked = (a, b) -> {
            int c = rows.compare(a.row, b.row);
            return c != 0 ? c : Long.compare(a.arrival, b.arrival);
        };
        this.heap = new PriorityQueue<>(Math.max(1, Math.min(this.limit, 1 << 16)), ranked.reversed());
    }

    public void add(List<Object[]> rows) {
        for (Object[] row : rows) {
            add(row);
        }
    }

    public void add(Object[] row) {
        long arrival = arrivals++;
        if (heap.size() == limit) {
            if (limit == 0 || order.compare(row, heap.peek().row) >= 0) {
                return; // after every row kept (or tied with the last, which came first)
            }
            Ranked dropped = heap.poll();
            memory.release(dropped.bytes);
            reserved -= dropped.bytes;
        }
        long bytes = QueryMemory.rowBytes(row);
        memory.reserve(operator, bytes);
        reserved += bytes;
        heap.add(new Ranked(row, arrival, bytes));
    }

    /** How many more rows it keeps whatever they are; at 0, a row must come before {@link #last} to be kept. */
    public int room() {
        return limit - heap.size();
    }

    /** The last row kept in the order; null when none is. */
    public Object[] last() {
        Ranked last = heap.peek();
        return last == null ? null : last.row;
    }

    /** The rows kept, in order; gives their memory back. */
    public List<Object[]> sorted() {
        List<Ranked> all = new ArrayList<>(heap);
        all.sort(heap.comparator().reversed());
        heap.clear();
        memory.release(reserved);
        reserved = 0;
        List<Object[]> out = new ArrayList<>(all.size());
        all.forEach(r -> out.add(r.row));
        return out;
    }
}
