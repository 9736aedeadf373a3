package org.oooengine.hive.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.FileReads;

/**
 * Slices cut so the nodes read about as many bytes, each value's rows kept by one node: a split a
 * bound falls in is read by the nodes of both sides, each keeping its part, the nulls by one.
 */
class KeySlicesTest {
    private static final FileReads.Layout PARQUET = new FileReads.Layout("parquet", ',', "");
    private static final List<String> NODES = List.of("n1", "n2", "n3");

    private static FileReads.Split split(int i) {
        return new FileReads.Split("file:/t/part-" + i + ".parquet", 0, 100, PARQUET, List.of(), List.of(), "n1");
    }

    @Test
    void eachValueIsKeptByOneNodeAndEachNullByOne() {
        // six splits of 100 bytes in order of the key, neighbours sharing their bound's value
        List<FileReads.KeyRange> ranges = List.of(new FileReads.KeyRange(1, 10), new FileReads.KeyRange(10, 20),
                new FileReads.KeyRange(20, 30), new FileReads.KeyRange(30, 40), new FileReads.KeyRange(41, 50),
                new FileReads.KeyRange(50, 60));
        List<FileReads.Split> splits = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            splits.add(split(i));
        }
        KeySlices slices = KeySlices.cut(splits, ranges, NODES.size());
        assertEquals(3, slices.count());
        List<FileReads.Split> assigned = slices.assign(splits, ranges, NODES, 0);
        // each value a split may hold is kept by one of its copies, and all of a value's by one node
        for (long value = 1; value <= 60; value++) {
            java.util.Set<String> keepers = new java.util.HashSet<>();
            for (int i = 0; i < splits.size(); i++) {
                if (value < ranges.get(i).min() || value > ranges.get(i).max()) {
                    continue;
                }
                String path = splits.get(i).path();
                long v = value;
                List<FileReads.Split> keeping = assigned.stream().filter(s -> s.path().equals(path)
                        && (s.slice() == null || s.slice().keeps(v))).toList();
                assertEquals(1, keeping.size(), "value " + value + " of " + path);
                keepers.add(keeping.get(0).node());
            }
            assertEquals(1, keepers.size(), "value " + value);
        }
        for (int i = 0; i < splits.size(); i++) {
            String path = splits.get(i).path();
            List<FileReads.Split> copies = assigned.stream().filter(s -> s.path().equals(path)).toList();
            long keepNulls = copies.stream().filter(s -> s.slice() == null || s.slice().keeps(null)).count();
            assertEquals(1, keepNulls, path + ": " + copies);
        }
        // bounds at 20 and 41, where a third and two thirds of the bytes are read: two nodes read
        // the split the first falls in (10 to 20); the second starts a split
        assertEquals(List.of("n1", "n1", "n2", "n2", "n2", "n3", "n3"), assigned.stream().map(FileReads.Split::node).toList());
        assertEquals(new FileReads.Slice(0, Long.MIN_VALUE, 19, true), assigned.get(1).slice());
        assertEquals(new FileReads.Slice(0, 20, 40, false), assigned.get(2).slice());
    }

    @Test
    void aSplitOfNoKnownRangeIsReadByEveryNodeAndOneReadingNoneByOne() {
        List<FileReads.KeyRange> ranges = new ArrayList<>(List.of(new FileReads.KeyRange(1, 10),
                new FileReads.KeyRange(11, 20), new FileReads.KeyRange(21, 30), FileReads.KeyRange.EMPTY));
        ranges.add(null);
        List<FileReads.Split> splits = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            splits.add(split(i));
        }
        List<FileReads.Split> assigned = KeySlices.cut(splits, ranges, NODES.size()).assign(splits, ranges, NODES, 0);
        List<FileReads.Split> unknown = assigned.stream().filter(s -> s.path().equals(splits.get(4).path())).toList();
        assertEquals(NODES, unknown.stream().map(FileReads.Split::node).toList());
        assertEquals(1, unknown.stream().filter(s -> s.slice().keeps(null)).count());
        List<FileReads.Split> none = assigned.stream().filter(s -> s.path().equals(splits.get(3).path())).toList();
        assertEquals(1, none.size());
        assertNull(none.get(0).slice());
    }
}
