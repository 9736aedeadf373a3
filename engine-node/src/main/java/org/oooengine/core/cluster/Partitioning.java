package org.oooengine.core.cluster;

/**
 * Hash partitioning of encoded key values. The hash is over the encoded bytes, so equal values of
 * one type land in one partition whichever table or index they come from.
 */
public final class Partitioning {
    private Partitioning() {
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
