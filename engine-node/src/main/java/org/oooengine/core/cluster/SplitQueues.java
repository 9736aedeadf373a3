package org.oooengine.core.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queues of a scan's splits a node hands out, by scan: under work stealing its own splits,
 * which it takes from the front and other nodes from the back; for a shared queue, every split
 * of the scan, all nodes taking from the front. A queue is made by whoever comes first (the owner
 * starting, or another node asking), from the number of splits both know, so none is handed out
 * twice. The last {@value #KEPT} are kept, so that a node asking after a queue ran dry hears that
 * it did rather than meeting a new one.
 */
final class SplitQueues {
    static final int KEPT = 4096;

    /** Positions {@code [head, tail)} of a scan's list of splits not yet taken. */
    static final class Queue {
        private int head;
        private int tail;

        Queue(int size) {
            this.tail = size;
        }

        /** The next split from the front; -1 when none is left. */
        synchronized int takeFront() {
            return head < tail ? head++ : -1;
        }

        /** The next split from the back; -1 when none is left. */
        synchronized int takeBack() {
            return head < tail ? --tail : -1;
        }

        synchronized int left() {
            return tail - head;
        }
    }

    private final Map<String, Queue> queues = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Queue> eldest) {
            return size() > KEPT;
        }
    };

    /** The queue of scan {@code id}, made of {@code size} splits if it is not there yet. */
    synchronized Queue of(String id, int size) {
        Queue q = queues.get(id);
        if (q == null) {
            q = new Queue(size);
            queues.put(id, q);
        }
        return q;
    }
}
