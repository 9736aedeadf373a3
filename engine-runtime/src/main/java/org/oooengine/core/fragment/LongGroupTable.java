package org.oooengine.core.fragment;

/**
 * Groups numbered by one integer key (a customer key, an item key): an open-addressing table whose
 * slots hold the key and its group side by side, so a lookup reads one slot's line of memory
 * rather than a slot, then the group's hash and its key in arrays by group. NULL's group is held
 * apart. At most half the slots are used.
 */
final class LongGroupTable {
    private static final int INITIAL_SLOTS = 128;
    /** Per slot two longs: the key, then its group (-1: empty). */
    private long[] slots;
    private int shift;
    private int used;
    private int nullGroup = -1;

    LongGroupTable() {
        this(INITIAL_SLOTS);
    }

    /** A table of {@code slotCount} slots, a power of two. */
    private LongGroupTable(int slotCount) {
        slots = new long[2 * slotCount];
        for (int s = 1; s < slots.length; s += 2) {
            slots[s] = -1;
        }
        shift = 64 - Integer.numberOfTrailingZeros(slotCount);
    }

    /** A table of at least {@code groups} groups' room, its slots at most half used once they are in. */
    static LongGroupTable forGroups(int groups) {
        int slotCount = INITIAL_SLOTS;
        while (slotCount < 2 * groups) {
            slotCount *= 2;
        }
        return new LongGroupTable(slotCount);
    }

    /** The group of key {@code v}; where it has none, the complement ({@code ~slot}) of the slot to {@link #put} it in. */
    int find(long v) {
        int mask = (slots.length >> 1) - 1;
        int slot = (int) ((v * 0x9E3779B97F4A7C15L) >>> shift); // the product's top bits: Fibonacci hashing
        while (true) {
            long g = slots[2 * slot + 1];
            if (g < 0) {
                return ~slot;
            }
            if (slots[2 * slot] == v) {
                return (int) g;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Puts key {@code v}'s group {@code g} in the empty {@code slot} {@link #find} gave. */
    void put(int slot, long v, int g) {
        slots[2 * slot] = v;
        slots[2 * slot + 1] = g;
        if (++used > slots.length >> 2) {
            grow();
        }
    }

    /** NULL's group, or -1 where it has none. */
    int nullGroup() {
        return nullGroup;
    }

    void setNullGroup(int g) {
        nullGroup = g;
    }

    private void grow() {
        LongGroupTable bigger = new LongGroupTable(slots.length); // twice the slots
        for (int s = 1; s < slots.length; s += 2) {
            if (slots[s] >= 0) {
                int slot = ~bigger.find(slots[s - 1]);
                bigger.slots[2 * slot] = slots[s - 1];
                bigger.slots[2 * slot + 1] = slots[s];
            }
        }
        slots = bigger.slots;
        shift = bigger.shift;
    }
}
