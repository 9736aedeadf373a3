package org.oooengine.core.cluster;

/**
 * The node deciding a two-phase commit could not be reached while it decided: the transaction
 * committed or aborted everywhere, but which is known only when that node answers again.
 */
public final class CommitOutcomeUnknownException extends RuntimeException {
    public CommitOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
