package org.oooengine.core.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.oooengine.core.types.Bytes;

/**
 * The record format of the engine's logs ({@link RedoLog}, a statement's journal): {@code length
 * (int) | CRC32C (int) | tag (long) | payload}, where the length counts the tag and the payload and
 * the checksum covers both. A redo log's tag is the page number of the image that follows; other
 * logs give their own meaning to negative tags.
 */
public final class ChecksummedRecords {
    /** Bytes before a record's tag: its length and checksum. */
    public static final int HEADER_BYTES = 8;
    /** Bytes a record takes besides its payload. */
    public static final int OVERHEAD = HEADER_BYTES + 8;

    private ChecksummedRecords() {
    }

    /** The record of {@code payload} under {@code tag}, checksummed. */
    public static byte[] frame(long tag, byte[] payload) {
        byte[] record = new byte[OVERHEAD + payload.length];
        Bytes.putInt(record, 0, 8 + payload.length);
        Bytes.putLong(record, HEADER_BYTES, tag);
        System.arraycopy(payload, 0, record, OVERHEAD, payload.length);
        Bytes.putInt(record, 4, checksum(record, HEADER_BYTES, record.length - HEADER_BYTES));
        return record;
    }

    /** CRC32C of {@code length} bytes of {@code b} from {@code offset}. */
    public static int checksum(byte[] b, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, offset, length);
        return (int) crc.getValue();
    }

    /** One record read back: where it starts in its file, its tag and payload. */
    public record Record(long offset, long tag, byte[] payload) {
    }

    /**
     * Reads the records of a file in order, each checked: a length that does not fit, a file that
     * ends inside a record, or a checksum that does not match is a {@link DataCorruptedException}
     * naming the file, the record's offset and, for a checksum, the stored and the actual one.
     */
    public static final class Reader {
        private final FileChannel channel;
        private final Path file;
        private final int maxPayload;
        private final long size;
        private long pos;

        /** Reads {@code channel} (the file {@code file}) from its start; no payload is longer than {@code maxPayload}. */
        public Reader(FileChannel channel, Path file, int maxPayload) {
            this.channel = channel;
            this.file = file;
            this.maxPayload = maxPayload;
            try {
                this.size = channel.size();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }

        /** The next record, or null at the end of the file. */
        public Record next() {
            if (pos == size) {
                return null;
            }
            long at = pos;
            if (size - at < OVERHEAD) {
                throw corrupt(at, "the file ends inside a record's header (" + (size - at) + " bytes left)");
            }
            byte[] header = new byte[HEADER_BYTES];
            readAt(header, at);
            int length = Bytes.getInt(header, 0);
            if (length < 8 || length - 8 > maxPayload) {
                throw corrupt(at, "a record of " + length + " bytes (at most " + (maxPayload + 8) + " expected)");
            }
            if (at + HEADER_BYTES + length > size) {
                throw corrupt(at, "the file ends inside a record of " + length + " bytes (" + (size - at - HEADER_BYTES)
                        + " left)");
            }
            byte[] body = new byte[length];
            readAt(body, at + HEADER_BYTES);
            int stored = Bytes.getInt(header, 4);
            int actual = checksum(body, 0, length);
            if (stored != actual) {
                throw corrupt(at, String.format("checksum mismatch: expected 0x%08x (stored), actual 0x%08x", stored,
                        actual));
            }
            pos = at + HEADER_BYTES + length;
            byte[] payload = new byte[length - 8];
            System.arraycopy(body, 8, payload, 0, payload.length);
            return new Record(at, Bytes.getLong(body, 0), payload);
        }

        private DataCorruptedException corrupt(long offset, String what) {
            return new DataCorruptedException(file, "corrupt record at offset " + offset + " of " + file + ": " + what);
        }

        private void readAt(byte[] into, long position) {
            ByteBuffer buf = ByteBuffer.wrap(into);
            long p = position;
            try {
                while (buf.hasRemaining()) {
                    int n = channel.read(buf, p);
                    if (n < 0) {
                        throw corrupt(position, "the file ends at " + p);
                    }
                    p += n;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }
}
