package org.oooengine.core.txn;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The fixed header of a WAL file: magic, format version, the checkpoint epoch the file follows,
 * and how its records are ordered at recovery (commit timestamp or LSN).
 *
 * <p>Records follow the header, each framed as {@code length (int) | CRC32C of payload (int) |
 * payload}; the payload is {@code kind (byte, a WalRecord.Kind) | order (long) | [all kinds but
 * COMMIT: transaction id (two longs) | nodes (short count, each a short length + UTF-8)] | writes
 * (int) | per write: table name (short length + UTF-8), key (int length + bytes), value (int
 * length, -1 for a delete, + bytes)}. Format version 1 had commits only and no kind byte; it is
 * still read. All numbers are big-endian.
 */
record WalHeader(int version, long epoch, Ordering ordering) {
    static final int MAGIC = 0x4F4F5457; // "OOTW"
    static final int CURRENT_VERSION = 2;
    static final int SIZE = 20;

    /** NLR records carry commit timestamps; ELR records carry LSNs. */
    enum Ordering { COMMIT_TIMESTAMP, LSN }

    static WalHeader current(long epoch, Ordering ordering) {
        return new WalHeader(CURRENT_VERSION, epoch, ordering);
    }

    byte[] encode() {
        return ByteBuffer.allocate(SIZE).putInt(MAGIC).putInt(version).putLong(epoch).putInt(ordering.ordinal()).array();
    }

    /** Reads and checks a header; refuses files that are not WALs or come from a newer format. */
    static WalHeader decode(Path file, ByteBuffer b) {
        if (b.remaining() < SIZE) {
            throw new WalFormatException("WAL file " + file + " is shorter than its header (" + b.remaining() + " bytes)");
        }
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new WalFormatException(String.format("%s is not a WAL file (magic %08x, expected %08x)", file, magic, MAGIC));
        }
        int version = b.getInt();
        if (version > CURRENT_VERSION) {
            throw new WalFormatException("WAL file " + file + " has format version " + version
                    + "; this build reads versions up to " + CURRENT_VERSION + ": open it with a newer build");
        }
        long epoch = b.getLong();
        int ordering = b.getInt();
        if (ordering < 0 || ordering >= Ordering.values().length) {
            throw new WalFormatException("WAL file " + file + " names an unknown record ordering " + ordering);
        }
        return new WalHeader(version, epoch, Ordering.values()[ordering]);
    }
}
