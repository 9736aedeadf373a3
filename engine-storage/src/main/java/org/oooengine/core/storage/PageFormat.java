package org.oooengine.core.storage;

import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.oooengine.core.types.Bytes;

/**
 * The on-disk page layout, owned in one place. Every page starts with a 32-byte header:
 *
 * <pre>
 *  0 magic     int   'OoOP'
 *  4 version   byte  FORMAT_VERSION
 *  5 type      byte  META | LEAF | INTERNAL
 *  6 level     byte  0 for leaves, height above the leaves for internal pages
 *  7 flags     byte  reserved, 0
 *  8 pageNo    long  the page's own number: catches misdirected reads and writes
 * 16 next      long  right sibling of a leaf, -1 at the end
 * 24 count     u16   number of entries
 * 26 reserved  u16
 * 28 crc32c    int   over the whole page except these four bytes
 * </pre>
 *
 * followed by {@code count} u16 entry offsets and the entries ({@code varint keyLen, key,
 * varint valueLen, value}). The CRC is checked on every read; a mismatch is a
 * {@link PageCorruptedException}, never wrong rows.
 */
public final class PageFormat {
    public static final int MAGIC = 0x4F6F4F50;
    public static final byte FORMAT_VERSION = 1;
    public static final int HEADER_SIZE = 32;

    public static final byte TYPE_META = 1;
    public static final byte TYPE_LEAF = 2;
    public static final byte TYPE_INTERNAL = 3;

    static final int OFF_MAGIC = 0;
    static final int OFF_VERSION = 4;
    static final int OFF_TYPE = 5;
    static final int OFF_LEVEL = 6;
    static final int OFF_PAGE_NO = 8;
    static final int OFF_NEXT = 16;
    static final int OFF_COUNT = 24;
    static final int OFF_CRC = 28;

    public static final int MIN_PAGE_SIZE = 4096;
    public static final int MAX_PAGE_SIZE = 65536;

    private PageFormat() {
    }

    /** Bytes an entry takes in a page: its offset slot, the key and value each behind a varint length. */
    public static int entryBytes(int keyBytes, int valueBytes) {
        return 2 + Bytes.varIntSize(keyBytes) + keyBytes + Bytes.varIntSize(valueBytes) + valueBytes;
    }

    /** Children one internal page holds when full: each an entry of the child's first key and its page number. */
    public static int internalFanout(int pageSize, int keyBytes) {
        return Math.max(2, (pageSize - HEADER_SIZE) / entryBytes(keyBytes, Long.BYTES));
    }

    public static void checkPageSize(int pageSize) {
        if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size must be a power of two from " + MIN_PAGE_SIZE + " to "
                    + MAX_PAGE_SIZE + " bytes, got " + pageSize);
        }
    }

    public static void writeHeader(byte[] page, byte type, int level, long pageNo, long next, int count) {
        Bytes.putInt(page, OFF_MAGIC, MAGIC);
        page[OFF_VERSION] = FORMAT_VERSION;
        page[OFF_TYPE] = type;
        page[OFF_LEVEL] = (byte) level;
        Bytes.putLong(page, OFF_PAGE_NO, pageNo);
        Bytes.putLong(page, OFF_NEXT, next);
        page[OFF_COUNT] = (byte) (count >>> 8);
        page[OFF_COUNT + 1] = (byte) count;
    }

    /** Computes and stores the checksum; call last, after the page content is final. */
    public static void seal(byte[] page, int offset, int pageSize) {
        Bytes.putInt(page, offset + OFF_CRC, checksum(page, offset, pageSize));
    }

    static int checksum(byte[] page, int offset, int pageSize) {
        CRC32C crc = new CRC32C();
        crc.update(page, offset, OFF_CRC);
        crc.update(page, offset + OFF_CRC + 4, pageSize - OFF_CRC - 4);
        return (int) crc.getValue();
    }

    /**
     * Checks checksum, magic, version and page number of the page at {@code offset} in {@code buf}.
     * Throws naming the file, the page and what was wrong.
     */
    public static void verify(byte[] buf, int offset, int pageSize, Path file, long pageNo) {
        int stored = Bytes.getInt(buf, offset + OFF_CRC);
        int actual = checksum(buf, offset, pageSize);
        if (stored != actual) {
            throw new PageCorruptedException(file, pageNo, String.format(
                    "checksum mismatch: expected 0x%08x (stored), actual 0x%08x", stored, actual));
        }
        int magic = Bytes.getInt(buf, offset + OFF_MAGIC);
        if (magic != MAGIC) {
            throw new PageCorruptedException(file, pageNo, String.format("bad magic 0x%08x", magic));
        }
        if (buf[offset + OFF_VERSION] != FORMAT_VERSION) {
            throw new PageCorruptedException(file, pageNo, "unsupported page format version " + buf[offset + OFF_VERSION]
                    + " (this engine reads version " + FORMAT_VERSION + ")");
        }
        long self = Bytes.getLong(buf, offset + OFF_PAGE_NO);
        if (self != pageNo) {
            throw new PageCorruptedException(file, pageNo, "page header says page " + self + " (misdirected write or read)");
        }
    }
}
