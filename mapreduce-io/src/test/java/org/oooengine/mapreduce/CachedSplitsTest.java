package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.CachingSplitReader;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.SplitCache;
import org.oooengine.core.cluster.SplitReader;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;

/**
 * A node's cache of files' splits ({@link SplitCache}) over real Parquet files read by
 * {@link HadoopSplitReader}: what comes out of the cache is exactly what the file holds, for every
 * type and null; the file is not read again until it changes; a damaged entry costs a read of the
 * file, not a wrong row; a read stopped early keeps nothing; the bound holds.
 */
class CachedSplitsTest {
    private static final int ROWS = 5_000;
    private static final Schema SCHEMA = new Schema(java.util.stream.IntStream.range(0, ParquetColumnsTest.NAMES.size())
            .mapToObj(c -> new Column(ParquetColumnsTest.NAMES.get(c), ParquetColumnsTest.TYPES.get(c))).toList());

    @TempDir
    Path dir;

    private final CountedReads reads = new CountedReads();
    private SplitCache cache;
    private Path file;

    /** The Parquet reader, counting the splits it reads from their files. */
    private static final class CountedReads implements SplitReader {
        private final HadoopSplitReader files = new HadoopSplitReader(new Configuration());
        int splitsRead;

        @Override
        public long read(FileReads.Split split, Schema fileSchema, boolean[] wanted, Predicate<List<Object[]>> page) {
            return files.read(split, fileSchema, wanted, page);
        }

        @Override
        public long readBatches(FileReads.Split split, Schema fileSchema, boolean[] wanted, GroupFilter skip,
                                Predicate<Batch> batches) {
            splitsRead++;
            return files.readBatches(split, fileSchema, wanted, skip, batches);
        }

        @Override
        public String version(FileReads.Split split) {
            return files.version(split);
        }
    }

    @BeforeEach
    void writeFile() throws Exception {
        file = dir.resolve("t.parquet");
        ParquetColumnsTest.write(file, ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, ROWS);
        cache = SplitCache.open(dir.resolve("cache"), 64L << 20);
    }

    @AfterEach
    void closeCache() {
        cache.close();
    }

    @Test
    void aSplitReadAgainComesFromTheCacheAsTheFileHoldsIt() {
        for (int pass = 0; pass < 3; pass++) {
            assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE), "pass " + pass);
        }
        assertEquals(1, reads.splitsRead, "the file is read once");
        assertEquals(1, cache.misses());
        assertEquals(2, cache.hits());
        assertTrue(cache.bytes() > 0);
        // fewer columns: all kept already
        boolean[] some = new boolean[SCHEMA.size()];
        some[5] = some[7] = true;
        List<List<Object>> rows = read(some, GroupFilter.NONE);
        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i++) {
            Object[] e = ParquetColumnsTest.expected(i);
            assertEquals(Arrays.asList(e[5], e[7]), Arrays.asList(rows.get(i).get(5), rows.get(i).get(7)), "row " + i);
        }
        assertEquals(1, reads.splitsRead);
    }

    @Test
    void aFileWrittenAgainIsReadAgain() throws Exception {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        ParquetColumnsTest.write(file, ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, ROWS - 1);
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5_000));
        List<List<Object>> rows = read(ParquetColumnsTest.all(), GroupFilter.NONE);
        assertEquals(ROWS - 1, rows.size());
        assertEquals(2, reads.splitsRead);
    }

    /**
     * Parquet finds a table's columns by name: another table over the same file, naming its
     * columns otherwise, reads other values at the same places, not what the first one kept.
     */
    @Test
    void anotherTableNamingTheColumnsOtherwiseReadsItsOwn() {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        List<Column> swapped = new ArrayList<>(SCHEMA.columns());
        swapped.set(1, new Column("absent", SCHEMA.type(1)));
        swapped.set(13, new Column("big", SCHEMA.type(13)));
        List<List<Object>> rows = new ArrayList<>();
        new CachingSplitReader(reads, cache).readBatches(split(), new Schema(swapped), ParquetColumnsTest.all(),
                GroupFilter.NONE, batch -> {
                    StoredVectors.rows(batch, ParquetColumnsTest.TYPES, SCHEMA.size()).forEach(r -> rows.add(Arrays.asList(r)));
                    return true;
                });
        for (int i = 0; i < ROWS; i++) {
            Object[] e = ParquetColumnsTest.expected(i);
            assertEquals(Arrays.asList(null, e[1]), Arrays.asList(rows.get(i).get(1), rows.get(i).get(13)), "row " + i);
        }
        assertEquals(2, reads.splitsRead);
    }

    /** The service may no longer read a file whose permissions were narrowed: what it kept is not read either. */
    @Test
    void aFileWhosePermissionsChangedIsReadAgain() throws Exception {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        FileTime modified = Files.getLastModifiedTime(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
        Files.setLastModifiedTime(file, modified);
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(2, reads.splitsRead);
    }

    @Test
    void groupsTheFiltersRuleOutAreSkippedByTheRangesKept() {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        // id < 2048 holds for no row a group whose least id is 2048 or more holds: those groups go unread
        List<List<Object>> rows = read(ParquetColumnsTest.all(), ranges -> ranges.has(0) && ranges.max(0) < 2048);
        assertEquals(expectedRows(2048), rows);
        assertEquals(1, reads.splitsRead);
    }

    /**
     * A first read that the file's own ranges narrow keeps nothing (the row groups they skipped
     * are not read); one given equalities keeps the split where no row group was skipped by them,
     * a Parquet file's bloom filters answering through the group filter, whose skips the read sees.
     */
    @Test
    void onlyAReadOfEveryRowOfTheSplitKeepsIt() {
        List<List<Object>> firstGroup = read(ParquetColumnsTest.all(), ranges -> ranges.has(0) && ranges.min(0) > 0);
        assertTrue(firstGroup.size() > 0 && firstGroup.size() < ROWS, firstGroup.size() + " rows");
        assertEquals(expectedRows(0).subList(0, firstGroup.size()), firstGroup);
        assertEquals(0, cache.bytes());
        GroupFilter equality = new GroupFilter() {
            @Override
            public boolean test(org.oooengine.core.fragment.ColumnRanges ranges) {
                return false; // what a file's bloom filters say of a value every group may hold
            }

            @Override
            public List<Equality> equalities() {
                return List.of(new Equality(5, "name-3"));
            }
        };
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), equality));
        assertTrue(cache.bytes() > 0, "no row group skipped: kept");
        assertEquals(2, reads.splitsRead);
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), equality), "kept, read without the file");
        assertEquals(2, reads.splitsRead);
    }

    @Test
    void aDamagedEntryIsDroppedAndTheSplitReadFromItsFileAfterTheRowsHandedOn() throws Exception {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        try (Stream<Path> kept = Files.list(dir.resolve("cache"))) {
            for (Path f : kept.toList()) {
                try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                    long at = raf.length() * 3 / 5; // in the chunks of a later group, before the footer
                    raf.seek(at);
                    int b = raf.read();
                    raf.seek(at);
                    raf.write(b ^ 0x5A);
                }
            }
        }
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(2, reads.splitsRead, "read from its file again");
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(3, reads.splitsRead, "kept again as it was read");
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(3, reads.splitsRead);
    }

    @Test
    void aReadStoppedEarlyKeepsNothing() {
        CachingSplitReader reader = new CachingSplitReader(reads, cache);
        int[] batches = {0};
        reader.readBatches(split(), SCHEMA, ParquetColumnsTest.all(), GroupFilter.NONE, batch -> ++batches[0] < 2);
        assertEquals(2, batches[0]);
        assertEquals(0, cache.bytes());
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(2, reads.splitsRead);
    }

    @Test
    void theLeastRecentlyReadGoFirstWithinTheBound() throws Exception {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        long one = cache.bytes();
        cache.close();
        cache = SplitCache.open(dir.resolve("small"), one + one / 2);
        Path other = dir.resolve("u.parquet");
        ParquetColumnsTest.write(other, ParquetProperties.WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, ROWS);
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        Path first = file;
        file = other;
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        assertTrue(cache.bytes() <= one + one / 2, cache.bytes() + " bytes kept of at most " + (one + one / 2));
        file = first;
        int before = reads.splitsRead;
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(before + 1, reads.splitsRead, "the first file's columns went to make room");
    }

    @Test
    void keptAcrossAReopeningInFilesOfTheServiceAlone() throws Exception {
        read(ParquetColumnsTest.all(), GroupFilter.NONE);
        long bytes = cache.bytes();
        cache.close();
        Path half = dir.resolve("cache").resolve("0123.col.partial");
        Files.writeString(half, "a crash left this");
        cache = SplitCache.open(dir.resolve("cache"), 64L << 20);
        assertFalse(Files.exists(half));
        assertEquals(bytes, cache.bytes());
        assertEquals(expectedRows(0), read(ParquetColumnsTest.all(), GroupFilter.NONE));
        assertEquals(1, reads.splitsRead);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("cache"))));
        try (Stream<Path> kept = Files.list(dir.resolve("cache"))) {
            for (Path f : kept.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
            }
        }
    }

    private FileReads.Split split() {
        return new FileReads.Split(new org.apache.hadoop.fs.Path(file.toUri()).toString(), 0, Long.MAX_VALUE / 2,
                new FileReads.Layout("parquet", HiveText.FIELD_DELIMITER, HiveText.NULL), List.of(), List.of(), "n1");
    }

    /** The split's rows as the cache hands them on, as lists (arrays compare by identity). */
    private List<List<Object>> read(boolean[] wanted, GroupFilter skip) {
        List<List<Object>> rows = new ArrayList<>();
        new CachingSplitReader(reads, cache).readBatches(split(), SCHEMA, wanted, skip, batch -> {
            StoredVectors.rows(batch, ParquetColumnsTest.TYPES, SCHEMA.size()).forEach(r -> rows.add(Arrays.asList(r)));
            return true;
        });
        return rows;
    }

    /** The rows from {@code first} on, as lists (arrays compare by identity). */
    private static List<List<Object>> expectedRows(int first) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = first; i < ROWS; i++) {
            rows.add(Arrays.asList(ParquetColumnsTest.expected(i)));
        }
        return rows;
    }
}
