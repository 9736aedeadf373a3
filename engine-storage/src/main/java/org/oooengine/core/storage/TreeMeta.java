package org.oooengine.core.storage;

import java.nio.file.Path;
import org.oooengine.core.types.Bytes;

/**
 * What page 0 of a B+tree file records about the tree. {@code leavesContiguous}: the leaves lie in
 * key order from {@code firstLeaf} to {@code lastLeaf} one after the other, as a bulk load writes
 * them (a scan may read them in large sequential requests); false once a write split a leaf into a
 * page elsewhere.
 */
public record TreeMeta(long root, int height, long firstLeaf, long lastLeaf, long leafCount, long entryCount,
                       int pageSize, double fillFactor, boolean leavesContiguous) {
    static final int OFF = PageFormat.HEADER_SIZE;
    /** A flag bit: the leaves are not contiguous (0 in trees written before the flag existed, which are). */
    private static final int LEAVES_SCATTERED = 1;

    /** A freshly bulk-loaded tree's. */
    public TreeMeta(long root, int height, long firstLeaf, long lastLeaf, long leafCount, long entryCount, int pageSize,
                    double fillFactor) {
        this(root, height, firstLeaf, lastLeaf, leafCount, entryCount, pageSize, fillFactor, true);
    }

    void writeTo(byte[] page) {
        PageFormat.writeHeader(page, PageFormat.TYPE_META, 0, 0, -1, 0);
        Bytes.putLong(page, OFF, root);
        Bytes.putInt(page, OFF + 8, height);
        Bytes.putLong(page, OFF + 12, firstLeaf);
        Bytes.putLong(page, OFF + 20, lastLeaf);
        Bytes.putLong(page, OFF + 28, leafCount);
        Bytes.putLong(page, OFF + 36, entryCount);
        Bytes.putInt(page, OFF + 44, pageSize);
        Bytes.putInt(page, OFF + 48, (int) Math.round(fillFactor * 1000));
        Bytes.putInt(page, OFF + 52, leavesContiguous ? 0 : LEAVES_SCATTERED);
    }

    static TreeMeta readFrom(byte[] page, Path file) {
        if (page[PageFormat.OFF_TYPE] != PageFormat.TYPE_META) {
            throw new PageCorruptedException(file, 0, "expected a meta page, found page type " + page[PageFormat.OFF_TYPE]);
        }
        return new TreeMeta(Bytes.getLong(page, OFF), Bytes.getInt(page, OFF + 8), Bytes.getLong(page, OFF + 12),
                Bytes.getLong(page, OFF + 20), Bytes.getLong(page, OFF + 28), Bytes.getLong(page, OFF + 36),
                Bytes.getInt(page, OFF + 44), Bytes.getInt(page, OFF + 48) / 1000.0,
                (Bytes.getInt(page, OFF + 52) & LEAVES_SCATTERED) == 0);
    }
}
