package org.oooengine.core.storage;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntBiFunction;
import org.oooengine.core.types.Bytes;

/**
 * Writes into a B+tree file in place: inserts, updates and deletes of single entries. A leaf that
 * overflows splits where its {@link SplitPolicy} says, into a new page at the end of the file
 * linked after it; the separator (the new page's first key) goes to the parent, which splits the
 * same way (in the middle) when full, up to a new root. At a flush, a leaf deletes emptied leaves
 * the tree, and one they left less than half full takes in the whole leaf before it when both
 * fit ({@link #delete}); otherwise leaves stay as written until reorganized ({@link #compact}). The pages it changed are written by
 * {@link #flush}, with the meta page last.
 *
 * <p>One writer per tree. A {@link #flush} is atomic and durable ({@link RedoLog}); what was not
 * flushed is lost in a crash. Readers of the tree through the writer's pool ({@link #reader()})
 * see each flush as it is published ({@link PageFile#publish}): every page whole, in the version of
 * one flush or the next. A reader that read a parent before a flush and its child after it may
 * find its key moved right (a split moves a leaf's upper entries into a new page linked after it;
 * an unlinked leaf keeps its link): {@link BTree} moves right along the leaf links then.
 */
public final class BTreeWriter implements Closeable {
    private final Path path;
    private final int pageSize;
    private final FileChannel channel;
    /** Where pages are read through (bounded, shared with the tree's readers), or null: read from the file directly. */
    private final BufferPool pool;
    private final PageFile file;
    /** Whether {@link #file} is this writer's own (else the readers' it publishes to, which they close). */
    private final boolean ownsFile;
    private final IoStats reads = new IoStats();
    private final RedoLog redo;
    private final SplitPolicy policy;
    /** The share of a page a run fills before it splits ({@link SplitPolicy.Split#runFill}). */
    private final double runFill;
    private final int keyColumns;
    private final ToIntBiFunction<byte[], byte[]> sharedColumns;
    /** The pages changed since the last flush, decoded; other pages are read (through the pool) when needed. */
    private final Map<Long, Node> nodes = new HashMap<>();
    private final Set<Long> dirty = new LinkedHashSet<>();
    /** Leaves deletes thinned since the last flush, each with the key last deleted from it. */
    private final Map<Long, byte[]> thinned = new LinkedHashMap<>();
    /** Per leaf, the slot of the last entry inserted into it (a run of inserts goes on right after it) and the run's length. */
    private final Map<Long, InsertRun> lastInsert = new HashMap<>();

    /** Where the last insert into a leaf went, and how many inserts in a row went each right after the one before. */
    private record InsertRun(int slot, int length) {
    }
    /** Under {@link SplitPolicy#RATE}, the keys last inserted into the leaves last inserted into. */
    private final RecentInserts recentInserts;
    private TreeMeta meta;
    /** The meta page as last flushed: a flush with nothing changed since writes nothing. */
    private TreeMeta flushedMeta;
    private long pageCount;
    private long flushedPageCount;
    private long splits;
    private long unlinked;
    private long merged;
    /** The images {@link #pendingFlush} last computed, until written. */
    private Flush pending;
    /** Set when a committed batch could not be written in place: the writer must be reopened, which redoes it. */
    private RuntimeException failed;
    private long pageAccesses;

    private BTreeWriter(Path path, FileChannel channel, RedoLog redo, TreeMeta meta, long pageCount, SplitPolicy policy,
                        double runFill, int keyColumns, ToIntBiFunction<byte[], byte[]> sharedColumns, BufferPool pool,
                        PageFile readers) {
        this.path = path;
        this.channel = channel;
        this.redo = redo;
        this.pool = pool;
        this.ownsFile = readers == null && pool != null;
        this.file = readers != null ? readers : pool == null ? null : PageFile.open(path, meta.pageSize(), false, reads);
        this.meta = meta;
        this.flushedMeta = meta;
        this.pageSize = meta.pageSize();
        this.pageCount = pageCount;
        this.flushedPageCount = pageCount;
        this.policy = policy;
        this.runFill = runFill;
        this.keyColumns = keyColumns;
        this.sharedColumns = sharedColumns;
        this.recentInserts = policy == SplitPolicy.RATE ? new RecentInserts() : null;
    }

    /**
     * Opens the tree at {@code path} for writing. {@code keyColumns} and {@code sharedColumns}
     * (how many leading key columns two encoded keys share, {@code KeyCodec.sharedColumns}) let the
     * {@link SplitPolicy#PREFIX} policy see runs within key prefixes; a one-column key has none.
     */
    public static BTreeWriter open(Path path, SplitPolicy policy, int keyColumns,
                                   ToIntBiFunction<byte[], byte[]> sharedColumns) {
        return open(path, policy, keyColumns, sharedColumns, null);
    }

    /**
     * As above, reading pages through {@code pool} (bounded, and shared with the readers
     * {@link #reader()} gives); after each flush the pool's copies of the pages written are their
     * new versions.
     */
    public static BTreeWriter open(Path path, SplitPolicy policy, int keyColumns,
                                   ToIntBiFunction<byte[], byte[]> sharedColumns, BufferPool pool) {
        return open(path, policy, SplitPolicy.RUN_FILL, keyColumns, sharedColumns, pool);
    }

    /** As above, runs filling their pages to {@code runFill} (the rest room for their entries to grow). */
    public static BTreeWriter open(Path path, SplitPolicy policy, double runFill, int keyColumns,
                                   ToIntBiFunction<byte[], byte[]> sharedColumns, BufferPool pool) {
        return open(path, policy, runFill, keyColumns, sharedColumns, pool, null);
    }

    /**
     * Opens {@code tree}'s file for writing, publishing each flush to the tree's readers: the writer
     * reads through their pool and file, which stay theirs to close.
     */
    public static BTreeWriter over(BTree tree, SplitPolicy policy, double runFill, int keyColumns,
                                   ToIntBiFunction<byte[], byte[]> sharedColumns) {
        return open(tree.file().path(), policy, runFill, keyColumns, sharedColumns, tree.bufferPool(), tree.file());
    }

    /**
     * Finishes a flush of {@code tree} that a crash (or a failed write) cut short, from its redo log:
     * to be called before the tree is opened for reading, as a store does.
     */
    public static void recover(Path tree) {
        try {
            Path log = RedoLog.pathOf(tree);
            if (!java.nio.file.Files.exists(log) || java.nio.file.Files.size(log) == 0) {
                return;
            }
            try (FileChannel ch = FileChannel.open(tree, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                RedoLog.open(tree, ch).close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot recover " + tree + " from its redo log", e);
        }
    }

    private static BTreeWriter open(Path path, SplitPolicy policy, double runFill, int keyColumns,
                                    ToIntBiFunction<byte[], byte[]> sharedColumns, BufferPool pool, PageFile readers) {
        try {
            FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            RedoLog redo = null;
            try {
                if (readers == null) {
                    redo = RedoLog.open(path, ch); // a flush a crash cut short is finished first
                } else { // readers may be reading: what the log repairs is published to them, their cached copies dropped
                    RedoLog[] opened = new RedoLog[1];
                    readers.publish(readers.pageCount(), () -> {
                        opened[0] = RedoLog.open(path, ch);
                        try {
                            readers.grewTo(ch.size() / readers.pageSize());
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot size " + path, e);
                        }
                        pool.forget(readers);
                    });
                    redo = opened[0];
                }
                byte[] page0 = new byte[PageFormat.MIN_PAGE_SIZE];
                readFully(ch, page0, 0, path);
                int pageSize = TreeMeta.readFrom(page0, path).pageSize();
                PageFormat.checkPageSize(pageSize);
                byte[] metaPage = new byte[pageSize];
                readFully(ch, metaPage, 0, path);
                PageFormat.verify(metaPage, 0, pageSize, path, 0);
                TreeMeta meta = TreeMeta.readFrom(metaPage, path);
                return new BTreeWriter(path, ch, redo, meta, ch.size() / pageSize, policy, runFill, keyColumns,
                        sharedColumns, pool, readers);
            } catch (RuntimeException e) {
                if (redo != null) {
                    redo.close();
                }
                ch.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + path + " for writing", e);
        }
    }

    /** Opens a tree whose keys have one column (no prefixes to see runs in). */
    public static BTreeWriter open(Path path, SplitPolicy policy) {
        return open(path, policy, 1, (a, b) -> 0);
    }

    public TreeMeta meta() {
        return meta;
    }

    /**
     * The tree as of the last flush, read through this writer's pool (a writer opened with one):
     * a reader opened after a flush sees it, one opened before keeps the root it had.
     */
    public BTree reader() {
        if (pool == null) {
            throw new IllegalStateException("a writer without a buffer pool reads the file directly; open one with a pool");
        }
        return new BTree(file, pool);
    }

    /** Leaf splits so far. */
    public long splits() {
        return splits;
    }

    /** Leaves that took in the leaf before them at a flush, so far (less than half full after deletes). */
    public long merged() {
        return merged;
    }

    /** Emptied leaves taken out of the tree so far. */
    public long unlinked() {
        return unlinked;
    }

    /** Pages this writer's reads, writes and scans went through so far (each visit counted, held or not). */
    public long pageAccesses() {
        return pageAccesses;
    }

    /** Pages read from the file so far, through the pool (its misses on this tree), or directly without one. */
    public long pagesRead() {
        return reads.pageReads();
    }

    /** The value under {@code key} as written so far, or null. */
    public byte[] get(byte[] key) {
        Node leaf = node(descend(key, null));
        int slot = leaf.lowerBound(key);
        return slot < leaf.keys.size() && Arrays.equals(leaf.keys.get(slot), key) ? leaf.values.get(slot) : null;
    }

    /** Receives entries of a scan; returns false to stop. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(byte[] key, byte[] value);
    }

    /** Visits the entries with keys in [{@code from}, {@code toExclusive}) as written so far, in key order ({@code toExclusive} null: to the end). */
    public void scan(byte[] from, byte[] toExclusive, EntryVisitor visitor) {
        long pageNo = descend(from, null);
        Node leaf = node(pageNo);
        int slot = leaf.lowerBound(from);
        while (true) {
            for (; slot < leaf.keys.size(); slot++) {
                byte[] key = leaf.keys.get(slot);
                if (toExclusive != null && Arrays.compareUnsigned(key, toExclusive) >= 0
                        || !visitor.visit(key, leaf.values.get(slot))) {
                    return;
                }
            }
            if (leaf.next < 0) {
                return;
            }
            leaf = node(leaf.next);
            slot = 0;
        }
    }

    /** Inserts {@code key}, or replaces its value when it is there; returns whether it was new. */
    public boolean put(byte[] key, byte[] value) {
        requireUsable();
        if (PageFormat.HEADER_SIZE + PageFormat.entryBytes(key.length, value.length) > pageSize / 2) {
            throw new IllegalArgumentException("an entry of " + PageFormat.entryBytes(key.length, value.length)
                    + " bytes is over half a " + pageSize + "-byte page");
        }
        List<long[]> path = new ArrayList<>();
        long leafNo = descend(key, path);
        lowerFirstKeys(path, key);
        Node leaf = node(leafNo);
        int slot = leaf.lowerBound(key);
        boolean fresh = slot == leaf.keys.size() || !Arrays.equals(leaf.keys.get(slot), key);
        InsertRun previous = lastInsert.get(leafNo);
        int run = previous != null && previous.slot() == slot - 1 ? previous.length() + 1 : 1;
        if (fresh) {
            leaf.keys.add(slot, key);
            leaf.values.add(slot, value);
            meta = withEntries(meta.entryCount() + 1);
            if (recentInserts != null) {
                recentInserts.add(leafNo, key);
            }
        } else {
            leaf.values.set(slot, value);
        }
        dirty.add(leafNo);
        int room = pageSize - PageFormat.HEADER_SIZE;
        int bytes = leaf.bytes();
        SplitPolicy.Split split = null;
        if (bytes > PageFormat.HEADER_SIZE + room * runFill && leaf.keys.size() > 1) {
            int shared = slot == 0 ? 0 : sharedColumns.applyAsInt(leaf.keys.get(slot - 1), key);
            split = new SplitPolicy.Split(leaf.entrySizes(), slot, room, leafNo == meta.lastLeaf(), shared, keyColumns,
                    fresh && run >= SplitPolicy.RUN_EVIDENCE, runFill,
                    recentInserts == null ? null : recentInserts.perEntry(leafNo, leaf));
        }
        // a page a run fills splits before it is full, with room for its entries to grow; any other when it overflows
        boolean mustSplit = split != null && (bytes > pageSize || fresh && policy.fillsRun(split));
        if (!mustSplit) {
            if (fresh) {
                lastInsert.put(leafNo, new InsertRun(slot, run));
            }
            return fresh;
        }
        int at = policy.splitAt(split);
        long rightNo = splitOff(leafNo, leaf, at);
        if (recentInserts != null) {
            recentInserts.split(leafNo, rightNo, node(rightNo).keys.get(0));
        }
        lastInsert.put(slot < at ? leafNo : rightNo, new InsertRun(slot < at ? slot : slot - at, run));
        lastInsert.remove(slot < at ? rightNo : leafNo);
        splits++;
        insertSeparator(path, path.size() - 1, node(rightNo).keys.get(0), rightNo);
        return fresh;
    }

    /**
     * Deletes {@code key}; returns whether it was there. At the next flush, a leaf deletes emptied
     * leaves the tree ({@link #unlink}) unless it is its parent's only child, and one they left less
     * than half full takes in the leaf before it when both fit ({@link #mergeUnderfull}).
     */
    public boolean delete(byte[] key) {
        requireUsable();
        long leafNo = descend(key, null);
        Node leaf = node(leafNo);
        int slot = leaf.lowerBound(key);
        if (slot == leaf.keys.size() || !Arrays.equals(leaf.keys.get(slot), key)) {
            return false;
        }
        leaf.keys.remove(slot);
        leaf.values.remove(slot);
        lastInsert.remove(leafNo);
        dirty.add(leafNo);
        meta = withEntries(meta.entryCount() - 1);
        thinned.put(leafNo, key); // at the flush: unlinked if empty then, merged if less than half full
        return true;
    }

    /**
     * Settles the leaves deletes thinned, at the flush: one empty then leaves the tree (not at the
     * delete, so that an entry put back before the flush goes where it was — into the leaf, not the
     * one before it, which a reader holding the older parent would not look in); one less than half
     * full may take in the leaf before it.
     */
    private void settleThinned() {
        for (Map.Entry<Long, byte[]> e : thinned.entrySet()) {
            Node leaf = node(e.getKey());
            if (!leaf.keys.isEmpty()) {
                mergeUnderfull(e.getKey(), leaf);
                continue;
            }
            List<long[]> path = new ArrayList<>();
            if (descend(e.getValue(), path) == e.getKey() && !path.isEmpty()
                    && node(path.get(path.size() - 1)[0]).keys.size() > 1) {
                unlink(e.getKey(), leaf, path);
            }
        }
        thinned.clear();
    }

    /**
     * A leaf deletes left less than half full takes in the whole leaf before it (same parent) when
     * both fit in one at the run fill, and that one leaves the tree: a queue's head, emptying, and
     * the tail of the queue before it, filling, end up in one page instead of two half-empty ones.
     */
    private void mergeUnderfull(long leafNo, Node leaf) {
        int room = pageSize - PageFormat.HEADER_SIZE;
        if (leaf.bytes() - PageFormat.HEADER_SIZE >= room / 2) {
            return;
        }
        List<long[]> path = new ArrayList<>();
        if (descend(leaf.keys.get(0), path) != leafNo || path.isEmpty()) {
            return;
        }
        long[] parentStep = path.get(path.size() - 1);
        if (parentStep[1] == 0) {
            return;
        }
        long leftNo = node(parentStep[0]).child((int) parentStep[1] - 1);
        if (moveRight(leftNo, leafNo, (int) (PageFormat.HEADER_SIZE + room * runFill), true).unlinked()) {
            merged++;
        }
    }

    /**
     * Takes the emptied leaf out of the tree: its parent drops it and the leaf before it links past
     * it. The page itself stays as it is, empty and still linked to the leaf after it, so that a
     * reader that reached it through an older parent just walks on; the space is garbage until the
     * tree is reorganized (queues such as TPC-C's new-order table empty their oldest leaves all the
     * time, and walking them would cost every reader that starts at the queue's head).
     */
    private void unlink(long leafNo, Node leaf, List<long[]> path) {
        long[] parentStep = path.get(path.size() - 1);
        Node parent = node(parentStep[0]);
        parent.keys.remove((int) parentStep[1]);
        parent.values.remove((int) parentStep[1]);
        dirty.add(parentStep[0]);
        long leftNo = leafBefore(path);
        long first = meta.firstLeaf();
        long last = meta.lastLeaf();
        if (leftNo < 0) {
            first = leaf.next;
        } else {
            node(leftNo).next = leaf.next;
            dirty.add(leftNo);
        }
        if (leafNo == last) {
            last = leftNo;
        }
        lastInsert.remove(leafNo);
        unlinked++;
        meta = new TreeMeta(meta.root(), meta.height(), first, last, meta.leafCount() - 1, meta.entryCount(),
                meta.pageSize(), meta.fillFactor(), meta.leavesContiguous());
    }

    /**
     * The leaf before the one {@code path} leads to, in key order: down the rightmost children of
     * the nearest sibling to the left on the way up; -1 when the leaf is the first.
     */
    private long leafBefore(List<long[]> path) {
        for (int depth = path.size() - 1; depth >= 0; depth--) {
            int child = (int) path.get(depth)[1];
            if (child > 0) {
                long pageNo = node(path.get(depth)[0]).child(child - 1);
                Node n = node(pageNo);
                while (!n.leaf) {
                    pageNo = n.child(n.keys.size() - 1);
                    n = node(pageNo);
                }
                return pageNo;
            }
        }
        return -1;
    }

    /**
     * What one {@link #compact} did: leaves it looked at, entries it moved, leaves it emptied and
     * unlinked; {@code nextEnd}, the key the window to the left of this one should end at (the
     * first key of the leaf after this window's first leaf, which is left partly filled; null:
     * the tree's end), and whether leaves of the range before this window remain ({@code more}).
     */
    public record Compaction(int leaves, long entriesMoved, int leavesFreed, byte[] nextEnd, boolean more) {
    }

    /**
     * Packs the last {@code maxLeaves} leaves of the key range [{@code from}, {@code toExclusive})
     * (null: unbounded) to {@code fill} of their room: from the last towards the first, each leaf
     * takes the last entries of the leaf before it (same parent) while they fit, and a leaf left
     * empty leaves the tree. Entries only ever move right, as a split moves them, so a reader that
     * read a parent before the flush finds them by moving right ({@link BTree}), and a scan skips
     * the ones it saw already. A range of more leaves is done a window at a time from its end (see
     * {@link #windowStarts}): the next window ends with this one's first leaf, which its wave fills
     * from the left.
     */
    public Compaction compact(byte[] from, byte[] toExclusive, double fill, int maxLeaves) {
        if (maxLeaves < 2) {
            throw new IllegalArgumentException("a compaction needs at least two leaves to move entries between");
        }
        requireUsable();
        ArrayDeque<Long> window = new ArrayDeque<>();
        boolean more = false;
        for (long p = descend(from, null); p >= 0; p = nextOf(p)) {
            byte[] first = firstKeyOf(p);
            if (first != null && toExclusive != null && Arrays.compareUnsigned(first, toExclusive) >= 0) {
                break;
            }
            window.addLast(p);
            if (window.size() > maxLeaves) {
                window.removeFirst();
                more = true;
            }
        }
        List<Long> leaves = new ArrayList<>(window);
        int looked = leaves.size();
        int limit = (int) (PageFormat.HEADER_SIZE + (pageSize - PageFormat.HEADER_SIZE) * fill);
        long moved = 0;
        int freed = 0;
        for (int i = leaves.size() - 1; i >= 1; i--) {
            Moved m = moveRight(leaves.get(i - 1), leaves.get(i), limit, false);
            moved += m.entries();
            if (m.unlinked()) {
                freed++;
                leaves.remove(i - 1); // the leaf before it fills the same right leaf next
            }
        }
        byte[] nextEnd = null; // the window to the left ends right after this one's first leaf, partly filled
        for (long p = leaves.isEmpty() ? -1 : nextOf(leaves.get(0)); p >= 0 && nextEnd == null; p = nextOf(p)) {
            nextEnd = firstKeyOf(p);
        }
        if (toExclusive != null && (nextEnd == null || Arrays.compareUnsigned(nextEnd, toExclusive) > 0)) {
            nextEnd = toExclusive; // an empty window, or one whose first leaf is its last: never past the range
        }
        return new Compaction(looked, moved, freed, nextEnd, more);
    }

    /**
     * The first keys of every {@code every}-th leaf of the key range [{@code from}, {@code
     * toExclusive}) from its first on (the first one's: {@code from}): where windows of that many
     * leaves begin, for compacting a long range a window at a time from its end.
     */
    public List<byte[]> windowStarts(byte[] from, byte[] toExclusive, int every) {
        List<byte[]> starts = new ArrayList<>(List.of(from));
        int n = 0;
        for (long p = descend(from, null); p >= 0; p = nextOf(p)) {
            byte[] first = firstKeyOf(p);
            if (first != null && toExclusive != null && Arrays.compareUnsigned(first, toExclusive) >= 0) {
                break;
            }
            if (n > 0 && n % every == 0 && first != null) {
                starts.add(first);
            }
            n++;
        }
        return starts;
    }

    /** What {@link #moveRight} did: entries moved, and whether the left leaf, emptied, left the tree. */
    private record Moved(int entries, boolean unlinked) {
        static final Moved NOTHING = new Moved(0, false);
    }

    /**
     * Moves the last entries of leaf {@code leftNo} to the front of leaf {@code rightNo}, the next
     * under the same parent, while the right one stays within {@code limit} bytes ({@code whole}:
     * all of them or none); the right leaf's separator follows its new first key, and a left leaf
     * left empty leaves the tree. Entries move right only, as in a split.
     */
    private Moved moveRight(long leftNo, long rightNo, int limit, boolean whole) {
        Node right = node(rightNo);
        Node left = node(leftNo);
        if (right.keys.isEmpty() || left.keys.isEmpty()) {
            return Moved.NOTHING;
        }
        List<long[]> leftPath = new ArrayList<>();
        List<long[]> rightPath = new ArrayList<>();
        descend(left.keys.get(0), leftPath);
        descend(right.keys.get(0), rightPath);
        long[] leftParent = leftPath.isEmpty() ? null : leftPath.get(leftPath.size() - 1);
        long[] rightParent = rightPath.isEmpty() ? null : rightPath.get(rightPath.size() - 1);
        if (leftParent == null || rightParent == null || leftParent[0] != rightParent[0]
                || rightParent[1] != leftParent[1] + 1) {
            return Moved.NOTHING; // a separator above the parent would have to move too
        }
        int rightBytes = right.bytes();
        int n = 0;
        while (n < left.keys.size()) {
            int last = left.keys.size() - 1 - n;
            int entry = PageFormat.entryBytes(left.keys.get(last).length, left.values.get(last).length);
            if (rightBytes + entry > limit) {
                break;
            }
            rightBytes += entry;
            n++;
        }
        if (n == 0 || whole && n < left.keys.size()) {
            return Moved.NOTHING;
        }
        int cut = left.keys.size() - n;
        right.keys.addAll(0, left.keys.subList(cut, left.keys.size()));
        right.values.addAll(0, left.values.subList(cut, left.values.size()));
        left.keys.subList(cut, left.keys.size()).clear();
        left.values.subList(cut, left.values.size()).clear();
        Node parent = node(rightParent[0]);
        parent.keys.set((int) rightParent[1], right.keys.get(0));
        dirty.add(leftNo);
        dirty.add(rightNo);
        dirty.add(rightParent[0]);
        lastInsert.remove(leftNo);
        lastInsert.remove(rightNo);
        if (left.keys.isEmpty() && parent.keys.size() > 1) {
            unlink(leftNo, left, leftPath);
            return new Moved(n, true);
        }
        return new Moved(n, false);
    }

    /** The next leaf after leaf {@code pageNo}, from its changed version or the page itself (not decoded). */
    private long nextOf(long pageNo) {
        Node n = nodes.get(pageNo);
        return n != null ? n.next : page(pageNo).next();
    }

    /** Leaf {@code pageNo}'s first key, or null when it is empty. */
    private byte[] firstKeyOf(long pageNo) {
        Node n = nodes.get(pageNo);
        if (n != null) {
            return n.keys.isEmpty() ? null : n.keys.get(0);
        }
        Page p = page(pageNo);
        return p.count() == 0 ? null : p.key(0);
    }

    /**
     * Keeps each internal page's first key at or below every key under it: a key below all of a
     * subtree's goes to its first child, and the separator of a page split off that child must
     * still sort after the first key.
     */
    private void lowerFirstKeys(List<long[]> path, byte[] key) {
        for (long[] step : path) {
            Node n = node(step[0]);
            if (step[1] == 0 && Arrays.compareUnsigned(key, n.keys.get(0)) < 0) {
                n.keys.set(0, key);
                dirty.add(step[0]);
            }
        }
    }

    /** The leaf for {@code key}; {@code path}, when given, gets each internal page above it and the child taken. */
    private long descend(byte[] key, List<long[]> path) {
        long pageNo = meta.root();
        Node n = node(pageNo);
        while (!n.leaf) {
            int child = n.childFor(key);
            if (path != null) {
                path.add(new long[] {pageNo, child});
            }
            pageNo = n.child(child);
            n = node(pageNo);
        }
        return pageNo;
    }

    /** Moves the entries of {@code left} from {@code at} on to a new page linked after it; returns its number. */
    private long splitOff(long leftNo, Node left, int at) {
        long rightNo = pageCount++;
        Node right = new Node(left.leaf, left.level, left.next);
        right.keys.addAll(left.keys.subList(at, left.keys.size()));
        right.values.addAll(left.values.subList(at, left.values.size()));
        left.keys.subList(at, left.keys.size()).clear();
        left.values.subList(at, left.values.size()).clear();
        if (left.leaf) {
            left.next = rightNo;
            // the new leaf lies at the file's end, out of key order: scans follow the links from now on
            meta = new TreeMeta(meta.root(), meta.height(), meta.firstLeaf(), leftNo == meta.lastLeaf() ? rightNo
                    : meta.lastLeaf(), meta.leafCount() + 1, meta.entryCount(), meta.pageSize(), meta.fillFactor(), false);
        }
        nodes.put(rightNo, right);
        dirty.add(leftNo);
        dirty.add(rightNo);
        return rightNo;
    }

    /**
     * Adds the separator of a new child to the internal page at {@code depth} of {@code path}
     * (after the child it split from), splitting that page in the middle when it overflows, and
     * growing a new root above the old one when the root splits.
     */
    private void insertSeparator(List<long[]> path, int depth, byte[] separator, long childNo) {
        if (depth < 0) {
            Node oldRoot = node(meta.root());
            long rootNo = pageCount++;
            Node root = new Node(false, oldRoot.level + 1, -1);
            root.keys.add(oldRoot.keys.isEmpty() ? new byte[0] : oldRoot.keys.get(0));
            root.values.add(childValue(meta.root()));
            root.keys.add(separator);
            root.values.add(childValue(childNo));
            nodes.put(rootNo, root);
            dirty.add(rootNo);
            meta = new TreeMeta(rootNo, meta.height() + 1, meta.firstLeaf(), meta.lastLeaf(), meta.leafCount(),
                    meta.entryCount(), meta.pageSize(), meta.fillFactor(), meta.leavesContiguous());
            return;
        }
        long pageNo = path.get(depth)[0];
        int after = (int) path.get(depth)[1];
        Node parent = node(pageNo);
        parent.keys.add(after + 1, separator);
        parent.values.add(after + 1, childValue(childNo));
        dirty.add(pageNo);
        if (parent.bytes() <= pageSize) {
            return;
        }
        int at = SplitPolicy.HALF.splitAt(new SplitPolicy.Split(parent.entrySizes(), after + 1,
                pageSize - PageFormat.HEADER_SIZE, false, 0, 1, false));
        long rightNo = splitOff(pageNo, parent, at);
        insertSeparator(path, depth - 1, node(rightNo).keys.get(0), rightNo);
    }

    private static byte[] childValue(long pageNo) {
        byte[] v = new byte[Long.BYTES];
        Bytes.putLong(v, 0, pageNo);
        return v;
    }

    private TreeMeta withEntries(long entries) {
        return new TreeMeta(meta.root(), meta.height(), meta.firstLeaf(), meta.lastLeaf(), meta.leafCount(), entries,
                meta.pageSize(), meta.fillFactor(), meta.leavesContiguous());
    }

    /**
     * The page decoded, kept until the next flush so that changes are made to it (a page read but
     * not changed is decoded again when next needed: the pool, when there is one, bounds what is
     * held).
     */
    private Node node(long pageNo) {
        pageAccesses++;
        Node n = nodes.get(pageNo);
        if (n == null) {
            n = Node.of(page(pageNo));
            nodes.put(pageNo, n);
        }
        return n;
    }

    /** The page as last flushed (through the pool when there is one). */
    private Page page(long pageNo) {
        if (pool != null) {
            return pool.get(file, pageNo).join();
        }
        byte[] data = new byte[pageSize];
        reads.beginRead();
        readFully(channel, data, pageNo * pageSize, path);
        reads.endRead(1, pageSize);
        PageFormat.verify(data, 0, pageSize, path, pageNo);
        return new Page(data, pageNo);
    }

    /**
     * The page images a flush writes into a tree: each changed page (new ones at the file's end),
     * sealed, then the meta page (page 0), and the pages the file holds after it. Computed by
     * {@link #pendingFlush} without writing, so that they may be kept elsewhere first (a statement's
     * journal on a node), and written by {@link #write}, or by {@link #writeTo} into a tree no one
     * has open.
     */
    public record Flush(int pageSize, long pageCount, long[] pageNos, List<byte[]> images) {
        public Flush {
            if (pageNos.length != images.size() || pageNos.length == 0 || pageNos[pageNos.length - 1] != 0) {
                throw new IllegalArgumentException("a flush of " + pageNos.length + " page numbers and " + images.size()
                        + " images, the meta page last");
            }
        }

        /** Bytes of page images. */
        public long bytes() {
            return (long) pageSize * pageNos.length;
        }
    }

    /**
     * The images a {@link #flush} would write now, or null when nothing changed since the last
     * one; nothing is written. Settles the leaves deletes thinned first, as a flush does.
     */
    public Flush pendingFlush() {
        requireUsable();
        settleThinned();
        if (dirty.isEmpty() && meta.equals(flushedMeta)) {
            return null;
        }
        List<Long> changed = new ArrayList<>(dirty);
        long[] pageNos = new long[changed.size() + 1];
        List<byte[]> images = new ArrayList<>(pageNos.length);
        for (int i = 0; i < changed.size(); i++) {
            long pageNo = changed.get(i);
            Node n = nodes.get(pageNo);
            pageNos[i] = pageNo;
            images.add(sealed(BTreeBuilder.NodeBuilder.encode(pageSize, n.leaf ? PageFormat.TYPE_LEAF
                    : PageFormat.TYPE_INTERNAL, n.level, pageNo, n.next, n.keys, n.values)));
        }
        byte[] metaPage = new byte[pageSize];
        meta.writeTo(metaPage);
        images.add(sealed(metaPage)); // page 0, last
        pending = new Flush(pageSize, pageCount, pageNos, images);
        return pending;
    }

    /**
     * Makes every write so far durable, all or none: the changed pages (new ones at the file's end)
     * and the meta page go to the redo log and are synced there, then written in place; when it
     * returns, the writes survive a crash.
     */
    public void flush() {
        Flush f = pendingFlush();
        if (f == null) {
            nodes.clear();
            return;
        }
        write(f);
    }

    /**
     * Writes {@code f} into the tree as a flush does (atomically and durably through the redo log,
     * then in place, published to the readers) — this writer's own {@link #pendingFlush}, or one
     * computed by a writer of the same tree before and kept elsewhere (a statement's journal), when
     * this one holds no writes of its own. The writer then stands at {@code f}: its meta page and
     * page count are {@code f}'s. Writing the same images again changes nothing.
     */
    public void write(Flush f) {
        write(f, true);
    }

    /**
     * As {@link #write}, without the redo log: for images the caller keeps durable elsewhere (a
     * statement's journal on a node) until this returns, and writes again into the tree after a
     * crash or a failure here. A failure leaves the writer refusing everything until reopened.
     */
    public void writeJournaled(Flush f) {
        write(f, false, true);
    }

    /**
     * Makes every write so far seen by readers, not durable: neither a redo log nor a sync, so a
     * crash may leave the file torn. Only for trees built anew after a crash, never recovered (the
     * analytical copies): what they hold is derived from data kept durable elsewhere.
     */
    public void flushUnsynced() {
        Flush f = pendingFlush();
        if (f == null) {
            nodes.clear();
            return;
        }
        write(f, false, false);
    }

    private void write(Flush f, boolean logged) {
        write(f, logged, true);
    }

    private void write(Flush f, boolean logged, boolean synced) {
        requireUsable();
        if (f.pageSize() != pageSize) {
            throw new IllegalArgumentException("a flush of " + f.pageSize() + "-byte pages into " + path + ", whose pages are "
                    + pageSize + " bytes");
        }
        for (int i = 0; i < f.pageNos().length; i++) {
            PageFormat.verify(f.images().get(i), 0, pageSize, path, f.pageNos()[i]);
        }
        TreeMeta written = TreeMeta.readFrom(f.images().get(f.pageNos().length - 1), path);
        long pages = Math.max(pageCount, f.pageCount());
        List<Long> pageNos = new ArrayList<>(f.pageNos().length);
        for (long pageNo : f.pageNos()) {
            pageNos.add(pageNo);
        }
        List<byte[]> images = f.images();
        if (logged) {
            redo.commit(pageNos, images);
        }
        Runnable inPlace = () -> {
            try {
                for (int i = 0; i < images.size(); i++) {
                    RedoLog.writeAt(channel, images.get(i), pageNos.get(i) * pageSize);
                }
                if (synced) {
                    channel.force(false);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + path, e);
            }
            if (pool != null) {
                for (int i = 0; i < images.size(); i++) {
                    pool.replace(file, pageNos.get(i), new Page(images.get(i), pageNos.get(i)));
                }
            }
        };
        try {
            if (file != null) {
                file.publish(pages, inPlace); // no reader reads a page half written, nor caches an old one after
            } else {
                inPlace.run();
            }
        } catch (RuntimeException e) { // the batch is committed (in the redo log, or the caller's): it can only be redone
            failed = e;
            throw e;
        }
        if (logged) {
            redo.clear();
        }
        if (f != pending) { // images of another writer's: the tree now stands where they put it
            meta = written;
        }
        pending = null;
        pageCount = pages;
        flushedPageCount = pages;
        dirty.clear();
        nodes.clear(); // what was changed is written; the pool (or the file) holds it now
        flushedMeta = meta;
    }

    /**
     * Writes {@code f} into the tree file at {@code tree}, which nothing has open (a node rolling a
     * committed statement forward before it opens its store): a flush of the tree's own that a crash
     * cut short is finished first (it is older than {@code f}, or the same), then every image is
     * checked and written in place and the file synced. Writing the same images again changes
     * nothing; a crash half way is mended by writing them again.
     */
    public static void writeTo(Path tree, Flush f) {
        recover(tree);
        for (int i = 0; i < f.pageNos().length; i++) {
            PageFormat.verify(f.images().get(i), 0, f.pageSize(), tree, f.pageNos()[i]);
        }
        try (FileChannel ch = FileChannel.open(tree, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int i = 0; i < f.pageNos().length; i++) {
                RedoLog.writeAt(ch, f.images().get(i), f.pageNos()[i] * f.pageSize());
            }
            ch.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + tree, e);
        }
    }

    /** The tree file this writer writes. */
    public Path path() {
        return path;
    }

    /** Forgets every write since the last flush: readers never saw them, and the file holds none of them. */
    public void discard() {
        requireUsable();
        nodes.clear();
        dirty.clear();
        thinned.clear();
        lastInsert.clear();
        if (recentInserts != null) {
            recentInserts.clear();
        }
        meta = flushedMeta;
        pageCount = flushedPageCount;
        pending = null;
    }

    private void requireUsable() {
        if (failed != null) {
            throw new IllegalStateException("the writer of " + path + " could not write a committed batch in place ("
                    + failed.getMessage() + "): reopen the tree, which redoes the batch from its log", failed);
        }
    }

    private byte[] sealed(byte[] page) {
        PageFormat.seal(page, 0, pageSize);
        return page;
    }

    private static void readFully(FileChannel ch, byte[] into, long position, Path path) {
        ByteBuffer buf = ByteBuffer.wrap(into);
        try {
            long pos = position;
            while (buf.hasRemaining()) {
                int n = ch.read(buf, pos);
                if (n < 0) {
                    throw new PageCorruptedException(path, position / Math.max(into.length, 1), "the file ends inside the page");
                }
                pos += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    @Override
    public void close() {
        redo.close();
        if (ownsFile) {
            file.close();
        }
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }

    /**
     * The keys last inserted into each leaf, for the leaves last inserted into (a bounded memory
     * of where inserts land, which {@link SplitPolicy#RATE} splits by).
     */
    static final class RecentInserts {
        static final int PER_LEAF = 16;
        static final int LEAVES = 4096;
        private final Map<Long, ArrayDeque<byte[]>> byLeaf = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, ArrayDeque<byte[]>> eldest) {
                return size() > LEAVES;
            }
        };

        void add(long leafNo, byte[] key) {
            ArrayDeque<byte[]> keys = byLeaf.computeIfAbsent(leafNo, k -> new ArrayDeque<>());
            if (keys.size() == PER_LEAF) {
                keys.removeFirst();
            }
            keys.addLast(key);
        }

        /** Per entry of {@code leaf}, how many of the recent inserts were of it (deleted ones no longer count). */
        int[] perEntry(long leafNo, Node leaf) {
            int[] counts = new int[leaf.keys.size()];
            for (byte[] key : byLeaf.getOrDefault(leafNo, new ArrayDeque<>())) {
                int slot = leaf.lowerBound(key);
                if (slot < counts.length && Arrays.equals(leaf.keys.get(slot), key)) {
                    counts[slot]++;
                }
            }
            return counts;
        }

        void clear() {
            byLeaf.clear();
        }

        /** The leaf split at {@code separator}: the keys from it on were inserted into the new right leaf. */
        void split(long leftNo, long rightNo, byte[] separator) {
            ArrayDeque<byte[]> keys = byLeaf.remove(leftNo);
            if (keys == null) {
                return;
            }
            for (byte[] key : keys) {
                add(Arrays.compareUnsigned(key, separator) < 0 ? leftNo : rightNo, key);
            }
        }
    }

    /** A page decoded for changing: its entries as lists, internal entries' values the child page numbers. */
    static final class Node {
        final boolean leaf;
        final int level;
        long next;
        final List<byte[]> keys = new ArrayList<>();
        final List<byte[]> values = new ArrayList<>();

        Node(boolean leaf, int level, long next) {
            this.leaf = leaf;
            this.level = level;
            this.next = next;
        }

        static Node of(Page p) {
            Node n = new Node(p.isLeaf(), p.level(), p.next());
            for (int i = 0; i < p.count(); i++) {
                n.keys.add(p.key(i));
                n.values.add(p.value(i));
            }
            return n;
        }

        /** Bytes the page takes encoded: header, slots, entries. */
        int bytes() {
            int bytes = PageFormat.HEADER_SIZE;
            for (int i = 0; i < keys.size(); i++) {
                bytes += PageFormat.entryBytes(keys.get(i).length, values.get(i).length);
            }
            return bytes;
        }

        int[] entrySizes() {
            int[] sizes = new int[keys.size()];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = PageFormat.entryBytes(keys.get(i).length, values.get(i).length);
            }
            return sizes;
        }

        int lowerBound(byte[] key) {
            return KeySearch.lowerBound(keys.size(), i -> Arrays.compareUnsigned(keys.get(i), key));
        }

        /** As {@link Page#childFor}: the last separator <= key, or the first child. */
        int childFor(byte[] key) {
            return KeySearch.childFor(keys.size(), i -> Arrays.compareUnsigned(keys.get(i), key));
        }

        long child(int i) {
            return Bytes.getLong(values.get(i), 0);
        }
    }
}
