package org.oooengine.core.txn;

/** A WAL file this build cannot read: not a WAL file at all, or written by a newer format version. */
public final class WalFormatException extends RuntimeException {
    public WalFormatException(String message) {
        super(message);
    }
}
