package org.oooengine.core.txn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A shared tuple: its timestamp word and its current value (null while the key has no row). The
 * value is only replaced while the word is locked, so a reader that sees the same unlocked word
 * before and after reading the value has a consistent copy.
 */
final class Tuple {
    /** The word is a field, not an AtomicLong: one object, one cache miss less per tuple visited. */
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(Tuple.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long word;
    private volatile byte[] value;
    /** Out of its table's key order (a deleted row); set only by the holder of its lock. */
    private volatile boolean unordered;

    Tuple(long word, byte[] value) {
        this.word = word;
        this.value = value;
    }

    long word() {
        return word;
    }

    boolean casWord(long expected, long next) {
        return WORD.compareAndSet(this, expected, next);
    }

    /** A placeholder for a key without a row: version 0, so an insert changes what a reader saw. */
    static Tuple absent() {
        return new Tuple(TimestampWord.of(0, 0), null);
    }

    byte[] value() {
        return value;
    }

    /**
     * Installs a committed value, the tuple staying locked until the writer releases it (at once,
     * or after its group flush): the value is published before the new word, so whoever sees the
     * unlocked word sees the value.
     */
    void installLocked(byte[] newValue, long commitTs) {
        value = newValue;
        word = TimestampWord.lock(TimestampWord.of(commitTs, commitTs));
    }

    /** Sets the value while no transaction runs (loading, recovery). */
    void reset(byte[] newValue) {
        value = newValue;
        word = TimestampWord.of(0, 0);
    }

    boolean unordered() {
        return unordered;
    }

    void unordered(boolean out) {
        unordered = out;
    }

    void unlock() {
        word = TimestampWord.unlock(word);
    }
}
