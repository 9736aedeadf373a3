package org.oooengine.hive.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.hive.files.FileTableStatistics;
import org.oooengine.hive.sql.ddl.DdlStatement;

/**
 * ANALYZE TABLE over a table held in files, as Hive runs it: a query that counts the rows and,
 * per column asked for, its values and their distinct ones ({@code approx_count_distinct}, whose
 * sketches the nodes make of their own splits and one node merges), planned and run on the nodes
 * as any query is; its one row becomes the table's statistics.
 */
final class TableAnalysis {
    private TableAnalysis() {
    }

    /** The query that counts what {@code s} asks for. */
    static String query(DdlStatement.AnalyzeTable s) {
        StringBuilder sql = new StringBuilder("SELECT count(*)");
        for (String c : s.columns()) {
            sql.append(", count(").append(quoted(c)).append("), approx_count_distinct(").append(quoted(c)).append(')');
        }
        return sql.append(" FROM ").append(quoted(s.target().database())).append('.').append(quoted(s.target().name()))
                .toString();
    }

    /** The statistics {@link #query}'s row gives, the table's files holding {@code bytes}. */
    static Map<String, String> statistics(DdlStatement.AnalyzeTable s, Object[] row, long bytes) {
        long rows = (Long) row[0];
        Map<String, FileTableStatistics.ColumnCounts> columns = new LinkedHashMap<>();
        List<String> names = s.columns();
        for (int i = 0; i < names.size(); i++) {
            long values = (Long) row[1 + 2 * i];
            long distinct = (Long) row[2 + 2 * i];
            columns.put(names.get(i), new FileTableStatistics.ColumnCounts(distinct, rows - values));
        }
        return FileTableStatistics.properties(rows, bytes, columns);
    }

    private static String quoted(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }
}
