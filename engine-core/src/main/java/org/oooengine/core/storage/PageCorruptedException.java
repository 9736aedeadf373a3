package org.oooengine.core.storage;

import java.nio.file.Path;

/** A page failed its checks. Names the file, the page number and what did not match. */
public final class PageCorruptedException extends StorageException {
    private final Path file;
    private final long pageNo;

    public PageCorruptedException(Path file, long pageNo, String detail) {
        super("corrupt page " + pageNo + " in " + file + ": " + detail);
        this.file = file;
        this.pageNo = pageNo;
    }

    public Path file() {
        return file;
    }

    public long pageNo() {
        return pageNo;
    }
}
