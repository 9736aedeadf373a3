package org.oooengine.core.storage;

/** Unchecked failure of the storage layer, with a message that names the file involved. */
public class StorageException extends RuntimeException {
    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
