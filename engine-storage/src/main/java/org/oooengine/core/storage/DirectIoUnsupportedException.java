package org.oooengine.core.storage;

import java.nio.file.Path;

/** The filesystem refused O_DIRECT (tmpfs and some overlay filesystems do). */
public final class DirectIoUnsupportedException extends StorageException {
    public DirectIoUnsupportedException(Path file, Throwable cause) {
        super("direct I/O (O_DIRECT) is not supported for " + file + " (" + cause.getMessage()
                + "); put the store on a disk-backed filesystem such as ext4 or xfs, or run without direct I/O", cause);
    }
}
