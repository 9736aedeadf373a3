package org.oooengine.core.fragment;

import java.util.Arrays;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * A batch's rows numbered by their keys, where each key column holds few distinct values in the
 * batch (TPC-H Q01's return flag and line status: 3 and 2): a row's group is then found by its
 * number in a small array, not by hashing and comparing its keys (each number finds its group
 * that way once a batch). A string is compared by identity first: a chunk's dictionary gives each
 * value one object; where the vector keeps that dictionary, each entry is placed once and each row
 * by its code.
 */
final class FewKeys {
    /** Slots of a key column's values in a batch: at most as many distinct values, each in its own. */
    static final int SLOTS = 16;
    /** Key columns numbered at most: a group is looked up in (SLOTS + 1)^columns numbers. */
    static final int MAX_COLUMNS = 2;

    private final int[] codes;
    private final int groups;

    private FewKeys(int[] codes, int groups) {
        this.codes = codes;
        this.groups = groups;
    }

    /**
     * The numbers of the {@code n} rows at {@code pos} by their {@code keys} (null columns left
     * out: constant keys), or null where two values of a column take one slot (more than
     * {@link #SLOTS} always do), or a column is not held as integers or objects.
     */
    static FewKeys of(Vector[] keys, int[] pos, int n) {
        int columns = 0;
        for (Vector k : keys) {
            if (k != null) {
                if (!(k instanceof LongVector) && !(k instanceof ObjectVector) || ++columns > MAX_COLUMNS) {
                    return null;
                }
            }
        }
        int[] codes = new int[n];
        int groups = 1;
        for (Vector k : keys) {
            if (k == null) {
                continue;
            }
            int numbered = k instanceof LongVector l ? number(l, pos, n, codes, groups)
                    : number((ObjectVector) k, pos, n, codes, groups);
            if (numbered < 0) {
                return null;
            }
            groups *= SLOTS + 1;
        }
        return new FewKeys(codes, groups);
    }

    /** Row {@code k}'s number, below {@link #groups()}. */
    int of(int k) {
        return codes[k];
    }

    /** How many numbers there may be. */
    int groups() {
        return groups;
    }

    /**
     * Adds each row's number of its value in {@code v} times {@code weight}: the value's slot of
     * {@link #SLOTS} by its hash, NULL's the last; -1 where two values take one slot. A slot by
     * hash, not a search of the values seen, as the search's branches go one way or another at
     * random with the rows.
     */
    private static int number(ObjectVector v, int[] pos, int n, int[] codes, int weight) {
        if (v.dictionary() != null) {
            return numberByCode(v, v.dictionary(), pos, n, codes, weight);
        }
        Object[] seen = new Object[SLOTS];
        Object[] values = v.values;
        for (int k = 0; k < n; k++) {
            Object x = values[pos[k]];
            int c = x == null ? SLOTS : slot(x, seen);
            if (c < 0) {
                return -1;
            }
            codes[k] += c * weight;
        }
        return 0;
    }

    /** As above, for values from a dictionary: each entry met given its slot once, each row's read by its code. */
    private static int numberByCode(ObjectVector v, ObjectVector.Dictionary d, int[] pos, int n, int[] codes, int weight) {
        Object[] seen = new Object[SLOTS];
        int[] slotOfCode = new int[d.entries().length];
        Arrays.fill(slotOfCode, -1);
        byte[] rowCodes = d.codes();
        Object[] values = v.values;
        for (int k = 0; k < n; k++) {
            int p = pos[k];
            int c;
            if (d.nullable() && values[p] == null) {
                c = SLOTS;
            } else {
                int code = rowCodes[p] & 0xFF;
                c = slotOfCode[code];
                if (c < 0 && (c = slotOfCode[code] = slot(d.entries()[code], seen)) < 0) {
                    return -1;
                }
            }
            codes[k] += c * weight;
        }
        return 0;
    }

    /** The slot of {@code x} by its hash, taken for it in {@code seen} if free; -1 where another value holds it. */
    private static int slot(Object x, Object[] seen) {
        int c = x.hashCode() & (SLOTS - 1);
        Object there = seen[c];
        if (there != x) {
            if (there == null) {
                seen[c] = x;
            } else if (!there.equals(x)) {
                return -1;
            }
        }
        return c;
    }

    private static int number(LongVector v, int[] pos, int n, int[] codes, int weight) {
        long[] seen = new long[SLOTS];
        boolean[] taken = new boolean[SLOTS];
        long[] values = v.values;
        for (int k = 0; k < n; k++) {
            int i = pos[k];
            int c = SLOTS;
            if (!v.isNull(i)) {
                long x = values[i];
                c = (int) (x * 0x9E3779B97F4A7C15L >>> 60);
                if (!taken[c] || seen[c] != x) {
                    if (taken[c]) {
                        return -1;
                    }
                    taken[c] = true;
                    seen[c] = x;
                }
            }
            codes[k] += c * weight;
        }
        return 0;
    }
}
