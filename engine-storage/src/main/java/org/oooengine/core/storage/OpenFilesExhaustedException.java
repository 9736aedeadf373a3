package org.oooengine.core.storage;

import java.lang.management.ManagementFactory;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/** A file could not be opened because the process holds as many open files as it may (EMFILE, ENFILE). */
public final class OpenFilesExhaustedException extends FileSystemException {
    private final String message;

    OpenFilesExhaustedException(Path file, int storeFiles, FileSystemException cause) {
        super(file.toString());
        initCause(cause);
        this.message = "cannot open " + file + ": " + cause.getReason() + " (" + limits() + "; " + storeFiles
                + " of them table files of opened stores); raise the limit of open files or hold fewer tables";
    }

    /** Whether opening a file failed for want of descriptors, of the process or of the system. */
    static boolean isExhaustion(FileSystemException e) {
        String reason = e.getReason();
        return reason != null && (reason.contains("Too many open files") || reason.contains("file table overflow"));
    }

    /** The process's limit of open files and how many it has open, as far as the JVM can tell. */
    static String limits() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return "the process may hold " + os.getMaxFileDescriptorCount() + " open files (ulimit -n) and holds "
                    + os.getOpenFileDescriptorCount();
        }
        return "the process's limit of open files is reached";
    }

    @Override
    public String getMessage() {
        return message;
    }
}
