package org.oooengine.core.storage;

import java.nio.file.Path;

/** A page failed its checks. Names the file, the page number and what did not match. */
public final class PageCorruptedException extends DataCorruptedException {
    private final long pageNo;

    public PageCorruptedException(Path file, long pageNo, String detail) {
        super(file, "corrupt page " + pageNo + " in " + file + ": " + detail);
        this.pageNo = pageNo;
    }

    public long pageNo() {
        return pageNo;
    }
}
