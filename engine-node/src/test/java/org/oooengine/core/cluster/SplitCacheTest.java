package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.types.DataType;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.Vector;

/**
 * The bookkeeping of a node's cache of files' splits: entries held open between reads up to a
 * bound, the least recently read closed first and opened again when read; an entry a read holds
 * neither closed nor lost when it is dropped meanwhile; a second writer of a column kept or being
 * kept gets none. The reads of real files through it: {@code CachedSplitsTest} in mapreduce-io.
 */
class SplitCacheTest {
    @TempDir
    Path dir;

    @Test
    void atMostTheBoundAreOpenBetweenReadsAndTheOthersOpenAgain() {
        try (SplitCache cache = SplitCache.open(dir, 64L << 20, 2)) {
            List<SplitCache.Key> keys = new ArrayList<>();
            for (int column = 0; column < 5; column++) {
                keys.add(keep(cache, column, 3_000));
            }
            for (int pass = 0; pass < 2; pass++) {
                for (SplitCache.Key key : keys) {
                    List<SplitCache.Held> held = cache.acquire(List.of(key));
                    assertNotNull(held, key.toString());
                    assertEquals(key.column() * 1_000L + 2_999, ((LongVector) held.get(0).file().read(2, 0)).values[951]);
                    held.forEach(SplitCache.Held::close);
                    assertTrue(cache.openEntries() <= 2, cache.openEntries() + " open");
                }
            }
            // all held at once: each stays open while read, whatever the bound
            List<SplitCache.Held> all = cache.acquire(keys);
            assertEquals(5, cache.openEntries());
            all.forEach(SplitCache.Held::close);
        }
    }

    @Test
    void anEntryDroppedWhileReadStaysReadableTillItsReadEnds() {
        try (SplitCache cache = SplitCache.open(dir, 64L << 20)) {
            SplitCache.Key key = keep(cache, 0, 2_000);
            List<SplitCache.Held> held = cache.acquire(List.of(key));
            cache.discard(List.of(key));
            assertEquals(0, cache.bytes());
            assertEquals(1_999L, ((LongVector) held.get(0).file().read(1, 0)).values[975]);
            held.forEach(SplitCache.Held::close);
            assertNull(cache.acquire(List.of(key)));
        }
    }

    @Test
    void aColumnKeptOrBeingKeptGetsNoSecondWriter() {
        try (SplitCache cache = SplitCache.open(dir, 64L << 20)) {
            SplitCache.Key key = key(0);
            SplitCache.Writer first = cache.write(key);
            assertNotNull(first);
            assertNull(cache.write(key), "being kept");
            first.add(batch(0, 10));
            first.publish();
            assertNull(cache.write(key), "kept");
            SplitCache.Writer other = cache.write(key(1));
            other.abandon();
            assertNotNull(cache.write(key(1)), "nothing kept of an abandoned read");
        }
    }

    @Test
    void closedWhileReadItsReadsGoOnAndNothingMoreIsOpenedOrKept() throws Exception {
        SplitCache cache = SplitCache.open(dir, 64L << 20);
        SplitCache.Key key = keep(cache, 0, 2_000);
        List<SplitCache.Held> held = cache.acquire(List.of(key));
        cache.close(); // a node stopping while a scan reads
        assertEquals(1_999L, ((LongVector) held.get(0).file().read(1, 0)).values[975]);
        held.forEach(SplitCache.Held::close);
        assertNull(cache.acquire(List.of(key)));
        assertNull(cache.write(key(1)));
        try (SplitCache again = SplitCache.open(dir, 64L << 20)) {
            assertNotNull(again.acquire(List.of(key)), "kept for the next run");
        }
    }

    @Test
    void columnsBeingWrittenPastTheBoundAreGivenUpWithoutATrace() throws Exception {
        try (SplitCache cache = SplitCache.open(dir, 16 << 10)) {
            SplitCache.Writer w = cache.write(key(0));
            for (int from = 0; from < 20_000; from += 1_000) {
                w.add(batch(0, 1_000, from));
            }
            w.publish();
            assertEquals(0, cache.bytes());
            assertNull(cache.acquire(List.of(key(0))));
            try (var left = java.nio.file.Files.list(dir)) {
                assertEquals(List.of(), left.toList(), "no partial file left");
            }
            SplitCache.Writer later = cache.write(key(0));
            assertNotNull(later, "tried again by a later read");
            later.abandon();
        }
    }

    private static SplitCache.Key key(int column) {
        return new SplitCache.Key("file:/data/t/part-0.parquet", 0, 1 << 20, "100@1700000000000", column, "c" + column,
                DataType.BIGINT, "parquet 1 \\N");
    }

    /** Keeps {@code rows} values of column {@code column}: {@code column * 1000 + i} for row i. */
    private static SplitCache.Key keep(SplitCache cache, int column, int rows) {
        SplitCache.Key key = key(column);
        SplitCache.Writer w = cache.write(key);
        for (int from = 0; from < rows; from += 1_000) {
            w.add(batch(column, Math.min(1_000, rows - from), from));
        }
        w.publish();
        return key;
    }

    private static Batch batch(int column, int rows) {
        return batch(column, rows, 0);
    }

    /** A batch whose column {@code column} holds {@code column * 1000 + from + i}. */
    private static Batch batch(int column, int rows, int from) {
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = column * 1_000L + from + i;
        }
        Vector[] columns = new Vector[column + 1];
        columns[column] = new LongVector(values, null);
        return Batch.of(columns, rows);
    }
}
