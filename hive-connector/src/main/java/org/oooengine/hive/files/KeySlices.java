package org.oooengine.hive.files;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.oooengine.core.cluster.FileReads;

/**
 * Slices of a column's values, one per node, cut so that each node reads about as many bytes: the
 * node of slice k keeps the rows whose value lies between its bound and the next one's, so that
 * all rows of a value are read on one node (a GROUP BY by the column runs whole there). Cut at the
 * least values of splits taken in that order, so that over files held in order of the column
 * only the splits a bound falls inside are read by two nodes, each keeping its part. A split of
 * no known range is read by every node; a row whose value is null is kept by one node only.
 */
final class KeySlices {
    /** The least value of each slice after the first (the first starts at the least long). */
    private final long[] bounds;

    private KeySlices(long[] bounds) {
        this.bounds = bounds;
    }

    /**
     * Slices for {@code nodes} readers of {@code splits}, split i reading {@code ranges.get(i)}
     * of the column's values (null: unknown): bounds at the least values of the splits where the
     * bytes read so far, in order of those values, pass each k/nodes of the whole.
     */
    static KeySlices cut(List<FileReads.Split> splits, List<FileReads.KeyRange> ranges, int nodes) {
        List<Integer> known = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < splits.size(); i++) {
            FileReads.KeyRange r = ranges.get(i);
            if (r != null && r.min() <= r.max()) {
                known.add(i);
                bytes += Math.max(1, splits.get(i).length());
            }
        }
        known.sort(Comparator.comparingLong(i -> ranges.get(i).min()));
        List<Long> bounds = new ArrayList<>();
        long sofar = 0;
        int slice = 1;
        for (int i : known) {
            // a split that starts past the k-th share of the bytes starts slice k
            while (slice < nodes && sofar >= bytes * slice / nodes) {
                long bound = ranges.get(i).min();
                if (bound > Long.MIN_VALUE && (bounds.isEmpty() || bound > bounds.get(bounds.size() - 1))) {
                    bounds.add(bound);
                }
                slice++;
            }
            sofar += Math.max(1, splits.get(i).length());
        }
        return new KeySlices(bounds.stream().mapToLong(Long::longValue).toArray());
    }

    /** How many slices there are: one per node, or fewer when the values do not spread so far. */
    int count() {
        return bounds.length + 1;
    }

    long min(int slice) {
        return slice == 0 ? Long.MIN_VALUE : bounds[slice - 1];
    }

    long max(int slice) {
        return slice == bounds.length ? Long.MAX_VALUE : bounds[slice] - 1;
    }

    /** The slice {@code value} is in. */
    int of(long value) {
        int i = java.util.Arrays.binarySearch(bounds, value);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /**
     * Each split assigned to the readers of the slices its range meets (the k-th slice's reader
     * being {@code readers.get(k)}), each keeping only its slice's rows of column {@code column}
     * unless the split lies wholly in it; a row with a null value kept by the reader of the slice
     * the split's range starts in (of the first slice, when the range is unknown).
     */
    List<FileReads.Split> assign(List<FileReads.Split> splits, List<FileReads.KeyRange> ranges, List<String> readers,
                                 int column) {
        List<FileReads.Split> out = new ArrayList<>();
        for (int i = 0; i < splits.size(); i++) {
            FileReads.Split split = splits.get(i);
            FileReads.KeyRange r = ranges.get(i);
            if (r != null && r.min() > r.max()) { // reads no row with a value: all its rows (if any) null
                out.add(split.slicedFor(readers.get(0), null));
                continue;
            }
            int first = r == null ? 0 : of(r.min());
            int last = r == null ? count() - 1 : of(r.max());
            for (int k = first; k <= last; k++) {
                FileReads.Slice slice = first == last ? null : new FileReads.Slice(column, min(k), max(k), k == first);
                out.add(split.slicedFor(readers.get(k), slice));
            }
        }
        return out;
    }
}
