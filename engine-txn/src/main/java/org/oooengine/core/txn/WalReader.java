package org.oooengine.core.txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Reads a WAL file back: the header, then records up to the first one that is torn or fails its
 * checksum. Everything from there on is ignored — it was never acknowledged, since a commit is
 * acknowledged only after its record was completely written — and the problem is logged with the
 * file and offset.
 */
final class WalReader {
    private static final Logger LOG = LogManager.getLogger(WalReader.class);

    /** The valid records of one file; {@code problem} says why reading stopped early, or is null. */
    record Contents(Path file, WalHeader header, List<WalRecord> records, long validEnd, String problem) {
    }

    private WalReader() {
    }

    static Contents read(Path file) {
        ByteBuffer b;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (ch.size() > Integer.MAX_VALUE) {
                throw new WalFormatException("WAL file " + file + " is larger than 2 GiB (" + ch.size() + " bytes)");
            }
            b = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read WAL file " + file, e);
        }
        WalHeader header = WalHeader.decode(file, b);
        List<WalRecord> records = new ArrayList<>();
        CRC32C crc = new CRC32C();
        String problem = null;
        long validEnd = b.position();
        while (b.hasRemaining()) {
            int offset = b.position();
            if (b.remaining() < WalFile.FRAME_BYTES) {
                problem = allZero(b) ? null : "torn record header in " + file + " at offset " + offset + ": only "
                        + b.remaining() + " bytes left";
                break;
            }
            int length = b.getInt();
            int expected = b.getInt();
            if (length == 0 && expected == 0) {
                // The zero-filled rest of a mapped log: no record was ever written here.
                b.position(offset);
                problem = allZero(b) ? null : "corrupt record in " + file + " at offset " + offset + ": empty frame";
                break;
            }
            if (length < 12 || length > b.remaining()) {
                problem = "torn record in " + file + " at offset " + offset + ": length " + length + " but "
                        + b.remaining() + " bytes left";
                break;
            }
            crc.reset();
            ByteBuffer payload = b.slice(b.position(), length);
            crc.update(payload.duplicate());
            int actual = (int) crc.getValue();
            if (actual != expected) {
                problem = String.format("corrupt record in %s at offset %d: expected checksum %08x, actual %08x",
                        file, offset, expected, actual);
                break;
            }
            try {
                records.add(decode(payload, header.version()));
            } catch (BufferUnderflowException | IllegalArgumentException e) {
                problem = "corrupt record in " + file + " at offset " + offset + ": checksum matches but the payload"
                        + " does not decode (" + e + ")";
                break;
            }
            b.position(b.position() + length);
            validEnd = b.position();
        }
        if (problem != null) {
            LOG.warn("WAL replay of {} stops at the last valid record: {}", file, problem);
        }
        return new Contents(file, header, records, validEnd, problem);
    }

    private static boolean allZero(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining()) {
            if (d.get() != 0) {
                return false;
            }
        }
        return true;
    }

    /** Decodes one record's payload written in format {@code version} (1: commits only, without a kind). */
    static WalRecord decode(ByteBuffer p, int version) {
        WalRecord.Kind kind = WalRecord.Kind.COMMIT;
        if (version >= 2) {
            int k = p.get();
            if (k < 0 || k >= WalRecord.Kind.values().length) {
                throw new IllegalArgumentException("unknown record kind " + k);
            }
            kind = WalRecord.Kind.values()[k];
        }
        long order = p.getLong();
        TransactionId txn = null;
        List<String> nodes = List.of();
        if (kind != WalRecord.Kind.COMMIT) {
            txn = new TransactionId(p.getLong(), p.getLong());
            int n = p.getShort() & 0xFFFF;
            nodes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                nodes.add(shortString(p));
            }
        }
        int n = p.getInt();
        if (n < 0) {
            throw new IllegalArgumentException("negative write count " + n);
        }
        List<RowChange> changes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String table = shortString(p);
            byte[] key = new byte[p.getInt()];
            p.get(key);
            int vlen = p.getInt();
            byte[] value = null;
            if (vlen >= 0) {
                value = new byte[vlen];
                p.get(value);
            }
            changes.add(new RowChange(table, key, value));
        }
        if (p.hasRemaining()) {
            throw new IllegalArgumentException(p.remaining() + " bytes after the last write");
        }
        return new WalRecord(kind, order, txn, nodes, changes);
    }

    private static String shortString(ByteBuffer p) {
        byte[] b = new byte[p.getShort() & 0xFFFF];
        p.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
