package org.oooengine.optimizer.catalog;

import java.util.List;
import java.util.Map;

/**
 * A table in the catalog: where its rows live ({@code storage}: the cluster table name, or a
 * file location for external tables), its columns, primary key, the leading columns of its
 * secondary indexes (what an index join can probe or range over), and properties.
 */
public record TableInfo(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                        List<String> indexedColumns, String storage, Map<String, String> properties, String comment) {
    /** A table without secondary indexes. */
    public TableInfo(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                     String storage, Map<String, String> properties, String comment) {
        this(database, name, columns, primaryKey, List.of(), storage, properties, comment);
    }

    /** Whether an index join can look rows up by {@code column}: the primary key's first column or an index's. */
    public boolean probeable(String column) {
        return (!primaryKey.isEmpty() && primaryKey.get(0).equals(column)) || indexedColumns.contains(column);
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
