package org.oooengine.core.fragment;

/**
 * An operator would write more to disk than its query may, or than the place it runs keeps for the
 * spill files of all its queries; the message names the operator, the place and the cap. The query
 * fails (SQLSTATE 53100) and its spill files are removed.
 */
public final class SpillLimitExceededException extends RuntimeException {
    public SpillLimitExceededException(String message) {
        super(message);
    }
}
