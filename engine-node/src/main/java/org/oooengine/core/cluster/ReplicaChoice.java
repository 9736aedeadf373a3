package org.oooengine.core.cluster;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Which holder of a partition a request goes to. The first holder with an open connection (the
 * owner while it is up, whose buffer pool holds its partition) unless another answers in less than
 * half its median time lately: a slow or overloaded node is relieved. For one slot of
 * {@value #PROBE_EVERY} requests still go to the passed-over holder, so that its figures tell when
 * it recovers; slots of time, not every n-th request, so that the keys a fetch gathers in one go
 * for a partition all go to one holder, as one request.
 */
final class ReplicaChoice {
    /** How much slower than another holder a holder must be before it is passed over. */
    static final double SLOWER = 2.0;
    /** One slot of time in this many sends requests to a holder passed over, to keep its answer times current. */
    static final int PROBE_EVERY = 16;
    /** The length of a slot. */
    static final long SLOT_NANOS = 10_000_000;

    private final PeerLatencies latencies;
    private final LongSupplier clock;

    ReplicaChoice(PeerLatencies latencies) {
        this(latencies, System::nanoTime);
    }

    /** As above, time read from {@code clock} (nanoseconds). */
    ReplicaChoice(PeerLatencies latencies, LongSupplier clock) {
        this.latencies = latencies;
        this.clock = clock;
    }

    /** The holder to ask among {@code holders}, in their order of preference; null when none is connected. */
    String choose(List<String> holders, Predicate<String> connected) {
        String first = null;
        String fastest = null;
        long fastestMedian = Long.MAX_VALUE;
        for (String h : holders) {
            if (!connected.test(h)) {
                continue;
            }
            if (first == null) {
                first = h;
            }
            long median = latencies.quantile(h, 0.5);
            if (median >= 0 && median < fastestMedian) {
                fastest = h;
                fastestMedian = median;
            }
        }
        if (first == null || fastest == null || fastest.equals(first)) {
            return first;
        }
        boolean slower = latencies.quantile(first, 0.5) > SLOWER * fastestMedian;
        boolean probeSlot = Math.floorMod(clock.getAsLong() / SLOT_NANOS, PROBE_EVERY) == 0;
        return slower && !probeSlot ? fastest : first;
    }

    /** The first of {@code holders} with an open connection; null when none has one. */
    String first(List<String> holders, Predicate<String> connected) {
        return holders.stream().filter(connected).findFirst().orElse(null);
    }

    /** A holder other than {@code node} with an open connection, the next after it in {@code holders}; null when none. */
    String second(List<String> holders, String node, Predicate<String> connected) {
        int at = holders.indexOf(node);
        for (int j = 1; j < holders.size(); j++) {
            String h = holders.get((at + j) % holders.size());
            if (!h.equals(node) && connected.test(h)) {
                return h;
            }
        }
        return null;
    }
}
