package org.oooengine.hive.metastore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsData;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.thrift.TException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.hive.files.FileTableStatistics;

/**
 * The distinct values the metastore keeps per column of a table: what Hive's ANALYZE TABLE ...
 * FOR COLUMNS counted, or Hive gathered itself as it wrote the table; for a partitioned table, its
 * fullest partition's (of up to {@value #MAX_PARTITIONS}). They become the table's
 * {@link FileTableStatistics#metastoreDistinct} properties for the planner.
 */
final class HiveColumnStatistics {
    private static final Logger LOG = LogManager.getLogger(HiveColumnStatistics.class);
    /** Whose statistics: Hive's, not another engine's that shares the metastore. */
    private static final String ENGINE = "hive";
    /** Beyond this many partitions a table's statistics cost more to fetch per statement than they save. */
    private static final int MAX_PARTITIONS = 1000;

    private HiveColumnStatistics() {
    }

    /** The properties that give the planner {@code t}'s columns' distinct values; none when the metastore keeps none. */
    static Map<String, String> of(IMetaStoreClient client, Table t) {
        List<String> columns = t.getSd() == null ? List.of() : t.getSd().getCols().stream().map(FieldSchema::getName).toList();
        if (columns.isEmpty()) {
            return Map.of();
        }
        try {
            Map<String, Long> distinct = new LinkedHashMap<>();
            if (t.getPartitionKeys() == null || t.getPartitionKeys().isEmpty()) {
                client.getTableColumnStatistics(t.getDbName(), t.getTableName(), columns, ENGINE)
                        .forEach(s -> distinct.put(s.getColName(), distinct(s.getStatsData())));
            } else {
                List<String> partitions = client.listPartitionNames(t.getDbName(), t.getTableName(), (short) -1);
                if (partitions.isEmpty() || partitions.size() > MAX_PARTITIONS) {
                    return Map.of();
                }
                // a table holds at least the values of its fullest partition: the bound Hive's planner
                // also takes when the partitions' sketches are not kept
                client.getPartitionColumnStatistics(t.getDbName(), t.getTableName(), partitions, columns, ENGINE).values()
                        .forEach(part -> part.forEach(s -> distinct.merge(s.getColName(), distinct(s.getStatsData()), Math::max)));
            }
            Map<String, String> out = new LinkedHashMap<>();
            distinct.forEach((column, values) -> {
                if (values > 0) {
                    out.put(FileTableStatistics.metastoreDistinct(column.toLowerCase(Locale.ROOT)), Long.toString(values));
                }
            });
            return out;
        } catch (TException | RuntimeException e) {
            // planned without them, as a table nobody analyzed is
            LOG.debug("no column statistics of {}.{}: {}", t.getDbName(), t.getTableName(), e.getMessage());
            return Map.of();
        }
    }

    /** The distinct values a column's statistics give; 0 for none (booleans and binaries keep no count). */
    private static long distinct(ColumnStatisticsData d) {
        return switch (d.getSetField()) {
            case LONG_STATS -> d.getLongStats().getNumDVs();
            case DOUBLE_STATS -> d.getDoubleStats().getNumDVs();
            case STRING_STATS -> d.getStringStats().getNumDVs();
            case DECIMAL_STATS -> d.getDecimalStats().getNumDVs();
            case DATE_STATS -> d.getDateStats().getNumDVs();
            case TIMESTAMP_STATS -> d.getTimestampStats().getNumDVs();
            default -> 0;
        };
    }
}
