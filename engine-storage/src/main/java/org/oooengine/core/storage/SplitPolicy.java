package org.oooengine.core.storage;

import java.util.Arrays;

/**
 * Where a full leaf splits when an entry is inserted that does not fit (seed 001). A split sees
 * the page's entries with the new one in its place and returns the index of the first entry that
 * moves to the new right page. What they differ in is sequential insertion: a tree that only
 * grows at its right end, or — TPC-C's orders, keyed (warehouse, district, order number) — at the
 * right end of many key prefixes inside the tree. Splitting such a page in the middle leaves the
 * left half at 50% for good, since nothing is ever inserted there again; splitting right after
 * the new entry leaves it full, and the run goes on filling the right page.
 */
public enum SplitPolicy {
    /** In the middle by bytes, whatever the insert: the classic default (InnoDB's inside the tree). */
    HALF,
    /**
     * The classic right-end detector: an entry past the last key of the whole tree starts a new
     * page alone and the old page stays full; any other split as {@link #HALF}.
     */
    RIGHTMOST,
    /**
     * Seed 001's: as {@link #RIGHTMOST}, and an insert that continues an ascending run within a key
     * prefix — the new entry shares at least its first key column with the entry before it without
     * being a duplicate of it, and the page's last inserts went each right after the one before
     * ({@link #RUN_EVIDENCE} in a row) — splits right after the new entry. Otherwise as
     * {@link #HALF}. A one-column key has no prefix to detect runs in.
     */
    PREFIX,
    /**
     * Seed 001's other idea, insert rates: as {@link #PREFIX} for a run that most of the page's
     * recent inserts ({@link Split#insertsAfter}) went into; any other split goes where those
     * inserts make the next split of either side furthest away — each side's free room over the
     * inserts that land in it, the smaller of the two as large as it can be — instead of in the
     * middle. Inserts spread evenly split in the middle; inserts bunched at a few places leave their
     * room there and the rest of the page full.
     */
    RATE;

    /**
     * Inserts in a row into a page, each right after the one before (the new one included), that
     * make a run: fewer, and inserts scattered at random would now and then look like one.
     */
    public static final int RUN_EVIDENCE = 3;

    /** Recent inserts a split under {@link #RATE} needs to see before it trusts where they land. */
    static final int RATE_EVIDENCE = 8;

    /**
     * By default, the share of a page a run keeps on its left page when it splits (and at which a
     * page a run fills up splits): the rest is room for its entries to grow when updated — TPC-C's
     * Delivery sets each order's carrier — which would otherwise split full pages in the middle.
     * (PostgreSQL and Oracle leave 10% for the same reason.) A tree whose entries grow by less, or
     * never, keeps less room ({@link Split#runFill}).
     */
    public static final double RUN_FILL = 0.9;

    /** The name a table property gives (`half`, `rightmost`, `prefix`, `rate`); a clear error for any other. */
    public static SplitPolicy named(String name) {
        for (SplitPolicy p : values()) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown split policy '" + name + "' (half, rightmost, prefix or rate)");
    }

    /**
     * A leaf about to split.
     *
     * @param entryBytes     each entry's bytes in the page (slot included), the new one at {@code newSlot}
     * @param newSlot        where the new entry is
     * @param capacity       bytes a page holds for entries (its size less the header)
     * @param rightmostLeaf  whether the page is the last leaf of the tree
     * @param sharedColumns  key columns the new entry shares with the entry before it (0 when it is first)
     * @param keyColumns     the key's columns
     * @param afterLastInsert whether the new entry continues a run of inserts into the page, each right
     *                       after the one before ({@link #RUN_EVIDENCE} in a row, this one included)
     * @param runFill        the share of {@code capacity} a run's pages are filled to
     * @param insertsAfter   per entry, how many of the page's recent inserts were of it: the next
     *                       ones are expected right after it (null: not tracked)
     */
    public record Split(int[] entryBytes, int newSlot, int capacity, boolean rightmostLeaf, int sharedColumns,
                        int keyColumns, boolean afterLastInsert, double runFill, int[] insertsAfter) {
        public Split {
            if (entryBytes.length < 2 || newSlot < 0 || newSlot >= entryBytes.length) {
                throw new IllegalArgumentException("a split of " + entryBytes.length + " entries, the new one at " + newSlot);
            }
            if (!(runFill > 0.5 && runFill <= 1)) {
                throw new IllegalArgumentException("a run fills its pages to " + runFill + "; between 0.5 and 1, please");
            }
            if (insertsAfter != null && insertsAfter.length != entryBytes.length) {
                throw new IllegalArgumentException(insertsAfter.length + " insert counts for " + entryBytes.length + " entries");
            }
        }

        /** A split without insert counts. */
        public Split(int[] entryBytes, int newSlot, int capacity, boolean rightmostLeaf, int sharedColumns, int keyColumns,
                     boolean afterLastInsert, double runFill) {
            this(entryBytes, newSlot, capacity, rightmostLeaf, sharedColumns, keyColumns, afterLastInsert, runFill, null);
        }

        /** A split whose runs fill their pages to {@link #RUN_FILL}. */
        public Split(int[] entryBytes, int newSlot, int capacity, boolean rightmostLeaf, int sharedColumns, int keyColumns,
                     boolean afterLastInsert) {
            this(entryBytes, newSlot, capacity, rightmostLeaf, sharedColumns, keyColumns, afterLastInsert, RUN_FILL);
        }

        boolean atPageEnd() {
            return newSlot == entryBytes.length - 1;
        }
    }

    /** The index of the first entry that goes to the new right page: both sides non-empty and within capacity. */
    public int splitAt(Split s) {
        if (this != HALF && s.rightmostLeaf() && s.atPageEnd()) {
            return s.newSlot(); // the tree grows at its right end: the new entry starts the next page alone
        }
        if (keepsRun(s)) {
            int afterNew = s.newSlot() + 1;
            if (afterNew < s.entryBytes().length && bytes(s.entryBytes(), 0, afterNew) <= runCapacity(s)) {
                return afterNew; // the run's entries so far stay together, nearly full; the entries after it move
            }
            return s.newSlot(); // the page holds the run to its end: the new entry goes on alone
        }
        if (this == RATE && s.insertsAfter() != null && Arrays.stream(s.insertsAfter()).sum() >= RATE_EVIDENCE) {
            return byInsertRate(s);
        }
        return half(s.entryBytes(), s.capacity());
    }

    /**
     * The split whose sides' free room over their share of the recent inserts (the inserts after
     * entry {@code j} land left when {@code j} is left) has the larger minimum; among equals, the
     * evener one. A side no insert lands in fills to the run fill.
     */
    private static int byInsertRate(Split s) {
        int[] entries = s.entryBytes();
        int total = bytes(entries, 0, entries.length);
        int inserts = Arrays.stream(s.insertsAfter()).sum();
        int best = -1;
        double bestTime = -1;
        long bestDelta = Long.MAX_VALUE;
        int left = 0;
        int leftInserts = 0;
        for (int at = 1; at < entries.length; at++) {
            left += entries[at - 1];
            leftInserts += s.insertsAfter()[at - 1];
            int right = total - left;
            int leftCap = leftInserts == 0 ? runCapacity(s) : s.capacity();
            int rightCap = leftInserts == inserts ? runCapacity(s) : s.capacity();
            if (left > leftCap || right > rightCap) {
                continue;
            }
            double time = Math.min(timeToFill(s.capacity() - left, leftInserts), timeToFill(s.capacity() - right,
                    inserts - leftInserts));
            long delta = Math.abs((long) left - right);
            if (time > bestTime || time == bestTime && delta < bestDelta) {
                best = at;
                bestTime = time;
                bestDelta = delta;
            }
        }
        return best < 0 ? half(entries, s.capacity()) : best;
    }

    private static double timeToFill(int room, int inserts) {
        return inserts == 0 ? Double.MAX_VALUE : (double) room / inserts;
    }

    /**
     * Whether an insert appends to a run this policy keeps nearly full: such a page splits once
     * it holds more than {@link Split#runFill} of its room, before it overflows.
     */
    public boolean fillsRun(Split s) {
        return this != HALF && s.rightmostLeaf() && s.atPageEnd() || keepsRun(s);
    }

    /**
     * Whether this policy splits {@code s} as a run: {@link #PREFIX} whenever the insert continues
     * one; {@link #RATE} only when most of the page's recent inserts went into that run — several
     * prefixes growing side by side in one page (an index on (customer, order)) make short runs
     * each, which a split after the new entry would leave in pages of their own, mostly empty.
     */
    private boolean keepsRun(Split s) {
        if (this == PREFIX) {
            return continuesARun(s);
        }
        return this == RATE && continuesARun(s) && mostInsertsInTheRun(s);
    }

    private static boolean mostInsertsInTheRun(Split s) {
        int[] inserts = s.insertsAfter();
        int total = inserts == null ? 0 : Arrays.stream(inserts).sum();
        if (total < RATE_EVIDENCE) {
            return true; // too few seen to tell: the run it looks like
        }
        int inRun = 0;
        for (int i = Math.max(0, s.newSlot() - total); i <= s.newSlot(); i++) {
            inRun += inserts[i];
        }
        return inRun * 4 >= total * 3;
    }

    private static int runCapacity(Split s) {
        return (int) (s.capacity() * s.runFill());
    }

    static boolean continuesARun(Split s) {
        boolean properPrefix = s.sharedColumns() > 0 && s.sharedColumns() < s.keyColumns();
        return s.newSlot() > 0 && properPrefix && s.afterLastInsert();
    }

    /** The split that leaves the two halves' bytes closest, each within capacity. */
    private static int half(int[] entries, int capacity) {
        int total = bytes(entries, 0, entries.length);
        int best = -1;
        long bestDelta = Long.MAX_VALUE;
        int left = 0;
        for (int at = 1; at < entries.length; at++) {
            left += entries[at - 1];
            int right = total - left;
            long delta = Math.abs((long) left - right);
            if (left <= capacity && right <= capacity && delta < bestDelta) {
                best = at;
                bestDelta = delta;
            }
        }
        if (best < 0) {
            throw new IllegalArgumentException("entries of " + total + " bytes cannot be split into two pages of "
                    + capacity);
        }
        return best;
    }

    private static int bytes(int[] entries, int from, int to) {
        int sum = 0;
        for (int i = from; i < to; i++) {
            sum += entries[i];
        }
        return sum;
    }
}
