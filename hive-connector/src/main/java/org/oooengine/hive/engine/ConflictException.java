package org.oooengine.hive.engine;

import org.oooengine.core.sql.SqlException;

/**
 * A statement's transaction met a concurrent one and was rolled back — at a read on a node (a row
 * stayed locked by another's commit) or at its own commit — so running it again from scratch may
 * succeed: {@link StatementTransaction} does, within its attempts. SQLSTATE 40001.
 */
public final class ConflictException extends SqlException {
    public ConflictException(String message, Throwable cause) {
        super(SERIALIZATION_FAILURE, message, cause);
    }
}
