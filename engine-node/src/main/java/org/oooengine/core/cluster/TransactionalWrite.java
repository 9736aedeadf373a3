package org.oooengine.core.cluster;

/**
 * How a write of a transaction treats its key on a transactional table: insert it (the key must not
 * exist: a constraint violation otherwise), update it (only if it exists), put it (insert or
 * replace), delete it (if it exists). All but put read the key, so the check is serializable.
 */
public enum TransactionalWrite { INSERT, UPDATE, PUT, DELETE }
