package org.oooengine.core.storage;

import java.nio.file.Path;

/** Stored data failed its checks: a page of a tree, a chunk of a columnar copy. Names the file. */
public class DataCorruptedException extends StorageException {
    private final Path file;

    public DataCorruptedException(Path file, String message) {
        super(message);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
