package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.antlr.runtime.CommonToken;
import org.antlr.runtime.CommonTokenStream;
import org.apache.hadoop.hive.ql.parse.ANTLRNoCaseStringStream;
import org.apache.hadoop.hive.ql.parse.HiveLexer;
import org.oooengine.hive.catalog.CatalogTable;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.hive.files.FileTableStatistics;
import org.oooengine.hive.files.PartitionDirectories;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * {@code SHOW CREATE TABLE}: the statement that makes the table (or view) again as it is, one line
 * a row as Hive prints it — its columns with their comments, its primary key and foreign keys,
 * comment, partition columns, row format, file format, location (an external table's) and properties. Names are quoted, so any name reads back.
 */
final class ShowCreateTable {
    private ShowCreateTable() {
    }

    static List<String> table(TableInfo t, TableConstraints constraints) {
        List<String> lines = new ArrayList<>();
        Map<String, String> properties = new LinkedHashMap<>(t.properties());
        // a table held in files: its files' format, its partition columns (its last), its location
        String files = properties.remove(FileLayout.FORMAT);
        List<String> keys = PartitionDirectories.keys(t);
        properties.remove(FileLayout.PARTITION_KEYS);
        lines.add("CREATE " + (files != null ? "EXTERNAL " : "") + "TABLE " + quoted(t.database()) + "." + quoted(t.name()) + " (");
        List<ResultColumn> columns = t.columns().subList(0, t.columns().size() - keys.size());
        List<String> items = new ArrayList<>();
        for (ResultColumn c : columns) {
            items.add(column(c));
        }
        List<String> key = constraints.declaredKey(t.primaryKey());
        if (!key.isEmpty()) {
            items.add("  " + named(constraints.primaryKeyName()) + "PRIMARY KEY (" + names(key)
                    + ") DISABLE NOVALIDATE" + (constraints.primaryKeyRely() ? " RELY" : ""));
        }
        for (TableConstraints.ForeignKey fk : constraints.foreignKeys()) {
            items.add("  " + named(fk.name()) + "FOREIGN KEY (" + names(fk.columns()) + ") REFERENCES "
                    + quoted(fk.database()) + "." + quoted(fk.table()) + " (" + names(fk.referenced())
                    + ") DISABLE NOVALIDATE" + (fk.rely() ? " RELY" : ""));
        }
        for (int i = 0; i < items.size(); i++) {
            lines.add(items.get(i) + (i < items.size() - 1 ? "," : ""));
        }
        lines.add(")");
        if (t.comment() != null && !t.comment().isEmpty()) {
            lines.add("COMMENT " + literal(t.comment()));
        }
        if (!keys.isEmpty()) {
            lines.add("PARTITIONED BY (" + String.join(", ", t.columns().subList(columns.size(), t.columns().size())
                    .stream().map(ShowCreateTable::column).map(String::strip).toList()) + ")");
        }
        String delimiter = properties.remove(FileLayout.FIELD_DELIMITER);
        if (delimiter != null) {
            lines.add("ROW FORMAT DELIMITED FIELDS TERMINATED BY " + literal(delimiter));
        }
        String format = files != null ? files : properties.remove(DdlAnalyzer.LOAD_FORMAT_PROPERTY);
        if (format != null) {
            lines.add("STORED AS " + switch (format) {
                case "orc" -> "ORC";
                case "parquet" -> "PARQUET";
                default -> "TEXTFILE";
            });
        }
        if (files != null) {
            lines.add("LOCATION " + literal(t.storage()));
        }
        properties.keySet().removeIf(FileTableStatistics::isStatistic); // what ANALYZE counted is no part of the definition
        if (!properties.isEmpty()) {
            lines.add("TBLPROPERTIES (");
            List<String> entries = properties.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> "  " + literal(e.getKey()) + "=" + literal(e.getValue())).toList();
            for (int i = 0; i < entries.size(); i++) {
                lines.add(entries.get(i) + (i < entries.size() - 1 ? "," : ""));
            }
            lines.add(")");
        }
        return lines;
    }

    private static String column(ResultColumn c) {
        return "  " + quoted(c.name()) + " " + c.type() + (c.comment() == null || c.comment().isEmpty() ? ""
                : " COMMENT " + literal(c.comment()));
    }

    /** A view: its columns as it names them, its comment and its query as written. */
    static List<String> view(CatalogView v) {
        List<String> lines = new ArrayList<>();
        lines.add("CREATE VIEW " + quoted(v.database()) + "." + quoted(v.name()) + " (");
        for (int i = 0; i < v.columns().size(); i++) {
            CatalogTable.ColumnEntry c = v.columns().get(i);
            lines.add("  " + quoted(c.name()) + (c.comment() == null || c.comment().isEmpty() ? ""
                    : " COMMENT " + literal(c.comment())) + (i < v.columns().size() - 1 ? "," : ""));
        }
        lines.add(")");
        if (!v.comment().isEmpty()) {
            lines.add("COMMENT " + literal(v.comment()));
        }
        lines.add("AS " + query(v.statement()));
        return lines;
    }

    /**
     * The query of a CREATE VIEW or ALTER VIEW ... AS statement: what follows its first {@code AS}
     * outside parentheses (a column list's comments are single tokens, so an {@code AS} in one is not met).
     */
    static String query(String statement) {
        CommonTokenStream tokens = new CommonTokenStream(new HiveLexer(new ANTLRNoCaseStringStream(statement)));
        tokens.fill();
        int depth = 0;
        for (Object o : tokens.getTokens()) {
            CommonToken t = (CommonToken) o;
            if (t.getType() == HiveLexer.LPAREN) {
                depth++;
            } else if (t.getType() == HiveLexer.RPAREN) {
                depth--;
            } else if (t.getType() == HiveLexer.KW_AS && depth == 0) {
                return statement.substring(t.getStopIndex() + 1).strip();
            }
        }
        throw new IllegalStateException("a view's statement without AS: " + statement);
    }

    private static String named(String constraint) {
        return constraint.isEmpty() ? "" : "CONSTRAINT " + quoted(constraint) + " ";
    }

    private static String names(List<String> columns) {
        return String.join(", ", columns.stream().map(ShowCreateTable::quoted).toList());
    }

    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** A string literal Hive reads back as {@code s}: quotes, backslashes and line breaks escaped. */
    static String literal(String s) {
        StringBuilder b = new StringBuilder("'");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\'' -> b.append("\\'");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case '\0' -> b.append("\\0");
                default -> b.append(c); // other control characters (a \001 delimiter) as they are: a literal may hold them
            }
        }
        return b.append('\'').toString();
    }
}
