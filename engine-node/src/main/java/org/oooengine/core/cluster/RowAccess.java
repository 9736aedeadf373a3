package org.oooengine.core.cluster;

import java.util.List;

/**
 * One transaction's access to the rows of tables on the cluster's nodes, keys and rows as bytes:
 * what a stored procedure's body needs, whichever engine keeps the rows ({@link
 * DistributedTransaction} on the nodes' transactional tables, or a baseline). A conflict is a
 * {@link org.oooengine.core.txn.TransactionAbortedException}: run the transaction again.
 */
public interface RowAccess {
    /** The row under {@code key} of {@code table} on {@code node}, or null; sees this transaction's writes. */
    byte[] get(String node, String table, byte[] key);

    /** Writes {@code key} (and {@code row}, unless a delete) of {@code table} on {@code node}, as {@code mode} says. */
    void write(String node, String table, TransactionalWrite mode, byte[] key, byte[] row);

    /** The first {@code limit} rows of {@code table} on {@code node} with {@code from <= key < to} (null: open), in key order. */
    List<DistributedTransaction.Row> scan(String node, String table, byte[] from, byte[] to, int limit);

    /** Commits on every node reached, or on none. */
    long commit();

    /** Aborts on every node reached; safe to call more than once. */
    void abort();

    /** The nodes this transaction reached, by name. */
    List<String> nodes();
}
