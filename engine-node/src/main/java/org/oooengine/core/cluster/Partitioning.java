package org.oooengine.core.cluster;

import java.util.function.ToIntFunction;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/**
 * Hash partitioning of encoded key values. The hash is over the encoded bytes, so equal values of
 * one type land in one partition whichever table or index they come from.
 */
public final class Partitioning {
    private Partitioning() {
    }

    /**
     * Of a table of {@code partitions} partitions hash-partitioned on a column of {@code type}: the
     * partition that holds the rows whose key equals a value; -1 when none does: a null, or a
     * decimal too wide for the column's type (NULL in Hive), equals no key.
     */
    public static ToIntFunction<Object> partitioner(SqlType type, int partitions) {
        KeyCodec codec = new KeyCodec(new DataType[] {type.storedType()});
        return value -> {
            Object stored = value == null ? null : type.toStored(value);
            return stored == null ? -1 : partition(codec.encode(stored), partitions);
        };
    }

    /**
     * As {@link #partitioner}, for a key vectors hold as a long (an integer, a date's epoch day, a
     * timestamp's microseconds), hashed as its encoding is without making it; null for other types.
     */
    public static java.util.function.LongToIntFunction longPartitioner(SqlType type, int partitions) {
        int bytes = switch (type.storedType().kind()) {
            case INT, DATE -> Integer.BYTES;
            case BIGINT, TIMESTAMP -> Long.BYTES;
            default -> 0;
        };
        if (bytes == 0) {
            return null;
        }
        // the key encoding: the value with its sign bit flipped, most significant byte first
        return bytes == Integer.BYTES
                ? v -> partition(((long) ((int) v ^ Integer.MIN_VALUE)) << 32, Integer.BYTES, partitions)
                : v -> partition(v ^ Long.MIN_VALUE, Long.BYTES, partitions);
    }

    public static int partition(byte[] encodedValue, int partitions) {
        long h = 0xcbf29ce484222325L;
        for (byte b : encodedValue) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return mixed(h, partitions);
    }

    /** {@link #partition} of the {@code bytes} high bytes of {@code bits}, most significant first. */
    private static int partition(long bits, int bytes, int partitions) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < bytes; i++) {
            h ^= (bits >>> (56 - 8 * i)) & 0xFF;
            h *= 0x100000001b3L;
        }
        return mixed(h, partitions);
    }

    private static int mixed(long h, int partitions) {
        // FNV-1a spreads poorly over the low bits of short keys; the finaliser of MurmurHash3 mixes them.
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53e94cdL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) partitions);
    }
}
