package org.oooengine.optimizer.catalog;

import java.util.List;
import java.util.Map;

/**
 * A table in the catalog: where its rows live ({@code storage}: the cluster table name, or a
 * file location for external tables), its columns, primary key, the leading columns of its
 * secondary indexes (what an index join can probe or range over), and properties.
 *
 * @param primaryKey the key the nodes store and partition the rows by, which they enforce; empty for a table in files
 * @param reliedKey  a key no two rows share that the engine does not enforce but was told to rely on: a table in
 *                   files declared with {@code PRIMARY KEY (...) DISABLE NOVALIDATE RELY}, as Hive's optimizer
 *                   trusts it; empty otherwise
 */
public record TableInfo(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                        List<String> indexedColumns, String storage, Map<String, String> properties, String comment,
                        List<String> reliedKey) {
    public TableInfo {
        reliedKey = reliedKey == null ? List.of() : List.copyOf(reliedKey);
    }

    /** A table without a relied-on key beside its primary key. */
    public TableInfo(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                     List<String> indexedColumns, String storage, Map<String, String> properties, String comment) {
        this(database, name, columns, primaryKey, indexedColumns, storage, properties, comment, List.of());
    }

    /** A table without secondary indexes. */
    public TableInfo(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                     String storage, Map<String, String> properties, String comment) {
        this(database, name, columns, primaryKey, List.of(), storage, properties, comment);
    }

    /** Whether an index join can look rows up by {@code column}: the primary key's first column or an index's. */
    public boolean probeable(String column) {
        return (!primaryKey.isEmpty() && primaryKey.get(0).equals(column)) || indexedColumns.contains(column);
    }

    /**
     * Columns whose values no two rows share, for what follows from that (a GROUP BY on them has a
     * row per group; columns of the same row depend on them): the primary key, or the relied-on key.
     * Not where the rows are: only {@link #primaryKey} says how the nodes partition them.
     */
    public List<String> uniqueKey() {
        return primaryKey.isEmpty() ? reliedKey : primaryKey;
    }

    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }
}
