package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.wire.PayloadWriter;

/**
 * The rows of a table held in files as one node reads them, split after split, as the scan's
 * {@link FileReads.Scheduling} says: the splits assigned to it; then, under work stealing, those
 * the other nodes have not started yet, taken from the ends of their queues; or, from a queue all
 * nodes share, the next split of the scan's order.
 */
final class SplitRows implements PartitionPipeline.BatchSource {
    private final FileReads.Scan scan;
    private final String self;
    private final SplitReader reader;
    private final SplitQueues queues;
    private final Peers peers;
    private long bytesRead;
    private int splitsRead;
    private int splitsTaken;
    private int seeks;
    private long waitNanos;
    /** The groups of rows whose statistics the scan's filters were judged against, and those skipped. */
    private long groups;
    private long groupsSkipped;
    /** By file, where this node's last read of it ended: a split starting elsewhere is a seek. */
    private final java.util.Map<String, Long> readTo = new java.util.HashMap<>();

    SplitRows(FileReads.Scan scan, String self, SplitReader reader, SplitQueues queues, Peers peers) {
        this.scan = scan;
        this.self = self;
        this.reader = reader;
        this.queues = queues;
        this.peers = peers;
    }

    @Override
    public Schema schema() {
        return scan.schema();
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public long bytesCached() {
        return reader.bytesCached();
    }

    @Override
    public PartitionPipeline.SplitFigures splits() {
        return new PartitionPipeline.SplitFigures(splitsRead, splitsTaken, seeks, waitNanos, groups, groupsSkipped);
    }

    /** {@code skip}, counting the groups it judges and those it skips. */
    private GroupFilter counted(GroupFilter skip) {
        return new GroupFilter() {
            @Override
            public boolean test(org.oooengine.core.fragment.ColumnRanges ranges) {
                boolean skipped = skip.test(ranges);
                groups++;
                groupsSkipped += skipped ? 1 : 0;
                return skipped;
            }

            @Override
            public List<Equality> equalities() {
                return skip.equalities();
            }
        };
    }

    @Override
    public void forEachPage(Predicate<List<Object[]>> page) {
        boolean[] all = new boolean[scan.schema().size()];
        Arrays.fill(all, true);
        forEachPage(all, page);
    }

    @Override
    public void forEachPage(boolean[] wanted, Predicate<List<Object[]>> page) {
        Schema files = scan.fileSchema();
        boolean[] wantedInFiles = Arrays.copyOf(wanted, files.size());
        forEachSplit(new Reading() {
            @Override
            long readSplit(FileReads.Split split) {
                FileReads.Slice slice = split.slice();
                if (slice == null) {
                    return reader.read(split, files, wantedInFiles, rows -> more = page.test(rows));
                }
                return reader.read(split, files, withSliceColumn(wantedInFiles, slice), rows -> {
                    List<Object[]> kept = new ArrayList<>(rows.size());
                    for (Object[] row : rows) {
                        if (slice.keeps(row[slice.column()])) {
                            kept.add(row);
                        }
                    }
                    return more = kept.isEmpty() || page.test(kept);
                });
            }
        });
    }

    /** Reads the splits this node reads, as the scan's scheduling says, until {@code reading} wants no more. */
    private void forEachSplit(Reading reading) {
        switch (scan.scheduling()) {
            case LOCAL -> {
                for (FileReads.Split split : scan.assignedTo(self)) {
                    if (!reading.read(split)) {
                        return;
                    }
                }
            }
            case STEALING -> {
                List<FileReads.Split> mine = scan.assignedTo(self);
                SplitQueues.Queue own = queues.of(scan.id(), mine.size());
                for (int i = own.takeFront(); i >= 0; i = own.takeFront()) {
                    if (!reading.read(mine.get(i))) {
                        return;
                    }
                }
                for (String other : othersAfterSelf()) {
                    List<FileReads.Split> theirs = scan.assignedTo(other);
                    for (int i = theirs.isEmpty() ? -1 : take(other, theirs.size(), true); i >= 0;
                         i = take(other, theirs.size(), true)) {
                        splitsTaken++;
                        if (!reading.read(theirs.get(i))) {
                            return;
                        }
                    }
                }
            }
            case SHARED -> {
                if (scan.splits().isEmpty()) {
                    return;
                }
                String holder = scan.splits().get(0).node();
                int size = scan.splits().size();
                for (int i = take(holder, size, false); i >= 0; i = take(holder, size, false)) {
                    if (!scan.splits().get(i).node().equals(self)) {
                        splitsTaken++;
                    }
                    if (!reading.read(scan.splits().get(i))) {
                        return;
                    }
                }
            }
        }
    }

    @Override
    public void forEachBatch(boolean[] wanted, GroupFilter filter, Predicate<Batch> batch) {
        GroupFilter skip = filter == GroupFilter.NONE ? filter : counted(filter);
        Schema files = scan.fileSchema();
        Schema all = scan.schema();
        boolean[] wantedInFiles = Arrays.copyOf(wanted, files.size());
        forEachSplit(new Reading() {
            @Override
            long readSplit(FileReads.Split split) {
                FileReads.Slice slice = split.slice();
                boolean[] read = slice == null ? wantedInFiles : withSliceColumn(wantedInFiles, slice);
                return reader.readBatches(split, files, read, skip, whole -> {
                    Batch fileBatch = slice == null ? whole : sliced(whole, slice);
                    if (fileBatch.size() == 0) {
                        return more;
                    }
                    // the split's partition values after its file columns
                    Vector[] columns = new Vector[all.size()];
                    for (int c = 0; c < files.size(); c++) {
                        columns[c] = fileBatch.column(c);
                    }
                    for (int p = 0; p < split.partitionValues().size(); p++) {
                        int c = files.size() + p;
                        if (c < wanted.length && wanted[c]) {
                            columns[c] = StoredVectors.constant(split.partitionValues().get(p), all.type(c),
                                    fileBatch.capacity());
                        }
                    }
                    return more = batch.test(fileBatch.withColumns(columns));
                });
            }
        });
    }

    /** {@code wanted}, the slice's column read too: its values say which rows are the slice's. */
    private static boolean[] withSliceColumn(boolean[] wanted, FileReads.Slice slice) {
        if (slice.column() >= wanted.length) {
            throw new IllegalStateException("a slice of column " + slice.column() + " of files of " + wanted.length);
        }
        if (wanted[slice.column()]) {
            return wanted;
        }
        boolean[] read = wanted.clone();
        read[slice.column()] = true;
        return read;
    }

    /** The rows of {@code batch} that are {@code slice}'s. */
    private static Batch sliced(Batch batch, FileReads.Slice slice) {
        LongVector keys = (LongVector) batch.column(slice.column());
        int[] in = batch.positions();
        int[] kept = new int[batch.size()];
        int n = 0;
        for (int i = 0; i < batch.size(); i++) {
            int p = in[i];
            boolean keep = keys.isNull(p) ? slice.nulls() : keys.values[p] >= slice.min() && keys.values[p] <= slice.max();
            if (keep) {
                kept[n++] = p;
            }
        }
        return n == batch.size() ? batch : batch.withPositions(kept, n);
    }

    /** The other nodes with splits, each starting after this one in name order, so that thieves spread out. */
    private List<String> othersAfterSelf() {
        List<String> nodes = scan.splits().stream().map(FileReads.Split::node).distinct().sorted().toList();
        List<String> out = new ArrayList<>();
        int at = 0;
        while (at < nodes.size() && nodes.get(at).compareTo(self) <= 0) {
            at++;
        }
        for (int k = 0; k < nodes.size(); k++) {
            String n = nodes.get((at + k) % nodes.size());
            if (!n.equals(self)) {
                out.add(n);
            }
        }
        return out;
    }

    /** The next split of {@code holder}'s queue of {@code size} splits, from its back or front; -1: none left. */
    private int take(String holder, int size, boolean back) {
        if (holder.equals(self)) {
            SplitQueues.Queue q = queues.of(scan.id(), size);
            return back ? q.takeBack() : q.takeFront();
        }
        long t0 = System.nanoTime();
        Frame answer = peers.client(holder).call(OpCode.TAKE_SPLIT, request(scan.id(), size, back)).join();
        waitNanos += System.nanoTime() - t0;
        return answer.reader().getInt();
    }

    static byte[] request(String id, int size, boolean back) {
        return new PayloadWriter(64).putString(id).putVarInt(size).put(back ? 1 : 0).toByteArray();
    }

    /** Reads splits into the pipeline, adding up what was read. */
    private abstract class Reading {
        /** Whether the pipeline still wants rows. */
        boolean more = true;

        /** Reads {@code split}, handing its rows on (setting {@link #more}); the bytes it read. */
        abstract long readSplit(FileReads.Split split);

        /** Reads one split; false once the pipeline wants no more rows. */
        final boolean read(FileReads.Split split) {
            Long at = readTo.put(split.path(), split.start() + split.length());
            if (at == null ? split.start() != 0 : at != split.start()) {
                seeks++;
            }
            bytesRead += readSplit(split);
            splitsRead++;
            return more;
        }
    }
}
