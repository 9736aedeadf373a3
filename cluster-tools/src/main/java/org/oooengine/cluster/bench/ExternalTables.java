package org.oooengine.cluster.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.TypeKind;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * A benchmark's tables as external tables over files another tool wrote, one directory per table
 * ({@code <dir>/<table>/...}), in a database of their own, made afresh: the same queries then run
 * over the files as over the nodes' own tables.
 */
public final class ExternalTables {
    private ExternalTables() {
    }

    /**
     * Creates {@code database} anew with an external table over {@code dir}/{@code <table>} in
     * {@code format} for each of {@code tables}; a table {@code partitionedBy} names is partitioned
     * by that column (Hive's {@code column=value} directories, the column not in the files). Each
     * table's primary key is declared {@code DISABLE NOVALIDATE RELY}, as a warehouse declares the
     * keys its writers keep for Hive's optimizer to trust.
     */
    public static void register(SqlSession sql, String database, List<TableDefinition> tables, Path dir, String format,
                                Map<String, String> partitionedBy) {
        drop(sql, database, tables);
        run(sql, "CREATE DATABASE " + database);
        for (TableDefinition t : tables) {
            String key = partitionedBy.get(t.name());
            StringJoiner columns = new StringJoiner(", ");
            String partition = "";
            for (Column c : t.schema().columns()) {
                if (c.name().equals(key)) {
                    partition = " PARTITIONED BY (" + c.name() + " " + sqlType(c.type()) + ")";
                } else {
                    columns.add(c.name() + " " + sqlType(c.type()));
                }
            }
            if (!t.primaryKey().isEmpty() && t.primaryKey().stream().noneMatch(c -> c.equals(key))) {
                columns.add("PRIMARY KEY (" + String.join(", ", t.primaryKey()) + ") DISABLE NOVALIDATE RELY");
            }
            run(sql, "CREATE EXTERNAL TABLE " + database + "." + t.name() + " (" + columns + ")" + partition
                    + " STORED AS " + format + " LOCATION '" + dir.resolve(t.name()).toAbsolutePath() + "'");
        }
    }

    /** Drops {@code database} and those of {@code tables} in it (their files stay). */
    public static void drop(SqlSession sql, String database, List<TableDefinition> tables) {
        for (TableDefinition t : tables) {
            run(sql, "DROP TABLE IF EXISTS " + database + "." + t.name());
        }
        run(sql, "DROP DATABASE IF EXISTS " + database);
    }

    private static String sqlType(DataType type) {
        return type.kind() == TypeKind.VARCHAR && type.precision() == 0 ? "STRING" : type.toString().toUpperCase(Locale.ROOT);
    }

    private static void run(SqlSession sql, String statement) {
        sql.execute(statement, new Cancellation());
    }
}
