package org.oooengine.core.txn;

/**
 * TicToc's per-tuple timestamp word, one 64-bit value so it can be read and swapped atomically:
 * {@code lock (1 bit) | delta = rts - wts (15 bits) | wts (48 bits)}. A tuple version is valid
 * from its write timestamp {@code wts} through its read timestamp {@code rts}.
 */
public final class TimestampWord {
    public static final long LOCK_BIT = 1L << 63;
    public static final int DELTA_BITS = 15;
    public static final long MAX_DELTA = (1L << DELTA_BITS) - 1;
    public static final long MAX_WTS = (1L << 48) - 1;

    private TimestampWord() {
    }

    public static long of(long wts, long rts) {
        if (wts < 0 || wts > MAX_WTS || rts < wts || rts - wts > MAX_DELTA) {
            throw new IllegalArgumentException("no timestamp word for wts " + wts + ", rts " + rts);
        }
        return ((rts - wts) << 48) | wts;
    }

    public static long wts(long word) {
        return word & MAX_WTS;
    }

    public static long rts(long word) {
        return wts(word) + ((word >>> 48) & MAX_DELTA);
    }

    public static boolean locked(long word) {
        return (word & LOCK_BIT) != 0;
    }

    public static long lock(long word) {
        return word | LOCK_BIT;
    }

    public static long unlock(long word) {
        return word & ~LOCK_BIT;
    }

    /**
     * The word with its read timestamp extended to {@code rts}, keeping the lock bit. When the
     * distance to wts no longer fits in 15 bits, wts is raised so that it does: the version's
     * validity then starts later, which only makes readers of the old wts abort — never accept a
     * wrong read.
     */
    public static long extend(long word, long rts) {
        long wts = wts(word);
        if (rts <= rts(word)) {
            return word;
        }
        if (rts - wts > MAX_DELTA) {
            wts = rts - MAX_DELTA;
        }
        return of(wts, rts) | (word & LOCK_BIT);
    }
}
