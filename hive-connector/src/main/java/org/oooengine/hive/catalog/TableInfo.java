package org.oooengine.hive.catalog;

import java.util.List;
import java.util.Map;
import org.oooengine.hive.sql.ResultColumn;

/**
 * A table in the catalog: where its rows live ({@code storage}: the cluster table name, or a
 * file location for external tables), its columns, primary key and properties.
 */
public record TableInfo(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                        String storage, Map<String, String> properties, String comment) {
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }
}
