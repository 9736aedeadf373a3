package org.oooengine.hive.files;

import org.apache.hadoop.fs.Path;

/**
 * Which files a table held in files may have read: judged file by file, each time a statement
 * lists them, so that a symlink or a file system the operator did not allow is refused however
 * it got there.
 */
@FunctionalInterface
public interface FileAccess {
    /** Every file: for a reader whose locations come from a trusted place only (tests, tools). */
    FileAccess ANY = (table, file) -> { };

    /** Throws an exception naming {@code table} and {@code file} when it may not be read. */
    void check(String table, Path file);
}
