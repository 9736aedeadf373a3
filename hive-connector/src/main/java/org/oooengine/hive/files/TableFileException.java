package org.oooengine.hive.files;

/** A table's files could not be read: the message names the file, and the line where there is one. */
public final class TableFileException extends RuntimeException {
    public TableFileException(String message, Throwable cause) {
        super(message, cause);
    }

    public TableFileException(String message) {
        super(message);
    }
}
