package org.oooengine.hive.files;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.oooengine.core.settings.TableProperties;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The statistics ANALYZE TABLE keeps of a table held in files, as table properties
 * ({@link TableProperties#STATISTICS}), so that every catalog keeps them as it keeps the table:
 * the embedded one in its file, a metastore in the table's parameters. Where the engine kept none,
 * the metastore's own column statistics (Hive's) and Spark's of a table it analyzed
 * ({@code spark.sql.statistics.*}) are read.
 */
public final class FileTableStatistics {
    private static final String PREFIX = TableProperties.STATISTICS.name();
    private static final String ROWS = PREFIX + "rows";
    private static final String BYTES = PREFIX + "bytes";
    private static final String SPARK_COLUMN = "spark.sql.statistics.colStats.";
    /** Not kept anywhere: the metastore's column statistics, as its catalog hands them over with the table. */
    private static final String METASTORE_PREFIX = "hive.stats.";

    private FileTableStatistics() {
    }

    /** One column's counts: its distinct values (estimated) and its NULLs. */
    public record ColumnCounts(long distinct, long nulls) {
    }

    /** The properties that record {@code rows} counted in files of {@code bytes}, and each column's counts. */
    public static Map<String, String> properties(long rows, long bytes, Map<String, ColumnCounts> columns) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(ROWS, Long.toString(rows));
        out.put(BYTES, Long.toString(bytes));
        columns.forEach((column, counts) -> {
            out.put(PREFIX + column + ".distinct", Long.toString(counts.distinct()));
            out.put(PREFIX + column + ".nulls", Long.toString(counts.nulls()));
        });
        return out;
    }

    /** Whether a table property is one of these statistics (SHOW CREATE TABLE leaves them out). */
    public static boolean isStatistic(String property) {
        return property.startsWith(PREFIX) || property.startsWith(METASTORE_PREFIX);
    }

    /** The property under which a metastore catalog hands over the distinct values Hive counted in {@code column}. */
    public static String metastoreDistinct(String column) {
        return METASTORE_PREFIX + column + ".distinct";
    }

    /**
     * The rows the table's files hold now, from the count ANALYZE made, scaled by how their bytes
     * changed since ({@code bytesNow}): exact while the files stay as they were.
     */
    public static OptionalLong rows(TableInfo table, long bytesNow) {
        OptionalLong rows = number(table, ROWS);
        OptionalLong bytes = number(table, BYTES);
        if (rows.isEmpty() || bytes.isEmpty()) {
            return OptionalLong.empty();
        }
        if (bytes.getAsLong() == bytesNow || bytes.getAsLong() == 0) {
            return rows;
        }
        return OptionalLong.of(Math.round(rows.getAsLong() * ((double) bytesNow / bytes.getAsLong())));
    }

    /**
     * The distinct values of {@code column} as this engine's ANALYZE counted them, else as the
     * metastore keeps them (Hive's), else as Spark's ANALYZE did; empty when none did.
     */
    public static OptionalDouble distinct(TableInfo table, String column) {
        for (String property : List.of(PREFIX + column + ".distinct", metastoreDistinct(column),
                SPARK_COLUMN + column + ".distinctCount")) {
            OptionalLong counted = number(table, property);
            if (counted.isPresent()) {
                return OptionalDouble.of(counted.getAsLong());
            }
        }
        return OptionalDouble.empty();
    }

    private static OptionalLong number(TableInfo table, String property) {
        String v = table.properties().get(property);
        if (v == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(v.strip()));
        } catch (NumberFormatException notOurs) {
            return OptionalLong.empty(); // a property someone else set by hand: no statistic
        }
    }
}
