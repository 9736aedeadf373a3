package org.oooengine.cluster.bench.tpch;

import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.util.Locale;
import java.util.StringJoiner;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.TypeKind;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * The TPC-H tables as external tables over files another tool wrote, one directory per table
 * ({@code <dir>/lineitem/...}), in database {@value #DATABASE}: what {@code ooo bench tpch --files}
 * runs the queries over, beside the same queries over the nodes' own tables.
 */
public final class TpchFileTables {
    public static final String DATABASE = "tpch_files";

    private TpchFileTables() {
    }

    /** Creates {@value #DATABASE} afresh with every TPC-H table over {@code dir}/{@code <table>}, in {@code format}. */
    public static void register(SqlSession sql, Path dir, String format) {
        drop(sql);
        run(sql, "CREATE DATABASE " + DATABASE);
        for (TpchTable<?> t : TpchSchema.tables()) {
            run(sql, "CREATE EXTERNAL TABLE " + DATABASE + "." + t.getTableName() + " (" + columns(t) + ") STORED AS "
                    + format + " LOCATION '" + dir.resolve(t.getTableName()).toAbsolutePath() + "'");
        }
    }

    /** Drops {@value #DATABASE} and its tables (their files stay). */
    public static void drop(SqlSession sql) {
        for (TpchTable<?> t : TpchSchema.tables()) {
            run(sql, "DROP TABLE IF EXISTS " + DATABASE + "." + t.getTableName());
        }
        run(sql, "DROP DATABASE IF EXISTS " + DATABASE);
    }

    private static String columns(TpchTable<?> table) {
        StringJoiner j = new StringJoiner(", ");
        for (Column c : TpchSchema.definition(table).schema().columns()) {
            j.add(c.name() + " " + (c.type().kind() == TypeKind.VARCHAR && c.type().precision() == 0 ? "STRING"
                    : c.type().toString().toUpperCase(Locale.ROOT)));
        }
        return j.toString();
    }

    private static void run(SqlSession sql, String statement) {
        sql.execute(statement, new Cancellation());
    }
}
