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

    public static int partition(byte[] encodedValue, int partitions) {
        long h = 0xcbf29ce484222325L;
        for (byte b : encodedValue) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        // FNV-1a spreads poorly over the low bits of short keys; the finaliser of MurmurHash3 mixes them.
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53e94cdL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) partitions);
    }
}
