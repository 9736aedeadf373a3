package org.oooengine.core.fragment;

/** An operator would hold more than its query may where it runs; the message names the operator, the place and the amounts. */
public final class MemoryLimitExceededException extends RuntimeException {
    public MemoryLimitExceededException(String message) {
        super(message);
    }
}
