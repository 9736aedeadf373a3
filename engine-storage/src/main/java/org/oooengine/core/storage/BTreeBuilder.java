package org.oooengine.core.storage;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oooengine.core.types.Bytes;

/**
 * Bulk-loads a B+tree from entries in strictly increasing key order. Leaves are written first,
 * contiguously from page 1, each filled to the fill factor; then each internal level bottom-up;
 * the meta page (page 0) last. Contiguous leaves let a full scan read the file sequentially.
 */
public final class BTreeBuilder implements Closeable {
    private final Path path;
    private final int pageSize;
    private final double fillFactor;
    private final FileChannel out;
    private final ByteBuffer writeBuffer = ByteBuffer.allocate(PageFile.SCAN_CHUNK_BYTES);
    private long bufferStartPage = 1;
    private long nextPageNo = 1;

    private final NodeBuilder leaf;
    private byte[] pendingLeaf;
    private long pendingLeafNo = -1;
    private final List<byte[]> levelKeys = new ArrayList<>();
    private final List<Long> levelPages = new ArrayList<>();
    private byte[] lastKey;
    private long entries;
    private boolean finished;

    public BTreeBuilder(Path path, int pageSize, double fillFactor) {
        PageFormat.checkPageSize(pageSize);
        if (!(fillFactor > 0.1 && fillFactor <= 1.0)) {
            throw new IllegalArgumentException("fill factor must be in (0.1, 1.0], got " + fillFactor);
        }
        this.path = path;
        this.pageSize = pageSize;
        this.fillFactor = fillFactor;
        this.leaf = new NodeBuilder(pageSize, fillFactor);
        try {
            this.out = Directories.openPrivate(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + path, e);
        }
    }

    /** Adds the next entry; keys must be strictly increasing (unique). */
    public void add(byte[] key, byte[] value) {
        if (lastKey != null && Arrays.compareUnsigned(lastKey, key) >= 0) {
            throw new IllegalArgumentException("bulk load input for " + path + " is not in strictly increasing key order at entry "
                    + entries + (Arrays.equals(lastKey, key) ? " (duplicate key)" : ""));
        }
        if (!leaf.fits(key, value)) {
            flushLeaf();
        }
        if (leaf.count() == 0) {
            levelKeys.add(key);
        }
        leaf.add(key, value);
        lastKey = key;
        entries++;
    }

    private void flushLeaf() {
        long no = nextPageNo++;
        byte[] page = leaf.build(PageFormat.TYPE_LEAF, 0, no);
        leaf.reset();
        if (pendingLeaf != null) {
            Bytes.putLong(pendingLeaf, PageFormat.OFF_NEXT, no);
            writeSealed(pendingLeaf, pendingLeafNo);
        }
        pendingLeaf = page;
        pendingLeafNo = no;
        levelPages.add(no);
    }

    /** Writes the internal levels and the meta page, syncs, and returns the tree's description. */
    public TreeMeta finish() {
        if (finished) {
            throw new IllegalStateException("already finished");
        }
        finished = true;
        if (leaf.count() > 0 || entries == 0) {
            if (entries == 0) {
                levelKeys.add(new byte[0]);
            }
            flushLeaf();
        }
        writeSealed(pendingLeaf, pendingLeafNo);
        long firstLeaf = 1;
        long lastLeaf = pendingLeafNo;
        long leafCount = levelPages.size();

        List<byte[]> keys = new ArrayList<>(levelKeys);
        List<Long> pages = new ArrayList<>(levelPages);
        int level = 0;
        while (pages.size() > 1) {
            level++;
            List<byte[]> upKeys = new ArrayList<>();
            List<Long> upPages = new ArrayList<>();
            NodeBuilder node = new NodeBuilder(pageSize, fillFactor);
            for (int i = 0; i < pages.size(); i++) {
                byte[] child = new byte[8];
                Bytes.putLong(child, 0, pages.get(i));
                if (!node.fits(keys.get(i), child)) {
                    long no = nextPageNo++;
                    writeSealed(node.build(PageFormat.TYPE_INTERNAL, level, no), no);
                    node.reset();
                    upPages.add(no);
                }
                if (node.count() == 0) {
                    upKeys.add(keys.get(i));
                }
                node.add(keys.get(i), child);
            }
            long no = nextPageNo++;
            writeSealed(node.build(PageFormat.TYPE_INTERNAL, level, no), no);
            upPages.add(no);
            keys = upKeys;
            pages = upPages;
        }
        TreeMeta meta = new TreeMeta(pages.get(0), level + 1, firstLeaf, lastLeaf, leafCount, entries, pageSize, fillFactor);
        flushWrites();
        byte[] metaPage = new byte[pageSize];
        meta.writeTo(metaPage);
        PageFormat.seal(metaPage, 0, pageSize);
        try {
            out.write(ByteBuffer.wrap(metaPage), 0);
            out.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
        return meta;
    }

    private void writeSealed(byte[] page, long pageNo) {
        PageFormat.seal(page, 0, pageSize);
        if (pageNo != bufferStartPage + writeBuffer.position() / pageSize || writeBuffer.remaining() < pageSize) {
            flushWrites();
            bufferStartPage = pageNo;
        }
        writeBuffer.put(page);
    }

    private void flushWrites() {
        writeBuffer.flip();
        try {
            long pos = bufferStartPage * pageSize;
            while (writeBuffer.hasRemaining()) {
                pos += out.write(writeBuffer, pos);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
        bufferStartPage += writeBuffer.limit() / pageSize;
        writeBuffer.clear();
    }

    public long entries() {
        return entries;
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }

    /** Packs entries into one page up to the fill factor (always at least one entry). */
    static final class NodeBuilder {
        private final int pageSize;
        private final int target;
        private final List<byte[]> keys = new ArrayList<>();
        private final List<byte[]> values = new ArrayList<>();
        private int used = PageFormat.HEADER_SIZE;

        NodeBuilder(int pageSize, double fillFactor) {
            this.pageSize = pageSize;
            this.target = PageFormat.HEADER_SIZE + (int) ((pageSize - PageFormat.HEADER_SIZE) * fillFactor);
        }

        static int entrySize(byte[] k, byte[] v) {
            return PageFormat.entryBytes(k.length, v.length);
        }

        boolean fits(byte[] k, byte[] v) {
            int size = entrySize(k, v);
            if (PageFormat.HEADER_SIZE + size > pageSize) {
                throw new IllegalArgumentException("an entry of " + size + " bytes does not fit a " + pageSize + "-byte page");
            }
            return keys.isEmpty() || used + size <= target;
        }

        void add(byte[] k, byte[] v) {
            keys.add(k);
            values.add(v);
            used += entrySize(k, v);
        }

        int count() {
            return keys.size();
        }

        void reset() {
            keys.clear();
            values.clear();
            used = PageFormat.HEADER_SIZE;
        }

        byte[] build(byte type, int level, long pageNo) {
            return encode(pageSize, type, level, pageNo, -1, keys, values);
        }

        /** A page of these entries, unsealed (its checksum is written last, by {@link PageFormat#seal}). */
        static byte[] encode(int pageSize, byte type, int level, long pageNo, long next, List<byte[]> keys,
                             List<byte[]> values) {
            byte[] page = new byte[pageSize];
            PageFormat.writeHeader(page, type, level, pageNo, next, keys.size());
            int pos = PageFormat.HEADER_SIZE + 2 * keys.size();
            for (int i = 0; i < keys.size(); i++) {
                int slot = PageFormat.HEADER_SIZE + 2 * i;
                page[slot] = (byte) (pos >>> 8);
                page[slot + 1] = (byte) pos;
                pos = putBytes(page, pos, keys.get(i));
                pos = putBytes(page, pos, values.get(i));
            }
            return page;
        }

        private static int putBytes(byte[] page, int pos, byte[] b) {
            int v = b.length;
            while ((v & ~0x7F) != 0) {
                page[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            page[pos++] = (byte) v;
            System.arraycopy(b, 0, page, pos, b.length);
            return pos + b.length;
        }
    }
}
