package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long each peer has lately taken to answer this process's index-join requests: the last
 * {@value #WINDOW} answer times per peer. Replica choice compares peers by them, and a hedged
 * request waits as long as a typical peer's high quantile before it asks a second holder.
 */
final class PeerLatencies {
    /** Answer times kept per peer: enough for a 0.95 quantile that moves within a second of load. */
    static final int WINDOW = 512;
    /** Fewer answers than this from a peer tell nothing about it yet. */
    static final int MIN_SAMPLES = 64;
    /** A window's sorted copy is made again after this many new answers, not on every question. */
    private static final int RESORT_EVERY = 32;

    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final int window;
    private final int minSamples;

    /** Windows of {@value #WINDOW} answers, a peer known from {@value #MIN_SAMPLES} on. */
    PeerLatencies() {
        this(WINDOW, MIN_SAMPLES);
    }

    /** Windows of {@code window} answers, a peer known from {@code minSamples} on (heartbeats: fewer, further apart). */
    PeerLatencies(int window, int minSamples) {
        this.window = window;
        this.minSamples = minSamples;
    }

    /** One answer from {@code node} took {@code nanos}. */
    void record(String node, long nanos) {
        windows.computeIfAbsent(node, n -> new Window(window, minSamples)).add(nanos);
    }

    /** The {@code q} quantile of {@code node}'s recent answer times in nanoseconds; -1 before enough answers. */
    long quantile(String node, double q) {
        Window w = windows.get(node);
        return w == null ? -1 : w.quantile(q);
    }

    /**
     * The {@code q} quantile of a typical peer: the median over peers known well enough. One slow
     * peer among three does not move it, so a request to that one is hedged and not the others'.
     */
    long typical(double q) {
        List<Long> known = new ArrayList<>();
        for (Window w : windows.values()) {
            long v = w.quantile(q);
            if (v >= 0) {
                known.add(v);
            }
        }
        if (known.isEmpty()) {
            return -1;
        }
        known.sort(null);
        return known.get((known.size() - 1) / 2);
    }

    /** A ring of the last answer times, with a sorted copy refreshed now and then. */
    private static final class Window {
        private final long[] ring;
        private final int minSamples;
        private int next;
        private int count;
        private int sinceSort;
        private long[] sorted = new long[0];

        Window(int size, int minSamples) {
            this.ring = new long[size];
            this.minSamples = minSamples;
        }

        synchronized void add(long nanos) {
            ring[next] = nanos;
            next = (next + 1) % ring.length;
            count = Math.min(count + 1, ring.length);
            sinceSort++;
        }

        synchronized long quantile(double q) {
            if (count < minSamples) {
                return -1;
            }
            if (sinceSort >= Math.min(RESORT_EVERY, minSamples) || sorted.length == 0) {
                sorted = Arrays.copyOf(ring, count);
                Arrays.sort(sorted);
                sinceSort = 0;
            }
            return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))];
        }
    }
}
