package org.oooengine.core.cluster;

import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Predicate;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;

/**
 * Reads a split of a file into rows: the one way a node reaches files outside its store. The
 * nodes know no file format or file system themselves; the implementation on their class path
 * (found by {@link ServiceLoader}, as {@code META-INF/services} names it) does.
 */
public interface SplitReader {
    /**
     * Hands {@code page} the rows of {@code split} a page at a time, until it returns false or the
     * rows run out: each row holds the columns of {@code fileSchema} as stored values, of which
     * those not {@code wanted} may be left null, then the split's partition values. A row belongs to the split whose byte range holds
     * where it starts (a text line, an ORC stripe, a Parquet row group), so the splits of a file
     * read each row once. Fails with an {@link IllegalStateException} naming the file, and where
     * in it, when it cannot be read as the schema says. Returns the bytes it read from the file.
     */
    long read(FileReads.Split split, Schema fileSchema, boolean[] wanted, Predicate<List<Object[]>> page);

    /**
     * As {@link #read}, the rows as batches of vectors ({@link StoredVectors}): one per column of
     * {@code fileSchema}, null for those not {@code wanted}; the split's partition values are not
     * in them. A group of rows (a Parquet row group, an ORC stripe) whose columns' ranges, as the
     * file's statistics give them, {@code skip} accepts need not be read. A reader that decodes
     * column by column overrides this; by default the rows read are gathered into vectors.
     */
    default long readBatches(FileReads.Split split, Schema fileSchema, boolean[] wanted, GroupFilter skip,
                             Predicate<Batch> batches) {
        return read(split, fileSchema, wanted, page -> batches.test(StoredVectors.batch(page, fileSchema, wanted)));
    }

    /**
     * What identifies the contents of {@code split}'s file as it is now (say its length and time
     * of last modification), so that what was read of it may be kept and read again until the file
     * changes; null where nothing tells (nothing is kept). Fails as {@link #read} does when the
     * file cannot be found.
     */
    default String version(FileReads.Split split) {
        return null;
    }

    /**
     * The bytes of files' columns this reader has read so far from a cache of what it read of them
     * before, instead of the files; 0 for a reader that keeps none.
     */
    default long bytesCached() {
        return 0;
    }

    /** The reader on the class path; fails, saying so, when there is none. */
    static SplitReader installed() {
        return Installed.READER.orElseThrow(() -> new IllegalStateException(
                "this node reads no files: no " + SplitReader.class.getName() + " on its class path"));
    }

    /** Loaded once, the first time a node reads a file. */
    final class Installed {
        private static final java.util.Optional<SplitReader> READER = ServiceLoader.load(SplitReader.class).findFirst();

        private Installed() {
        }
    }
}
