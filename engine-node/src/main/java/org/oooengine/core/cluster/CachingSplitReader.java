package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.fragment.ColumnRanges;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;

/**
 * Reads splits through a {@link SplitCache}: the columns of a split it holds for the file as it is
 * now are read from there, the groups of rows the scan's filters rule out by the ranges kept with
 * them skipped; the others are read from the file by {@code files}, and kept as they go by where
 * the read is of every row of the split: no row group was skipped, by its ranges or by what a
 * Parquet bloom filter says of the scan's equalities (an equality of a value every group may
 * hold, as {@code l_returnflag = 'R'}, keeps the split), and an ORC file was given no equality to
 * judge its row groups by (its row indexes skip them unseen). Neither bloom filters nor row
 * indexes are kept: a scan whose columns are kept reads them, skipping groups by their ranges only.
 * A kept column that cannot be read is dropped and the split read from its file, after the rows
 * already handed on.
 */
public final class CachingSplitReader implements SplitReader {
    private static final Logger LOG = LogManager.getLogger(CachingSplitReader.class);

    private final SplitReader files;
    private final SplitCache cache;
    /** The bytes of the chunks read from the cache. */
    private final java.util.concurrent.atomic.LongAdder bytesCached = new java.util.concurrent.atomic.LongAdder();

    public CachingSplitReader(SplitReader files, SplitCache cache) {
        this.files = files;
        this.cache = cache;
    }

    @Override
    public long read(FileReads.Split split, Schema fileSchema, boolean[] wanted, Predicate<List<Object[]>> page) {
        return files.read(split, fileSchema, wanted, page);
    }

    @Override
    public long bytesCached() {
        return bytesCached.sum();
    }

    @Override
    public String version(FileReads.Split split) {
        return files.version(split);
    }

    @Override
    public long readBatches(FileReads.Split split, Schema fileSchema, boolean[] wanted, GroupFilter skip,
                            Predicate<Batch> batches) {
        List<Integer> columns = new ArrayList<>();
        for (int c = 0; c < wanted.length; c++) {
            if (wanted[c]) {
                if (!StoredVectors.holds(fileSchema.type(c))) {
                    return files.readBatches(split, fileSchema, wanted, skip, batches); // an array or a map
                }
                columns.add(c);
            }
        }
        String version = columns.isEmpty() ? null : files.version(split);
        if (version == null) {
            return files.readBatches(split, fileSchema, wanted, skip, batches);
        }
        FileReads.Layout l = split.layout();
        String layout = l.format() + " " + (int) l.fieldDelimiter() + " " + l.nullText();
        List<SplitCache.Key> keys = columns.stream().map(c -> new SplitCache.Key(split.path(), split.start(),
                split.length(), version, c, fileSchema.columns().get(c).name().toLowerCase(java.util.Locale.ROOT),
                fileSchema.type(c), layout)).toList();
        List<SplitCache.Held> held = cache.acquire(keys);
        if (held == null) {
            // Parquet's bloom filters answer through the group filter, whose skips the read sees; ORC's indexes do not
            boolean skipsUnseen = !skip.equalities().isEmpty() && l.format().equals("orc");
            return skipsUnseen ? files.readBatches(split, fileSchema, wanted, skip, batches)
                    : readKeeping(split, fileSchema, wanted, skip, keys, batches);
        }
        try {
            return readKept(held, columns, split, fileSchema, wanted, skip, batches, keys);
        } finally {
            held.forEach(SplitCache.Held::close);
        }
    }

    /** Reads the split's wanted columns from the cache; no bytes from the file (unless one had to be read again). */
    private long readKept(List<SplitCache.Held> held, List<Integer> columns, FileReads.Split split, Schema fileSchema,
                          boolean[] wanted, GroupFilter skip, Predicate<Batch> batches, List<SplitCache.Key> keys) {
        ColumnarFile first = held.get(0).file();
        long passed = 0; // the split's rows handed on or skipped
        for (int g = 0; g < first.groups(); g++) {
            int rows = first.rows(g);
            Vector[] vectors = new Vector[fileSchema.size()];
            try {
                for (SplitCache.Held h : held) {
                    if (h.file().groups() != first.groups() || h.file().rows(g) != rows) {
                        throw new DataCorruptedException(h.file().path(), h.file().path() + " holds other rows than "
                                + first.path());
                    }
                }
                if (skip != GroupFilter.NONE && skip.test(ranges(held, columns, g))) {
                    passed += rows;
                    continue;
                }
                for (int i = 0; i < columns.size(); i++) {
                    ColumnarFile file = held.get(i).file();
                    vectors[columns.get(i)] = file.read(g, 0);
                    bytesCached.add(file.chunkBytes(g, 0));
                }
            } catch (DataCorruptedException e) { // a checksum that does not match among them
                LOG.warn("the cache of files' splits could not read {}: {}; reading it from its file", split, e.getMessage());
                cache.discard(keys);
                if (!keys.get(0).version().equals(files.version(split))) {
                    throw new IllegalStateException(split + " changed while it was read; run the statement again");
                }
                return readAfter(passed, split, fileSchema, wanted, batches);
            }
            passed += rows;
            if (!batches.test(Batch.of(vectors, rows))) {
                break;
            }
        }
        return 0;
    }

    /** The ranges of group {@code g} of the columns read, as the cache's files keep them. */
    private static ColumnRanges ranges(List<SplitCache.Held> held, List<Integer> columns, int g) {
        return new ColumnRanges() {
            @Override
            public boolean has(int column) {
                int i = columns.indexOf(column);
                return i >= 0 && held.get(i).file().hasMinMax(g, 0);
            }

            @Override
            public long min(int column) {
                return held.get(columns.indexOf(column)).file().min(g, 0);
            }

            @Override
            public long max(int column) {
                return held.get(columns.indexOf(column)).file().max(g, 0);
            }
        };
    }

    /** Reads the split from its file, handing on its rows after the first {@code passed}. */
    private long readAfter(long passed, FileReads.Split split, Schema fileSchema, boolean[] wanted,
                           Predicate<Batch> batches) {
        long[] left = {passed};
        return files.readBatches(split, fileSchema, wanted, GroupFilter.NONE, batch -> {
            if (left[0] == 0) {
                return batches.test(batch);
            }
            if (batch.size() <= left[0]) {
                left[0] -= batch.size();
                return true;
            }
            int from = (int) left[0];
            left[0] = 0;
            int[] rest = Arrays.copyOfRange(batch.positions(), from, batch.size());
            return batches.test(batch.withPositions(rest, rest.length));
        });
    }

    /**
     * Reads the split from its file, keeping the wanted columns not kept yet as it goes, unless the
     * read stops early or the file's ranges skip a group of its rows.
     */
    private long readKeeping(FileReads.Split split, Schema fileSchema, boolean[] wanted, GroupFilter skip,
                             List<SplitCache.Key> keys, Predicate<Batch> batches) {
        List<SplitCache.Writer> writers = new ArrayList<>();
        for (SplitCache.Key key : keys) {
            SplitCache.Writer w = cache.write(key);
            if (w != null) {
                writers.add(w);
            }
        }
        if (writers.isEmpty()) { // kept by now, or being kept by another read
            return files.readBatches(split, fileSchema, wanted, skip, batches);
        }
        boolean[] partial = {false};
        GroupFilter skipSeen = new GroupFilter() {
            @Override
            public boolean test(ColumnRanges ranges) {
                boolean skipped = skip.test(ranges);
                partial[0] |= skipped;
                return skipped;
            }

            @Override
            public List<Equality> equalities() {
                return skip.equalities();
            }
        };
        try {
            long bytes = files.readBatches(split, fileSchema, wanted, skipSeen, batch -> {
                if (!partial[0]) {
                    writers.forEach(w -> w.add(batch));
                }
                boolean more = batches.test(batch);
                partial[0] |= !more;
                return more;
            });
            // rows of a file written again while it was read are not kept under the version before
            boolean whole = !partial[0] && keys.get(0).version().equals(files.version(split));
            writers.forEach(whole ? SplitCache.Writer::publish : SplitCache.Writer::abandon);
            return bytes;
        } catch (RuntimeException | Error e) {
            writers.forEach(SplitCache.Writer::abandon);
            throw e;
        }
    }
}
