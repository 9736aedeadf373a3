package org.oooengine.core.fragment;

/**
 * The build rows of a vectorized hash join by key, a key being one long (an integer or a date) or,
 * over several key columns, one 64-bit hash of them. Open addressing with linear probing: a slot
 * per distinct key holds the key and where its rows are side by side, so a probe that finds its
 * key reads one cache line, where heads, keys and next rows in arrays of their own read three.
 * Where some key repeats, the rows are put in key order ({@link #order}) and a key's rows are a
 * range of that order, read one after another rather than a chain through the rows (TPC-H Q13's
 * orders per customer). A filter refuses most probe keys the table does not hold (most, in a
 * selective join) before they touch the slots, whose array misses the cache on nearly every probe
 * once it is larger than it: a blocked Bloom filter, a 64-bit word per key's hash with two of its
 * bits set, 16 to 32 bits a key (a probe key the table lacks passes about 1 time in 100; at
 * 200,000 keys, where the cap leaves 10 bits a key, 1 in 30), and at most
 * {@value #FILTER_MAX_WORDS} words, so that it stays in the second-level cache; a table of more
 * keys (a join of two large tables, whose probes mostly meet a key) passes more.
 */
final class JoinKeyTable {
    /** The most rows a table holds: two longs a slot, up to four slots a row, in one array. */
    static final int MAX_ROWS = 1 << 28;
    /**
     * Per slot: at {@code 2s} the key, at {@code 2s + 1} its rows, the count in the high 32 bits
     * (0: the slot is empty) and the first in the low: a build row, or a place in {@link #order}.
     */
    /** Words of the filter at most: 256 KiB. */
    static final int FILTER_MAX_WORDS = 1 << 15;

    private long[] slots;
    /** Per word of the filter (the top bits of a key's hash), the two bits of each key hashed there. */
    private long[] filter;
    /** 64 less the bits of a word number of the filter. */
    private int filterShift;
    private int mask;
    /** 64 less the bits of a slot number: a key's home is the top bits of its Fibonacci hash. */
    private int shift;
    private int keys;
    /** The usable build rows in key order, each key's in build order; null where no key repeats. */
    private int[] order;

    /**
     * The table of the rows {@code usable} marks, row {@code r}'s key being {@code keyOf[r]}. Sized
     * for every row a key of its own (at most half the slots used); where keys repeat so much that
     * an eighth would do, moved into a table that size, which the probes find in cache.
     */
    JoinKeyTable(long[] keyOf, boolean[] usable) {
        int n = usable.length;
        allocate(Math.max(16, n));
        // each row's slot, for the rows in key order should a key repeat: noted as the rows are
        // added, since finding them again afterwards costs a second cache miss a row
        int[] slotOf = new int[n];
        boolean repeats = false;
        // rows clustered by key (files written in key order) repeat the last key: its slot, found again without a probe
        int lastSlot = -1;
        for (int r = 0; r < n; r++) {
            if (!usable[r]) {
                slotOf[r] = -1;
                continue;
            }
            long key = keyOf[r];
            if (lastSlot >= 0 && slots[2 * lastSlot] == key) {
                slots[2 * lastSlot + 1] += 1L << 32;
                repeats = true;
            } else {
                int s = add(key, r);
                repeats |= s >= 0;
                lastSlot = s >= 0 ? s : ~s;
            }
            slotOf[r] = lastSlot;
        }
        if (repeats) {
            order = inKeyOrder(slotOf);
        }
        if (keys * 8L < mask + 1 && mask + 1 > 1024) {
            resize(keys);
        }
        fillFilter();
    }

    /** The filter of the keys the slots hold. */
    private void fillFilter() {
        int words = Math.max(2, Math.min(FILTER_MAX_WORDS, Integer.highestOneBit(Math.max(1, keys / 4) * 2 - 1)));
        filter = new long[words];
        filterShift = 64 - Integer.numberOfTrailingZeros(words);
        for (int s = 0; s <= mask; s++) {
            if (slots[2 * s + 1] != 0) {
                long h = slots[2 * s] * 0x9E3779B97F4A7C15L;
                filter[(int) (h >>> filterShift)] |= filterBits(h);
            }
        }
    }

    /** The two bits of a key's hash {@code h} in its word of the filter: from bits the word number does not use. */
    private static long filterBits(long h) {
        return (1L << (h >>> 20)) | (1L << (h >>> 26));
    }

    /**
     * Where the rows of {@code key} are: the first in the low 32 bits, the count in the high; 0
     * when none. The first is a build row, or a place in {@link #order} where that is not null.
     */
    long rows(long key) {
        if (!mayHold(key)) {
            return 0;
        }
        int s = home(key);
        long[] slots = this.slots;
        while (true) {
            long rows = slots[2 * s + 1];
            if (rows == 0 || slots[2 * s] == key) {
                return rows;
            }
            s = (s + 1) & mask;
        }
    }

    /** False where the filter says the table lacks {@code key}; true where it may hold it. */
    boolean mayHold(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        long bits = filterBits(h);
        return (filter[(int) (h >>> filterShift)] & bits) == bits;
    }

    static int first(long rows) {
        return (int) rows;
    }

    static int count(long rows) {
        return (int) (rows >>> 32);
    }

    /** The usable build rows in key order, each key's in build order; null where no key repeats (a row is its own place). */
    int[] order() {
        return order;
    }

    /** The table's bytes, for what it holds. */
    long bytes() {
        return 8L * slots.length + 8L * filter.length + (order == null ? 0 : 4L * order.length);
    }

    /** Adds row {@code r} of {@code key}: the key's slot, or its complement ({@code ~slot}) where the key is new. */
    private int add(long key, int r) {
        int s = home(key);
        while (true) {
            long rows = slots[2 * s + 1];
            if (rows == 0) {
                slots[2 * s] = key;
                slots[2 * s + 1] = (1L << 32) | r;
                keys++;
                return ~s;
            }
            if (slots[2 * s] == key) {
                slots[2 * s + 1] = rows + (1L << 32);
                return s;
            }
            s = (s + 1) & mask;
        }
    }

    /** The rows by slot, each slot's in build order; each slot's first from then on its place there. */
    private int[] inKeyOrder(int[] slotOf) {
        int placed = 0;
        for (int s = 0; s <= mask; s++) { // each slot's first place, and the place after, in its low bits
            long rows = slots[2 * s + 1];
            if (rows != 0) {
                slots[2 * s + 1] = rows & ~0xFFFFFFFFL | placed;
                placed += count(rows);
            }
        }
        int[] order = new int[placed];
        for (int r = 0; r < slotOf.length; r++) {
            int s = slotOf[r];
            if (s >= 0) {
                order[first(slots[2 * s + 1])] = r;
                slots[2 * s + 1]++;
            }
        }
        for (int s = 0; s <= mask; s++) { // back to each slot's first place
            long rows = slots[2 * s + 1];
            if (rows != 0) {
                slots[2 * s + 1] = rows - count(rows);
            }
        }
        return order;
    }

    /** Empty slots for {@code n} keys, at most half of them used. */
    private void allocate(int n) {
        if (n > MAX_ROWS) {
            throw new IllegalArgumentException("a join key table holds at most " + MAX_ROWS + " rows, not " + n);
        }
        int size = Integer.highestOneBit(2 * n - 1) << 1;
        slots = new long[2 * size];
        mask = size - 1;
        shift = 64 - Integer.numberOfTrailingZeros(size);
    }

    private void resize(int n) {
        long[] old = slots;
        allocate(Math.max(16, n));
        for (int s = 0; s < old.length; s += 2) {
            if (old[s + 1] != 0) {
                int to = home(old[s]);
                while (slots[2 * to + 1] != 0) {
                    to = (to + 1) & mask;
                }
                slots[2 * to] = old[s];
                slots[2 * to + 1] = old[s + 1];
            }
        }
    }

    private int home(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }
}
