package org.oooengine.core.storage;

import java.util.Arrays;
import org.oooengine.core.types.Bytes;
import org.oooengine.core.types.RowCodec;

/**
 * A verified, immutable page held in memory (B+tree leaf, internal node or meta page). Entries are
 * read in place; keys compare as unsigned bytes (see {@code KeyCodec}).
 */
public final class Page {
    private final byte[] data;
    private final long pageNo;

    Page(byte[] data, long pageNo) {
        this.data = data;
        this.pageNo = pageNo;
    }

    public long pageNo() {
        return pageNo;
    }

    public byte type() {
        return data[PageFormat.OFF_TYPE];
    }

    public boolean isLeaf() {
        return type() == PageFormat.TYPE_LEAF;
    }

    public int level() {
        return data[PageFormat.OFF_LEVEL];
    }

    /** Right sibling (leaves) or -1. */
    public long next() {
        return Bytes.getLong(data, PageFormat.OFF_NEXT);
    }

    public int count() {
        return ((data[PageFormat.OFF_COUNT] & 0xFF) << 8) | (data[PageFormat.OFF_COUNT + 1] & 0xFF);
    }

    byte[] data() {
        return data;
    }

    private int entryOffset(int i) {
        int o = PageFormat.HEADER_SIZE + 2 * i;
        return ((data[o] & 0xFF) << 8) | (data[o + 1] & 0xFF);
    }

    /** Compares entry {@code i}'s key with {@code key}: negative, zero or positive. */
    public int compareKey(int i, byte[] key) {
        int[] pos = {entryOffset(i)};
        int len = Bytes.getVarInt(data, pos);
        return Arrays.compareUnsigned(data, pos[0], pos[0] + len, key, 0, key.length);
    }

    /** True when entry {@code i}'s key starts with {@code prefix}. */
    public boolean keyStartsWith(int i, byte[] prefix) {
        int[] pos = {entryOffset(i)};
        int len = Bytes.getVarInt(data, pos);
        return len >= prefix.length
                && Arrays.equals(data, pos[0], pos[0] + prefix.length, prefix, 0, prefix.length);
    }

    public byte[] key(int i) {
        int[] pos = {entryOffset(i)};
        int len = Bytes.getVarInt(data, pos);
        return Arrays.copyOfRange(data, pos[0], pos[0] + len);
    }

    /** Entry {@code i}'s value decoded in place as a row of {@code codec}'s schema, only the {@code wanted} columns. */
    public Object[] decodeValue(int i, RowCodec codec, boolean[] wanted) {
        int[] pos = {entryOffset(i)};
        int klen = Bytes.getVarInt(data, pos);
        pos[0] += klen;
        Bytes.getVarInt(data, pos);
        return codec.decode(data, pos[0], wanted);
    }

    /** As {@link #decodeValue}, the values put into {@code into} as its row {@code row}. */
    public void decodeValueInto(int i, RowCodec codec, boolean[] wanted, RowCodec.ValueSink into, int row) {
        int[] pos = {entryOffset(i)};
        int klen = Bytes.getVarInt(data, pos);
        pos[0] += klen;
        Bytes.getVarInt(data, pos);
        codec.decodeInto(data, pos[0], wanted, into, row);
    }

    public byte[] value(int i) {
        int[] pos = {entryOffset(i)};
        int klen = Bytes.getVarInt(data, pos);
        pos[0] += klen;
        int vlen = Bytes.getVarInt(data, pos);
        return Arrays.copyOfRange(data, pos[0], pos[0] + vlen);
    }

    /** Child page number of internal entry {@code i}. */
    public long child(int i) {
        int[] pos = {entryOffset(i)};
        int klen = Bytes.getVarInt(data, pos);
        pos[0] += klen;
        Bytes.getVarInt(data, pos);
        return Bytes.getLong(data, pos[0]);
    }

    /**
     * This leaf without the entries whose keys are at or below {@code key} (a scan saw them already
     * on the leaf before, when a reorganization moved them right while it ran); this page itself
     * when it has none.
     */
    Page after(byte[] key) {
        int from = upperBound(key);
        if (from == 0) {
            return this;
        }
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        java.util.List<byte[]> values = new java.util.ArrayList<>();
        for (int i = from; i < count(); i++) {
            keys.add(key(i));
            values.add(value(i));
        }
        byte[] page = BTreeBuilder.NodeBuilder.encode(data.length, type(), level(), pageNo, next(), keys, values);
        PageFormat.seal(page, 0, page.length);
        return new Page(page, pageNo);
    }

    /**
     * Where a scan that went on to this leaf resumes: the first slot at or above {@code from} and
     * past {@code seen}, the last key it visited (each null: no bound). A leaf read after a
     * publication may hold keys the scan is not after yet (a split or a compaction put them right of
     * a leaf it reached through an older parent) or repeat some of the leaf before it, as read.
     */
    public int resumeSlot(byte[] from, byte[] seen) {
        int i = seen == null ? 0 : upperBound(seen);
        return from == null ? i : Math.max(i, lowerBound(from));
    }

    /**
     * The last key a scan has passed once it is done with this leaf: the leaf's last key, or
     * {@code seen} when that is greater (a leaf read in an older version may hold only keys the
     * scan passed already).
     */
    public byte[] lastKeyPast(byte[] seen) {
        if (count() == 0 || seen != null && compareKey(count() - 1, seen) <= 0) {
            return seen;
        }
        return key(count() - 1);
    }

    /** First slot whose key is > {@code key}; {@link #count()} when none is. */
    public int upperBound(byte[] key) {
        if (count() == 0 || compareKey(0, key) > 0) {
            return 0;
        }
        return KeySearch.lowerBound(count(), i -> compareKey(i, key) <= 0 ? -1 : 1);
    }

    /** First slot whose key is >= {@code key}; {@link #count()} when every key is smaller. */
    public int lowerBound(byte[] key) {
        return KeySearch.lowerBound(count(), i -> compareKey(i, key));
    }

    /**
     * The child of an internal page whose subtree may hold the first key >= {@code key}: the last
     * separator <= key (separators are their subtree's first key), or the first child.
     */
    public int childFor(byte[] key) {
        return KeySearch.childFor(count(), i -> compareKey(i, key));
    }
}
