package org.oooengine.core.txn;

import java.util.Arrays;

/** An encoded primary key (see {@code KeyCodec}): equality and order of its unsigned bytes. */
public record Key(byte[] bytes) implements Comparable<Key> {
    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && Arrays.equals(bytes, k.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public int compareTo(Key o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
        return Arrays.toString(bytes);
    }
}
