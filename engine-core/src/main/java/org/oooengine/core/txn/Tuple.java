package org.oooengine.core.txn;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A shared tuple: its timestamp word and its current value (null while the key has no row). The
 * value is only replaced while the word is locked, so a reader that sees the same unlocked word
 * before and after reading the value has a consistent copy.
 */
final class Tuple {
    final AtomicLong word;
    private volatile byte[] value;

    Tuple(long word, byte[] value) {
        this.word = new AtomicLong(word);
        this.value = value;
    }

    /** A placeholder for a key without a row: version 0, so an insert changes what a reader saw. */
    static Tuple absent() {
        return new Tuple(TimestampWord.of(0, 0), null);
    }

    byte[] value() {
        return value;
    }

    /**
     * Installs a committed value and releases the lock the caller holds: the value is published
     * before the new word, so whoever sees the word sees the value.
     */
    void install(byte[] newValue, long commitTs) {
        value = newValue;
        word.set(TimestampWord.of(commitTs, commitTs));
    }

    /** As {@link #install}, but the tuple stays locked: the writer releases it after its group flush. */
    void installLocked(byte[] newValue, long commitTs) {
        value = newValue;
        word.set(TimestampWord.lock(TimestampWord.of(commitTs, commitTs)));
    }

    /** Sets the value while no transaction runs (loading, recovery). */
    void reset(byte[] newValue) {
        value = newValue;
        word.set(TimestampWord.of(0, 0));
    }

    void unlock() {
        word.set(TimestampWord.unlock(word.get()));
    }
}
