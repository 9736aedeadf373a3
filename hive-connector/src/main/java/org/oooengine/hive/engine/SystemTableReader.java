package org.oooengine.hive.engine;

import java.util.BitSet;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.catalog.SystemCatalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Reads the system tables ({@link SystemCatalog}): their rows are gathered from the nodes when the
 * statement runs, never while it is planned.
 */
final class SystemTableReader implements TableReader {
    private final SystemCatalog catalog;

    SystemTableReader(SystemCatalog catalog) {
        this.catalog = catalog;
    }

    /** Whether {@code table} is a system table, which this reader reads. */
    static boolean holds(TableInfo table) {
        return SystemCatalog.DATABASE.equals(table.database());
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        SystemCatalog.SystemTable system = catalog.systemTable(table.database(), table.name())
                .orElseThrow(() -> new SqlException(SqlException.UNKNOWN_TABLE, "no system table " + table.database()
                        + "." + table.name()));
        for (Object[] row : system.rows().get()) {
            cancel.check();
            sink.accept(row);
        }
    }
}
