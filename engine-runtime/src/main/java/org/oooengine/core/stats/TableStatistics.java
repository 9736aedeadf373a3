package org.oooengine.core.stats;

import java.util.List;
import java.util.Map;

/**
 * Statistics of a table partition (as a node collects them) or of a whole table (merged).
 *
 * @param table   table name
 * @param rows    rows
 * @param bytes   bytes on disk of its clustered tree
 * @param columns one entry per column, in schema order
 * @param indexBytes bytes on disk of each secondary index's leaves, by index name
 */
public record TableStatistics(String table, long rows, long bytes, List<ColumnStatistics> columns,
                              Map<String, Long> indexBytes) {
    public TableStatistics {
        columns = List.copyOf(columns);
        // statistics written before index sizes were kept have none
        indexBytes = indexBytes == null ? Map.of() : Map.copyOf(indexBytes);
    }

    public ColumnStatistics column(String name) {
        return columns.stream().filter(c -> c.column().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("no statistics for column " + table + "." + name));
    }
}
