package org.oooengine.core.tpcc;

import java.util.function.Predicate;

/**
 * The nine TPC-C tables as a transaction's body reads and writes them: rows of stored values in
 * {@link TpccSchema}'s column order, found by primary key or by a prefix of it, or by a prefix of a
 * secondary index ({@code customer_by_name}, {@code orders_by_customer}). One node's B+trees
 * written in place ({@link TpccDatabase}) and one transaction on the cluster's transactional
 * tables both are.
 */
public interface TpccTables {
    /** The row under {@code key}, or null. */
    Object[] get(String table, Object... key);

    /** Adds a row whose key is new. */
    void insert(String table, Object[] row);

    /** Replaces the row of {@code row}'s key. */
    void update(String table, Object[] row);

    /** Deletes the row under {@code key}, if there is one. */
    void delete(String table, Object... key);

    /** The rows whose key starts with {@code prefix}, in key order, while {@code visitor} says go on. */
    void scan(String table, Object[] prefix, Predicate<Object[]> visitor);

    /** The rows whose entry in {@code index} starts with {@code prefix}, in the index's order, while {@code visitor} says go on. */
    void scanIndex(String table, String index, Object[] prefix, Predicate<Object[]> visitor);
}
