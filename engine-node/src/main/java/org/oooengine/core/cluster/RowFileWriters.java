package org.oooengine.core.cluster;

import java.util.List;
import java.util.ServiceLoader;
import org.oooengine.core.types.Schema;

/**
 * Writes rows into a new file: the one way a node writes files outside its store (a warehouse
 * table's INSERT). As with {@link SplitReader}, the nodes know no file format or file system
 * themselves; the implementation on their class path (found by {@link ServiceLoader}) does.
 */
public interface RowFileWriters {
    /**
     * Creates the file at {@code path} (a qualified Hadoop path) to hold rows of {@code schema} in
     * {@code layout}. Fails with an {@link IllegalStateException} naming the file when it exists,
     * its directory does not (a statement's staging directory is deleted when the statement ends:
     * a node still running then writes nothing more there) or it cannot be created.
     */
    RowFileWriter create(String path, FileReads.Layout layout, Schema schema);

    /** Deletes a file these writers completed (a statement that failed after); never fails. */
    void delete(String path);

    /** A file being written. */
    interface RowFileWriter {
        /** Appends rows of stored values, the schema's columns in order. */
        void write(List<Object[]> rows);

        /** Completes the file; returns its length in bytes. */
        long finish();

        /** Stops writing and deletes what was written; never fails. */
        void abort();
    }

    /** The writers on the class path; fails, saying so, when there are none. */
    static RowFileWriters installed() {
        return Installed.WRITERS.orElseThrow(() -> new IllegalStateException(
                "this node writes no files: no " + RowFileWriters.class.getName() + " on its class path"));
    }

    /** Loaded once, the first time a node writes a file. */
    final class Installed {
        private static final java.util.Optional<RowFileWriters> WRITERS =
                ServiceLoader.load(RowFileWriters.class).findFirst();

        private Installed() {
        }
    }
}
