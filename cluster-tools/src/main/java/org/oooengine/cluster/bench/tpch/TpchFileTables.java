package org.oooengine.cluster.bench.tpch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.oooengine.cluster.bench.ExternalTables;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpch.TpchSchema;
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
        ExternalTables.register(sql, DATABASE, tables(), dir, format, Map.of());
    }

    /**
     * Has the engine count every table's rows and its columns' distinct values (ANALYZE TABLE ...
     * FOR COLUMNS), as a warehouse's tables usually have been; returns the seconds it took.
     */
    public static double analyze(SqlSession sql) {
        long t0 = System.nanoTime();
        for (TableDefinition t : tables()) {
            sql.execute("ANALYZE TABLE " + DATABASE + "." + t.name() + " COMPUTE STATISTICS FOR COLUMNS", new Cancellation());
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Drops {@value #DATABASE} and its tables (their files stay). */
    public static void drop(SqlSession sql) {
        ExternalTables.drop(sql, DATABASE, tables());
    }

    private static List<TableDefinition> tables() {
        return TpchSchema.tables().stream().<TableDefinition>map(TpchSchema::definition).toList();
    }
}
