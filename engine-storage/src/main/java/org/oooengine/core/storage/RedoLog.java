package org.oooengine.core.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.types.Bytes;

/**
 * Makes a flush of a tree's changed pages atomic: the page images go to a log beside the tree
 * file ({@code <tree>.redo}) and are synced with a commit record after them before any of them is
 * written in place; once the tree file is synced the log is emptied. A crash before the commit
 * record is synced leaves the tree as it was (the log's partial batch is dropped on open); a crash
 * after it — in the middle of writing the pages in place, a page torn — is repaired on open by
 * writing the logged images again. Records are {@link ChecksummedRecords}: {@code length (int) |
 * CRC32C (int) | pageNo (long) | page}; the commit record has page number -1 and the batch's page
 * count for a page.
 */
final class RedoLog implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RedoLog.class);
    private static final int RECORD_HEADER = ChecksummedRecords.OVERHEAD;
    private static final long COMMIT = -1;

    private final Path path;
    private final FileChannel channel;

    private RedoLog(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    static Path pathOf(Path tree) {
        return tree.resolveSibling(tree.getFileName() + ".redo");
    }

    /**
     * Opens the log of {@code tree} (writing {@code treeFile}), first replaying a committed batch a
     * crash left in it: the tree's meta page may be among the pages it repairs, so the page size
     * comes from the log's records.
     */
    static RedoLog open(Path tree, FileChannel treeFile) {
        Path path = pathOf(tree);
        try {
            FileChannel ch = Directories.openPrivate(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            RedoLog log = new RedoLog(path, ch);
            List<long[]> offsets = log.committedBatch();
            if (!offsets.isEmpty()) {
                int pageSize = (int) offsets.get(0)[2];
                for (long[] page : offsets) {
                    byte[] image = new byte[pageSize];
                    log.readAt(image, page[1]);
                    writeAt(treeFile, image, page[0] * pageSize);
                }
                treeFile.force(false);
            }
            log.clear();
            return log;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the redo log " + path, e);
        }
    }

    /** Logs a batch of sealed page images (at least one) and syncs it: from here on the batch survives a crash. */
    void commit(List<Long> pageNos, List<byte[]> images) {
        try {
            long pos = channel.size();
            for (int i = 0; i < pageNos.size(); i++) {
                pos += writeRecord(pos, pageNos.get(i), images.get(i));
            }
            byte[] count = new byte[images.get(0).length];
            Bytes.putLong(count, 0, pageNos.size());
            writeRecord(pos, COMMIT, count);
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the redo log " + path, e);
        }
    }

    /** Empties the log once the tree file holds (and has synced) what it logged. */
    void clear() {
        try {
            channel.truncate(0);
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty the redo log " + path, e);
        }
    }

    private long writeRecord(long pos, long pageNo, byte[] image) throws IOException {
        byte[] record = ChecksummedRecords.frame(pageNo, image);
        writeAt(channel, record, pos);
        return record.length;
    }

    /**
     * The pages of the log's committed batch, each as {page number, offset of its image, page
     * size}; empty when there is none (nothing logged, or a batch cut short by a crash before its
     * commit record).
     */
    private List<long[]> committedBatch() throws IOException {
        long size = channel.size();
        List<long[]> pages = new ArrayList<>();
        long pos = 0;
        byte[] header = new byte[RECORD_HEADER];
        int pageSize = -1;
        while (pos + RECORD_HEADER <= size) {
            readAt(header, pos);
            int length = Bytes.getInt(header, 0);
            if (pageSize < 0) {
                pageSize = length - 8;
            }
            if (pageSize < PageFormat.MIN_PAGE_SIZE || pageSize > PageFormat.MAX_PAGE_SIZE
                    || length != 8 + pageSize || pos + 8 + length > size) {
                return dropped(pos, "a record of " + length + " bytes where " + (size - pos) + " remain");
            }
            byte[] record = new byte[length];
            readAt(record, pos + 8);
            CRC32C crc = new CRC32C();
            crc.update(record, 0, length);
            if ((int) crc.getValue() != Bytes.getInt(header, 4)) {
                return dropped(pos, String.format("checksum mismatch: expected 0x%08x (stored), actual 0x%08x",
                        Bytes.getInt(header, 4), (int) crc.getValue()));
            }
            long pageNo = Bytes.getLong(record, 0);
            if (pageNo == COMMIT) {
                return Bytes.getLong(record, 8) == pages.size() ? pages
                        : dropped(pos, "a commit record of " + Bytes.getLong(record, 8) + " pages after " + pages.size());
            }
            pages.add(new long[] {pageNo, pos + RECORD_HEADER, pageSize});
            pos += 8 + length;
        }
        return pos == 0 ? List.of() : dropped(pos, "no commit record");
    }

    /**
     * A batch a crash cut short before its commit record was synced: the tree was not written
     * from it, so it is dropped; said, naming where, in case it is damage rather than a crash.
     */
    private List<long[]> dropped(long offset, String what) {
        LOG.warn("redo log {}: dropped a batch that was never committed, at offset {}: {}; the tree is as of its last "
                + "complete flush", path, offset, what);
        return List.of();
    }

    private void readAt(byte[] into, long position) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(into);
        long pos = position;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, pos);
            if (n < 0) {
                throw new IOException("the redo log " + path + " ends at " + pos);
            }
            pos += n;
        }
    }

    static void writeAt(FileChannel ch, byte[] bytes, long position) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        long pos = position;
        while (buf.hasRemaining()) {
            pos += ch.write(buf, pos);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
            if (Files.exists(path) && Files.size(path) == 0) { // (a replaced store's directory may be gone)
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the redo log " + path, e);
        }
    }
}
