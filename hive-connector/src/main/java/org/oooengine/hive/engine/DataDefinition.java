package org.oooengine.hive.engine;

import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterLoader;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.hive.catalog.CatalogTable;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.ResultColumn;
import org.oooengine.hive.sql.SqlException;
import org.oooengine.hive.sql.SqlType;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.hive.sql.plan.RelNode;

/**
 * Runs DDL and DML against the embedded catalog and the cluster's nodes. The nodes change first
 * and the catalog records the change once they have, so a failed statement leaves the catalog as
 * it was. Changes are serialised: each one rewrites the table's partitions on every node.
 */
final class DataDefinition {
    private static final Logger LOG = LogManager.getLogger(DataDefinition.class);

    /** Reads the rows of LOAD DATA's files, as SQL values in the target table's column order. */
    interface FileRows {
        Iterator<Object[]> read(String path, boolean local, TableInfo target);
    }

    private final EmbeddedCatalog catalog;
    private final ClusterSession cluster;
    private final FileRows files;
    private final Runnable tablesChanged;

    /** @param tablesChanged told after every change, e.g. to forget statistics of the tables */
    DataDefinition(EmbeddedCatalog catalog, ClusterSession cluster, FileRows files, Runnable tablesChanged) {
        this.catalog = catalog;
        this.cluster = cluster;
        this.files = files;
        this.tablesChanged = tablesChanged;
    }

    /** Runs a statement; {@code rowsOf} runs a query plan (INSERT ... SELECT, CREATE TABLE ... AS SELECT). */
    synchronized StatementResult run(DdlStatement statement, Function<RelNode, List<Object[]>> rowsOf) {
        try {
            if (statement instanceof DdlStatement.CreateDatabase s) {
                return createDatabase(s);
            } else if (statement instanceof DdlStatement.DropDatabase s) {
                return dropDatabase(s);
            } else if (statement instanceof DdlStatement.CreateTable s) {
                return createTable(s, rowsOf);
            } else if (statement instanceof DdlStatement.DropTable s) {
                return dropTable(s);
            } else if (statement instanceof DdlStatement.Insert s) {
                return StatementResult.update(insert(s.target(), rowsOf.apply(s.rows()).iterator(), !s.overwrite()));
            } else if (statement instanceof DdlStatement.LoadData s) {
                return StatementResult.update(insert(s.target(), files.read(s.path(), s.local(), s.target()), !s.overwrite()));
            }
            throw new IllegalArgumentException("unknown statement " + statement);
        } finally {
            tablesChanged.run();
        }
    }

    private StatementResult createDatabase(DdlStatement.CreateDatabase s) {
        if (catalog.databases().contains(s.name())) {
            if (s.ifNotExists()) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.ALREADY_EXISTS, "database already exists: " + s.name());
        }
        catalog.createDatabase(s.name(), s.comment());
        return StatementResult.update(0);
    }

    private StatementResult dropDatabase(DdlStatement.DropDatabase s) {
        if (!catalog.databases().contains(s.name())) {
            if (s.ifExists()) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + s.name());
        }
        List<TableInfo> tables = catalog.tables(s.name());
        if (!tables.isEmpty() && !s.cascade()) {
            throw new SqlException(SqlException.GENERAL, "database " + s.name() + " is not empty ("
                    + tables.size() + " tables); DROP DATABASE ... CASCADE drops its tables too");
        }
        for (TableInfo t : tables) {
            dropTable(new DdlStatement.DropTable(t.database(), t.name(), true));
        }
        catalog.dropDatabase(s.name());
        return StatementResult.update(0);
    }

    private StatementResult createTable(DdlStatement.CreateTable s, Function<RelNode, List<Object[]>> rowsOf) {
        if (!catalog.databases().contains(s.database())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + s.database());
        }
        if (catalog.table(s.database(), s.name()).isPresent()) {
            if (s.ifNotExists()) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.ALREADY_EXISTS, "table already exists: " + s.database() + "." + s.name());
        }
        CatalogTable t = CatalogTable.of(s.database(), s.name(), s.columns(), s.primaryKey(), s.indexedColumns(),
                s.properties(), s.comment());
        // Run the query before anything is created: a query that fails leaves no table behind.
        List<Object[]> rows = s.asSelect() == null ? List.of() : rowsOf.apply(s.asSelect());
        long written = writeRows(t.definition(), t.info(), t.hasRowId(), 0, rows.iterator(), false);
        catalog.put(t.withNextRowId(written));
        LOG.info("created table {}.{} ({} rows)", s.database(), s.name(), rows.size());
        return StatementResult.update(rows.size());
    }

    private StatementResult dropTable(DdlStatement.DropTable s) {
        Optional<TableInfo> t = catalog.table(s.database(), s.name());
        if (t.isEmpty()) {
            if (s.ifExists()) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.UNKNOWN_TABLE, "table not found: " + s.database() + "." + s.name());
        }
        try {
            new ClusterLoader(cluster.peers()).dropTable(t.get().storage());
        } catch (CompletionException | org.oooengine.core.cluster.ClusterException e) {
            throw failed("DROP TABLE " + s.name(), e);
        }
        catalog.remove(s.database(), s.name());
        return StatementResult.update(0);
    }

    /** INSERT and LOAD DATA: tables created through SQL number their rows; tables only loaded onto the nodes keep their stored layout. */
    private long insert(TableInfo target, Iterator<Object[]> rows, boolean append) {
        Optional<CatalogTable> entry = catalog.entry(target.database(), target.name());
        if (entry.isPresent()) {
            CatalogTable t = entry.get();
            long written = writeRows(t.definition(), target, t.hasRowId(), t.nextRowId(), rows, append);
            catalog.put(t.withNextRowId(t.nextRowId() + written));
            return written;
        }
        TableDefinition stored = cluster.manifest(cluster.spec().nodes().get(0).id()).table(target.storage()).definition();
        return writeRows(stored, target, false, 0, rows, append);
    }

    /**
     * Writes SQL rows into the table's partitions on the nodes, numbering them from
     * {@code firstRowId} when the table keys its rows by row id; returns the rows written.
     */
    private long writeRows(TableDefinition def, TableInfo table, boolean rowId, long firstRowId, Iterator<Object[]> rows,
                           boolean append) {
        List<SqlType> types = table.columns().stream().map(ResultColumn::type).toList();
        int[] key = def.schema().indexesOf(def.primaryKey());
        long[] written = {0};
        Iterator<Object[]> stored = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public Object[] next() {
                Object[] row = rows.next();
                Object[] out = new Object[def.schema().size()];
                for (int i = 0; i < types.size(); i++) {
                    out[i] = types.get(i).toStored(row[i]);
                }
                if (rowId) {
                    out[types.size()] = firstRowId + written[0];
                }
                written[0]++;
                for (int k : key) {
                    if (out[k] == null) {
                        throw new SqlException(SqlException.CONSTRAINT, "primary key column " + def.schema().column(k).name()
                                + " of " + table.name() + " is NULL in row " + written[0]);
                    }
                }
                return out;
            }
        };
        try {
            new ClusterLoader(cluster.peers()).writeTable(def, stored, append, (t, done, expected) -> { });
        } catch (Exception e) {
            throw failed("writing " + table.database() + "." + table.name(), e);
        }
        return written[0];
    }

    private static SqlException failed(String what, Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof SqlException s) {
            return s;
        }
        String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        String state = message.contains("duplicate primary key") ? SqlException.CONSTRAINT : SqlException.GENERAL;
        return new SqlException(state, what + " failed: " + message, cause);
    }
}
