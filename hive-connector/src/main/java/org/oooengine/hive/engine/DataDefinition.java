package org.oooengine.hive.engine;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterLoader;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterWriter;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.TransactionalRows;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.catalog.CatalogTable;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.hive.files.TableFileException;
import org.oooengine.hive.files.TableFiles;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Runs DDL and DML against the embedded catalog and the cluster's nodes. The nodes change first
 * and the catalog records the change once they have, so a failed statement leaves the catalog as
 * it was. Changes are serialised. INSERT INTO, UPDATE and DELETE write rows in place into the
 * partitions' B+trees ({@link ClusterWriter}; a table with a GLOBAL index takes INSERT INTO the
 * bulk way); INSERT OVERWRITE, CREATE TABLE ... AS SELECT and LOAD DATA rebuild the table's
 * partitions ({@link ClusterLoader}).
 */
final class DataDefinition {
    private static final Logger LOG = LogManager.getLogger(DataDefinition.class);
    /** Hive's setting: DROP TABLE or DROP VIEW of one that does not exist is no error unless it is false. */
    static final String DROP_IGNORES_MISSING = "hive.exec.drop.ignorenonexistent";

    private final EmbeddedCatalog catalog;
    private final ClusterSession cluster;
    private final LoadableFiles loadable;
    private final HadoopSettings hadoop;
    private final FileTableChanges files;
    private final Runnable tablesChanged;

    /**
     * @param loadable      the files LOAD DATA may read
     * @param hadoop        the configuration of the file systems it reads them from
     * @param tablesChanged told after every change, e.g. to forget statistics of the tables
     */
    DataDefinition(EmbeddedCatalog catalog, ClusterSession cluster, LoadableFiles loadable, HadoopSettings hadoop,
                   Runnable tablesChanged) {
        this.catalog = catalog;
        this.cluster = cluster;
        this.loadable = loadable;
        this.hadoop = hadoop;
        this.files = new FileTableChanges(cluster, loadable, hadoop, FileTableChanges.NewPartitions.LISTED,
                FileTableChanges.DroppedPartitions.LISTED);
        this.tablesChanged = tablesChanged;
    }

    /** Runs an analyzed query plan (an INSERT's SELECT, the rows of an UPDATE) within a statement's transaction. */
    interface PlanRunner {
        List<Object[]> rows(RelNode plan, StatementTransaction tx);

        /** As {@link PlanRows#writtenOnNodes}, within {@code tx}. */
        default java.util.Optional<List<Object[]>> writtenOnNodes(RelNode plan, org.oooengine.core.cluster.FileOutput output,
                                                                   StatementTransaction tx) {
            return java.util.Optional.empty();
        }

        /** Runs each plan in a transaction of its own, run again from scratch as {@code settings} allow when it conflicts. */
        default PlanRows eachInATransaction(org.oooengine.core.cluster.Peers peers, Map<String, String> settings) {
            String what = "reading the rows to write";
            int attempts = StatementTransaction.attempts(settings);
            PlanRunner runner = this;
            return new PlanRows() {
                @Override
                public List<Object[]> apply(RelNode plan) {
                    return StatementTransaction.run(peers, what, attempts, tx -> runner.rows(plan, tx));
                }

                @Override
                public java.util.Optional<List<Object[]>> writtenOnNodes(RelNode plan,
                                                                         org.oooengine.core.cluster.FileOutput output) {
                    return StatementTransaction.run(peers, what, attempts, tx -> runner.writtenOnNodes(plan, output, tx));
                }
            };
        }
    }

    /**
     * Runs a statement; {@code rowsOf} runs a query plan (INSERT ... SELECT, CREATE TABLE ... AS
     * SELECT, the rows an UPDATE or DELETE changes). Statements that change a transactional table's
     * rows run side by side, each a transaction; the rest take turns.
     */
    StatementResult run(DdlStatement statement, Map<String, String> settings, PlanRunner rowsOf) {
        return run(statement, settings, rowsOf, () -> false);
    }

    /** As above; {@code cancelled} says when the statement was cancelled, for writes that check on their way. */
    StatementResult run(DdlStatement statement, Map<String, String> settings, PlanRunner rowsOf,
                        java.util.function.BooleanSupplier cancelled) {
        TableInfo target = rowsTarget(statement);
        if (target != null && DdlAnalyzer.transactional(target)) {
            // the nodes' manifests and statistics do not hold transactional tables: nothing to forget
            return StatementResult.update(changeTransactional(statement, target, settings, rowsOf));
        }
        try {
            synchronized (this) {
                return runInTurn(statement, settings, rowsOf.eachInATransaction(cluster.peers(), settings), cancelled);
            }
        } finally {
            cluster.tablesChanged();
            tablesChanged.run();
        }
    }

    /**
     * Enters transactional rows the nodes already keep under {@code storage} (written by a program of
     * its own, such as the TPC-C driver) into the catalog as {@code database.name}, keyed and
     * encoded as {@code rows} says; with {@code ooo.htap.copies} among {@code properties} the nodes
     * copy them. The database must exist; a table of that name is an error.
     */
    synchronized void attachTransactional(String database, String name, String storage, TableDefinition rows,
                                          Map<String, String> properties) {
        if (!catalog.databases().contains(database)) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + database);
        }
        if (catalog.table(database, name).isPresent() || catalog.view(database, name).isPresent()) {
            throw new SqlException(SqlException.ALREADY_EXISTS, "table already exists: " + database + "." + name);
        }
        List<ResultColumn> columns = rows.schema().columns().stream()
                .map(c -> new ResultColumn(c.name(), SqlType.of(c.type()))).toList();
        Map<String, String> props = new java.util.HashMap<>(properties);
        props.put(DdlAnalyzer.TRANSACTIONAL_PROPERTY, "true");
        CatalogTable entry = CatalogTable.of(database, name, columns, rows.primaryKey(), List.of(), props, "",
                TableConstraints.NONE).withStorage(storage);
        DdlAnalyzer.checkCopies(name, props);
        TableDefinition asSql = TransactionalTableLayout.definition(entry.info());
        for (int i = 0; i < rows.schema().columns().size(); i++) {
            Column stored = rows.schema().columns().get(i);
            if (!asSql.schema().columns().get(i).type().equals(stored.type())) {
                throw new IllegalArgumentException("column " + stored.name() + " of " + storage + " is " + stored.type()
                        + ", which no SQL type stores");
            }
        }
        catalog.put(entry);
        try {
            if (DdlAnalyzer.copied(entry.info())) {
                copy(entry.info());
            }
        } catch (RuntimeException e) {
            catalog.remove(database, name);
            throw e;
        }
        tablesChanged.run();
        LOG.info("entered the nodes' transactional table {} as {}.{}", storage, database, name);
    }

    /**
     * Replaces the rows of table {@code database.name} (not transactional) with {@code rows}, SQL
     * values in its column order, in one load as INSERT OVERWRITE does: for programs that generate
     * a table's rows (benchmark loaders), which would otherwise spell them out as INSERT statements.
     */
    synchronized long loadRows(String database, String name, Iterator<Object[]> rows) {
        TableInfo target = catalog.table(database, name)
                .orElseThrow(() -> new SqlException(SqlException.UNKNOWN_TABLE, "no table " + database + "." + name));
        if (DdlAnalyzer.transactional(target)) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "loading rows into transactional table " + database + "."
                    + name + ": write them in transactions");
        }
        try {
            return insert(target, rows, false);
        } finally {
            cluster.tablesChanged();
            tablesChanged.run();
        }
    }

    /** The table whose rows a DML statement changes; null for DDL. */
    private static TableInfo rowsTarget(DdlStatement statement) {
        if (statement instanceof DdlStatement.Insert s) {
            return s.target();
        } else if (statement instanceof DdlStatement.Update s) {
            return s.target();
        } else if (statement instanceof DdlStatement.Delete s) {
            return s.target();
        } else if (statement instanceof DdlStatement.LoadData s) {
            return s.target();
        } else if (statement instanceof DdlStatement.Merge s) {
            return s.target();
        }
        return null;
    }

    private StatementResult runInTurn(DdlStatement statement, Map<String, String> settings,
                                      PlanRows rowsOf, java.util.function.BooleanSupplier cancelled) {
        if (statement instanceof DdlStatement.CreateDatabase s) {
            return createDatabase(s);
        } else if (statement instanceof DdlStatement.DropDatabase s) {
            return dropDatabase(s);
        } else if (statement instanceof DdlStatement.CreateTable s) {
            return createTable(s, rowsOf);
        } else if (statement instanceof DdlStatement.CreateExternalTable s) {
            return createExternalTable(s, settings, rowsOf, cancelled);
        } else if (statement instanceof DdlStatement.DropTable s) {
            return dropTable(s, ignoresMissing(settings));
        } else if (statement instanceof DdlStatement.CreateView s) {
            return createView(s);
        } else if (statement instanceof DdlStatement.DropView s) {
            return dropView(s, ignoresMissing(settings));
        } else if (statement instanceof DdlStatement.Rename s) {
            new TableChanges(catalog).rename(s);
            return StatementResult.update(0);
        } else if (statement instanceof DdlStatement.AlterProperties s) {
            alterProperties(s);
            return StatementResult.update(0);
        } else if (statement instanceof DdlStatement.ChangeColumn s) {
            new TableChanges(catalog).changeColumn(s);
            return StatementResult.update(0);
        } else if (statement instanceof DdlStatement.AddForeignKey s) {
            new TableChanges(catalog).addForeignKey(s);
            return StatementResult.update(0);
        } else if (statement instanceof DdlStatement.DropConstraint s) {
            new TableChanges(catalog).dropConstraint(s);
            return StatementResult.update(0);
        } else if (statement instanceof DdlStatement.AddColumns s) {
            return addColumns(s, rowsOf);
        } else if (statement instanceof DdlStatement.Insert s) {
            return StatementResult.update(FileTableReader.holds(s.target())
                    ? files.insertFromQuery(s, rowsOf, settings, cancelled)
                    : insert(s.target(), rowsOf.apply(s.rows()).iterator(), !s.overwrite()));
        } else if (statement instanceof DdlStatement.MultiInsert s) {
            return StatementResult.update(multiInsert(s, rowsOf, settings, cancelled));
        } else if (statement instanceof DdlStatement.Update s) {
            return StatementResult.update(change(s.target(), ClusterWriter.RowWrite.UPDATE, rowsOf.apply(s.rows())));
        } else if (statement instanceof DdlStatement.Delete s) {
            return StatementResult.update(change(s.target(), ClusterWriter.RowWrite.DELETE, rowsOf.apply(s.rows())));
        } else if (statement instanceof DdlStatement.LoadData s) {
            return StatementResult.update(load(s, settings));
        } else if (statement instanceof DdlStatement.AddPartitions || statement instanceof DdlStatement.RepairTable
                || statement instanceof DdlStatement.DropPartitions) {
            return files.run(statement, settings, rowsOf, cancelled);
        }
        throw new IllegalArgumentException("unknown statement " + statement);
    }

    /**
     * INSERT, UPDATE, DELETE or LOAD DATA of a transactional table: one transaction that reads the
     * rows it changes and writes them on their nodes, committed on all of them or none, run again
     * from scratch when it conflicts with another. Returns the rows it changed.
     */
    private long changeTransactional(DdlStatement statement, TableInfo target, Map<String, String> settings,
                                     PlanRunner rowsOf) {
        String what = statement.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT) + " of "
                + target.database() + "." + target.name();
        try {
            return StatementTransaction.run(cluster.peers(), what, StatementTransaction.attempts(settings), tx -> {
                TransactionalRows layout = TransactionalTableLayout.layout(target, tx.peers());
                if (statement instanceof DdlStatement.Merge s) {
                    return merge(tx, layout, s, rowsOf);
                }
                if (statement instanceof DdlStatement.Update s) {
                    return writeTransactional(tx, layout, TransactionalWrite.UPDATE, target, rowsOf.rows(s.rows(), tx));
                } else if (statement instanceof DdlStatement.Delete s) {
                    return writeTransactional(tx, layout, TransactionalWrite.DELETE, target, rowsOf.rows(s.rows(), tx));
                }
                boolean overwrite = statement instanceof DdlStatement.Insert s ? s.overwrite()
                        : ((DdlStatement.LoadData) statement).overwrite();
                List<Object[]> rows = statement instanceof DdlStatement.Insert s ? rowsOf.rows(s.rows(), tx)
                        : loadedRows((DdlStatement.LoadData) statement, settings);
                if (overwrite) {
                    deleteAll(tx, layout);
                }
                return writeTransactional(tx, layout, TransactionalWrite.INSERT, target, rows);
            });
        } catch (RuntimeException e) {
            throw failed(what, e);
        }
    }

    /**
     * MERGE: every WHEN clause's rows, read within {@code tx}, then written in it; a target row that
     * more than one source row matches fails the statement (SQLSTATE 21000), as in Hive.
     */
    private static long merge(StatementTransaction tx, TransactionalRows layout, DdlStatement.Merge s, PlanRunner rowsOf) {
        TableInfo target = s.target();
        List<List<Object[]>> rows = new java.util.ArrayList<>();
        java.util.Set<org.oooengine.core.txn.Key> matched = new java.util.HashSet<>();
        for (DdlStatement.MergeAction a : s.actions()) {
            List<Object[]> r = rowsOf.rows(a.rows(), tx);
            if (a.kind() != DdlStatement.MergeAction.Kind.INSERT) {
                for (Object[] row : r) {
                    if (!matched.add(new org.oooengine.core.txn.Key(layout.key(stored(target, row))))) {
                        throw new SqlException("21000", "MERGE into " + target.name() + " matched a row with more "
                                + "than one source row: " + Arrays.toString(row));
                    }
                }
            }
            rows.add(r);
        }
        long changed = 0;
        for (int i = 0; i < rows.size(); i++) {
            TransactionalWrite mode = switch (s.actions().get(i).kind()) {
                case UPDATE -> TransactionalWrite.UPDATE;
                case DELETE -> TransactionalWrite.DELETE;
                case INSERT -> TransactionalWrite.INSERT;
            };
            changed += writeTransactional(tx, layout, mode, target, rows.get(i));
        }
        return changed;
    }

    /** Writes SQL rows (the table's column order) into a transactional table within {@code tx}; returns the rows changed. */
    private static long writeTransactional(StatementTransaction tx, TransactionalRows layout, TransactionalWrite mode,
                                           TableInfo target, List<Object[]> rows) {
        int[] key = TransactionalTableLayout.definition(target).schema().indexesOf(target.primaryKey());
        synchronized (tx) {
            DistributedTransaction t = tx.get();
            long before = t.changed(); // an INSERT OVERWRITE's deletes are not its count
            long n = 0;
            for (Object[] row : rows) {
                Object[] stored = stored(target, row);
                n++;
                for (int k : key) {
                    if (stored[k] == null) {
                        throw new SqlException(SqlException.CONSTRAINT, "primary key column " + target.columns().get(k).name()
                                + " of " + target.name() + " is NULL in row " + n);
                    }
                }
                byte[] k = layout.key(stored);
                byte[] value = mode == TransactionalWrite.DELETE ? null : layout.value(stored);
                for (TransactionalRows.Holding h : layout.holders(stored)) { // the copies commit with the owner
                    t.write(h.node(), h.storedName(), mode, k, value);
                }
            }
            return t.changed() - before;
        }
    }

    /**
     * INSERT OVERWRITE of a transactional table: its rows go first, in the same transaction, read
     * on each partition's owner and deleted on every holder.
     */
    private static void deleteAll(StatementTransaction tx, TransactionalRows layout) {
        synchronized (tx) {
            DistributedTransaction t = tx.get();
            for (int p = 0; p < layout.partitions(); p++) {
                List<TransactionalRows.Holding> holders = layout.holders(p);
                for (DistributedTransaction.Row r : t.scan(holders.get(0).node(), holders.get(0).storedName(), null, null)) {
                    for (TransactionalRows.Holding h : holders) {
                        t.write(h.node(), h.storedName(), TransactionalWrite.DELETE, r.key(), null);
                    }
                }
            }
            t.changed();
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
        List<CatalogView> views = catalog.views(s.name());
        if ((!tables.isEmpty() || !views.isEmpty()) && !s.cascade()) {
            throw new SqlException(SqlException.GENERAL, "database " + s.name() + " is not empty ("
                    + tables.size() + " tables, " + views.size() + " views); DROP DATABASE ... CASCADE drops them too");
        }
        views.forEach(v -> catalog.removeView(v.database(), v.name()));
        for (TableInfo t : tables) {
            dropTable(new DdlStatement.DropTable(t.database(), t.name(), true), true);
        }
        catalog.dropDatabase(s.name());
        return StatementResult.update(0);
    }

    /** Whether a table {@code database.name} may be created: false when it exists and IF NOT EXISTS says to leave it. */
    private boolean mayCreate(String database, String name, boolean ifNotExists) {
        if (!catalog.databases().contains(database)) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + database);
        }
        if (catalog.view(database, name).isPresent()) {
            throw new SqlException(SqlException.ALREADY_EXISTS, database + "." + name + " is a view");
        }
        if (catalog.table(database, name).isPresent()) {
            if (ifNotExists) {
                return false;
            }
            throw new SqlException(SqlException.ALREADY_EXISTS, "table already exists: " + database + "." + name);
        }
        return true;
    }

    /**
     * CREATE EXTERNAL TABLE: the catalog keeps where its files are, once the location is found to
     * be one SQL may read (as LOAD DATA's files are judged); no node holds anything of it.
     */
    private StatementResult createExternalTable(DdlStatement.CreateExternalTable s, Map<String, String> settings,
                                                PlanRows rowsOf,
                                                java.util.function.BooleanSupplier cancelled) {
        if (s.properties().containsKey(org.oooengine.core.settings.TableProperties.REPLICATION.name())) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "table " + s.name() + ": "
                    + org.oooengine.core.settings.TableProperties.REPLICATION.name() + " is for tables on the nodes; "
                    + "a table held in files has the copies its file system keeps (HDFS: dfs.replication)");
        }
        if (!mayCreate(s.database(), s.name(), s.ifNotExists())) {
            return StatementResult.update(0);
        }
        Configuration conf = hadoop.apply(new Configuration(), settings);
        if (s.asSelect() == null) {
            String location = loadable.tableLocation("CREATE EXTERNAL TABLE " + s.name(), s.location(), conf);
            catalog.put(CatalogTable.of(s.database(), s.name(), s.columns(), List.of(), List.of(), s.properties(),
                    s.comment(), s.constraints()).withStorage(location));
            LOG.info("created external table {}.{} over {}", s.database(), s.name(), location);
            return StatementResult.update(0);
        }
        FileTableChanges.NewLocation location = files.newLocation(s, conf);
        CatalogTable t = CatalogTable.of(s.database(), s.name(), s.columns(), List.of(), List.of(), s.properties(),
                s.comment(), s.constraints()).withStorage(location.path());
        long written = files.insertCreating(new DdlStatement.Insert(t.info(), s.asSelect(), false), location, rowsOf,
                settings, cancelled, () -> catalog.put(t));
        LOG.info("created table {}.{} over {} ({} rows)", s.database(), s.name(), location.path(), written);
        return StatementResult.update(written);
    }

    private StatementResult createTable(DdlStatement.CreateTable s, PlanRows rowsOf) {
        if (!mayCreate(s.database(), s.name(), s.ifNotExists())) {
            return StatementResult.update(0);
        }
        boolean transactional = "true".equalsIgnoreCase(s.properties().get(DdlAnalyzer.TRANSACTIONAL_PROPERTY));
        CatalogTable t = CatalogTable.of(s.database(), s.name(), s.columns(), s.primaryKey(), s.indexedColumns(),
                TransactionalTableLayout.withReplication(s.name(), s.properties(), transactional, cluster.spec()),
                s.comment(), s.constraints());
        // a table renamed away keeps its rows under its first name: a new table of that name takes another
        if (transactional || catalog.storageTaken(t.storage())) {
            t = t.withUniqueStorage(); // a dropped table's name may still be in a node's log: a new table gets a new one
        }
        // Run the query before anything is created: a query that fails leaves no table behind.
        List<Object[]> rows = s.asSelect() == null ? List.of() : rowsOf.apply(s.asSelect());
        try {
            if (transactional) {
                TransactionalTables.create(cluster.peers(), t.storage(), TransactionalTableLayout.copies(t.info()));
            }
        } catch (RuntimeException e) {
            dropTransactionalQuietly(t.storage());
            throw failed("CREATE TABLE " + s.name(), e);
        }
        catalog.put(t);
        try {
            if (transactional) {
                TableInfo info = t.info();
                StatementTransaction.run(cluster.peers(), "CREATE TABLE " + s.name() + " AS SELECT", 1, tx ->
                        writeTransactional(tx, TransactionalTableLayout.layout(info, tx.peers()), TransactionalWrite.INSERT, info, rows));
                if (DdlAnalyzer.copied(info)) {
                    copy(info);
                }
            } else {
                insert(t.info(), rows.iterator(), false); // on every node or on none
            }
        } catch (RuntimeException e) {
            catalog.remove(t.database(), t.name());
            if (transactional) {
                dropTransactionalQuietly(t.storage());
            }
            throw e;
        }
        LOG.info("created table {}.{} ({} rows)", s.database(), s.name(), rows.size());
        return StatementResult.update(rows.size());
    }

    /**
     * SET or UNSET TBLPROPERTIES; turning {@code ooo.htap.copies} on or off has the nodes build or
     * drop the table's analytical copies, and the catalog keeps the change only once they have.
     */
    private void alterProperties(DdlStatement.AlterProperties s) {
        TableChanges changes = new TableChanges(catalog);
        CatalogTable before = changes.entry(s.database(), s.name());
        changes.alterProperties(s);
        CatalogTable after = changes.entry(s.database(), s.name());
        try {
            DdlAnalyzer.checkCopies(s.name(), after.properties());
            String replication = org.oooengine.core.settings.TableProperties.REPLICATION.name();
            if (!java.util.Objects.equals(before.properties().get(replication), after.properties().get(replication))) {
                throw new SqlException(SqlException.NOT_SUPPORTED, "table " + s.name() + ": " + replication
                        + " is set when a table is created and stays");
            }
            boolean was = DdlAnalyzer.copied(before.info());
            boolean is = DdlAnalyzer.copied(after.info());
            if (is && !was) {
                copy(after.info());
            } else if (was && !is) {
                TransactionalTables.uncopy(cluster.peers(), after.storage());
            }
        } catch (RuntimeException e) {
            catalog.put(before);
            throw e instanceof SqlException ? e : failed("ALTER TABLE " + s.name(), e);
        }
    }

    /** Has every node keep analytical copies of transactional table {@code table}, built before this returns. */
    private void copy(TableInfo table) {
        TransactionalTables.copy(cluster.peers(), Map.of(table.storage(), TransactionalTableLayout.definition(table)));
        LOG.info("the nodes keep analytical copies of {}.{}", table.database(), table.name());
    }

    /**
     * ADD COLUMNS: the table's rows are written again with NULL in the new columns, which the
     * nodes' rows must hold (they keep a row's columns in place, the hidden row id after them);
     * the catalog takes the new columns once the nodes have committed. The rows pass through the coordinator, as INSERT
     * OVERWRITE ... SELECT's do.
     */
    private StatementResult addColumns(DdlStatement.AddColumns s, PlanRows rowsOf) {
        CatalogTable t = new TableChanges(catalog).entry(s.database(), s.name());
        TableInfo before = t.info();
        if (DdlAnalyzer.transactional(before)) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: ADD COLUMNS to transactional table "
                    + before.name());
        }
        List<CatalogTable.ColumnEntry> columns = new java.util.ArrayList<>(t.columns());
        for (ResultColumn c : s.columns()) {
            if (columns.stream().anyMatch(e -> e.name().equals(c.name()))) {
                throw new SqlException(SqlException.ALREADY_EXISTS, "table " + before.database() + "." + before.name()
                        + " has a column " + c.name() + " already");
            }
            columns.add(new CatalogTable.ColumnEntry(c.name(), c.type().toString(), c.comment() == null ? "" : c.comment()));
        }
        List<org.oooengine.optimizer.rel.Field> fields = new java.util.ArrayList<>();
        for (int i = 0; i < before.columns().size(); i++) {
            ResultColumn c = before.columns().get(i);
            fields.add(new org.oooengine.optimizer.rel.Field(before.name(), c.name(), c.type()));
        }
        List<Object[]> rows = rowsOf.apply(new RelNode.Scan(before, before.name(), fields, null));
        int width = columns.size();
        CatalogTable after = t.withColumns(columns);
        TableInfo widened = after.info();
        Iterator<Object[]> each = rows.iterator();
        // the catalog takes the new columns once the nodes hold them
        write(widened, Optional.of(after), false, false, into -> {
            while (each.hasNext()) {
                into.add(stored(widened, Arrays.copyOf(each.next(), width)));
            }
        });
        LOG.info("added {} columns to {}.{} ({} rows written again)", s.columns().size(), s.database(), s.name(), rows.size());
        return StatementResult.update(0);
    }

    /**
     * A multi-table INSERT: every query is read first, then each table written in turn, each
     * write on every node or on none. A write that fails leaves the tables written before it as
     * they are then, as Hive's moves of one table after another do; the error names the table.
     */
    private long multiInsert(DdlStatement.MultiInsert s, PlanRows rowsOf,
                             Map<String, String> settings, java.util.function.BooleanSupplier cancelled) {
        List<List<Object[]>> rows = s.inserts().stream().map(i -> rowsOf.apply(i.rows())).toList();
        long written = 0;
        for (int i = 0; i < rows.size(); i++) {
            DdlStatement.Insert one = s.inserts().get(i);
            written += FileTableReader.holds(one.target()) ? files.insert(one, rows.get(i), settings, cancelled)
                    : insert(one.target(), rows.get(i).iterator(), !one.overwrite());
        }
        return written;
    }

    /** Undoes a transactional table's creation on the nodes that made it: a failed CREATE leaves nothing anywhere. */
    private void dropTransactionalQuietly(String storage) {
        try {
            TransactionalTables.drop(cluster.peers(), storage);
        } catch (RuntimeException e) {
            LOG.warn("a failed CREATE TABLE left transactional table {} on some nodes: {}", storage, e.getMessage());
        }
    }

    /** A view: kept in the catalog only; its query was analysed when the statement was. */
    private StatementResult createView(DdlStatement.CreateView s) {
        String name = s.database() + "." + s.name();
        if (!catalog.databases().contains(s.database())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + s.database());
        }
        if (catalog.table(s.database(), s.name()).isPresent()) {
            throw new SqlException(SqlException.ALREADY_EXISTS, "table already exists: " + name);
        }
        boolean exists = catalog.view(s.database(), s.name()).isPresent();
        if (s.mustExist() && !exists) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "view not found: " + name);
        }
        if (exists && !s.orReplace()) {
            if (s.ifNotExists()) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.ALREADY_EXISTS, "view already exists: " + name
                    + " (CREATE OR REPLACE VIEW replaces it)");
        }
        List<CatalogTable.ColumnEntry> columns = s.columns().stream()
                .map(c -> new CatalogTable.ColumnEntry(c.name(), c.type().toString(), c.comment())).toList();
        catalog.putView(new CatalogView(s.database(), s.name(), columns, s.statement(), s.comment()));
        LOG.info("{} view {}", exists ? "replaced" : "created", name);
        return StatementResult.update(0);
    }

    /**
     * Whether DROP TABLE and DROP VIEW of a missing one succeed without IF EXISTS, as in Hive while
     * {@value #DROP_IGNORES_MISSING} is true, its default.
     */
    static boolean ignoresMissing(Map<String, String> settings) {
        return !"false".equalsIgnoreCase(settings.getOrDefault(DROP_IGNORES_MISSING, "true").strip());
    }

    private StatementResult dropView(DdlStatement.DropView s, boolean ignoreMissing) {
        String name = s.database() + "." + s.name();
        if (catalog.view(s.database(), s.name()).isEmpty()) {
            if (catalog.table(s.database(), s.name()).isPresent()) {
                throw new SqlException(SqlException.GENERAL, name + " is a table, not a view: drop it with DROP TABLE");
            }
            if (s.ifExists() || ignoreMissing) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.UNKNOWN_TABLE, "view not found: " + name + " (" + DROP_IGNORES_MISSING
                    + " is false)");
        }
        catalog.removeView(s.database(), s.name());
        return StatementResult.update(0);
    }

    private StatementResult dropTable(DdlStatement.DropTable s, boolean ignoreMissing) {
        if (catalog.view(s.database(), s.name()).isPresent()) {
            throw new SqlException(SqlException.GENERAL, s.database() + "." + s.name()
                    + " is a view, not a table: drop it with DROP VIEW");
        }
        Optional<TableInfo> t = catalog.table(s.database(), s.name());
        if (t.isEmpty()) {
            if (s.ifExists() || ignoreMissing) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.UNKNOWN_TABLE, "table not found: " + s.database() + "." + s.name()
                    + " (" + DROP_IGNORES_MISSING + " is false)");
        }
        try {
            if (FileTableReader.holds(t.get())) {
                LOG.info("dropped external table {}.{}; its files stay at {}", s.database(), s.name(), t.get().storage());
            } else if (DdlAnalyzer.transactional(t.get())) {
                TransactionalTables.drop(cluster.peers(), t.get().storage());
            } else {
                new ClusterLoader(cluster.peers()).dropTable(t.get().storage());
            }
        } catch (CompletionException | org.oooengine.core.cluster.ClusterException e) {
            throw failed("DROP TABLE " + s.name(), e);
        }
        catalog.remove(s.database(), s.name());
        return StatementResult.update(0);
    }

    /**
     * INSERT: the rows (SQL values in the table's column order) cast to stored values on their way;
     * INSERT INTO in place, INSERT OVERWRITE (and a new table's first rows) by rebuilding.
     */
    private long insert(TableInfo target, Iterator<Object[]> rows, boolean append) {
        return write(target, append, append, into -> {
            while (rows.hasNext()) {
                into.add(stored(target, rows.next()));
            }
        });
    }

    private static Object[] stored(TableInfo target, Object[] row) {
        Object[] stored = new Object[row.length];
        for (int i = 0; i < stored.length; i++) {
            stored[i] = target.columns().get(i).type().toStored(row[i]);
        }
        return stored;
    }

    /** UPDATE or DELETE: the rows as they will be, or as they are, written in place by primary key. */
    private long change(TableInfo target, ClusterWriter.RowWrite kind, List<Object[]> rows) {
        TableDefinition def = definition(target);
        ClusterWriter.Statement w = beginInPlace(target, def);
        try {
            for (Object[] row : rows) {
                w.add(kind, stored(target, row));
            }
            return w.commit();
        } catch (RuntimeException e) {
            w.rollback();
            throw failed(kind + " of " + target.database() + "." + target.name(), e);
        }
    }

    private ClusterWriter.Statement beginInPlace(TableInfo target, TableDefinition def) {
        String policy = target.properties().getOrDefault(DdlAnalyzer.SPLIT_POLICY_PROPERTY, DdlAnalyzer.DEFAULT_SPLIT_POLICY);
        try {
            return new ClusterWriter(cluster.peers()).begin(def, SplitPolicy.named(policy),
                    TransactionalTableLayout.storedCopies(target, cluster.serving()));
        } catch (RuntimeException e) {
            throw failed("writing " + target.database() + "." + target.name(), e);
        }
    }

    private TableDefinition definition(TableInfo target) {
        Optional<CatalogTable> entry = catalog.entry(target.database(), target.name());
        try {
            return entry.map(CatalogTable::definition).orElseGet(() -> cluster.table(target.storage()).meta().definition());
        } catch (RuntimeException e) {
            throw failed("writing " + target.database() + "." + target.name(), e);
        }
    }

    /**
     * LOAD DATA: the files' rows, read in the table's format straight into stored values. Which
     * files it may read is settled before anything is written.
     */
    private long load(DdlStatement.LoadData s, Map<String, String> settings) {
        Configuration conf = hadoop.apply(new Configuration(), settings);
        List<String> locations = loadable.locations(s.path(), s.local(), conf);
        FileLayout layout = FileLayout.forLoading(s.target().properties(), DdlAnalyzer.LOAD_FORMAT_PROPERTY);
        return write(s.target(), !s.overwrite(), false,
                into -> readFiles(s, locations, layout, into.columns(), conf, row -> into.add(fitted(s, row))));
    }

    /** A row read from a file, each value made one of its column's declared type (the files hold stored types). */
    private static Object[] fitted(DdlStatement.LoadData s, Object[] stored) {
        List<ResultColumn> columns = s.target().columns();
        for (int i = 0; i < columns.size() && i < stored.length; i++) {
            try {
                stored[i] = columns.get(i).type().fitStored(stored[i]);
            } catch (IllegalArgumentException e) {
                throw new SqlException(SqlException.DATA, "LOAD DATA into " + s.target().name() + ", column "
                        + columns.get(i).name() + ": " + e.getMessage(), e);
            }
        }
        return stored;
    }

    private static void readFiles(DdlStatement.LoadData s, List<String> locations, FileLayout layout, Schema columns,
                                  Configuration conf, java.util.function.Consumer<Object[]> rows) {
        try {
            for (String location : locations) {
                TableFiles.read(location, layout, columns, conf, rows);
            }
        } catch (TableFileException e) {
            throw new SqlException(SqlException.DATA, "LOAD DATA into " + s.target().name() + ": " + e.getMessage(), e);
        }
    }

    /** LOAD DATA's rows for a transactional table, as SQL values; which files it may read is settled first. */
    private List<Object[]> loadedRows(DdlStatement.LoadData s, Map<String, String> settings) {
        Configuration conf = hadoop.apply(new Configuration(), settings);
        List<String> locations = loadable.locations(s.path(), s.local(), conf);
        FileLayout layout = FileLayout.forLoading(s.target().properties(), DdlAnalyzer.LOAD_FORMAT_PROPERTY);
        TableDefinition def = TransactionalTableLayout.definition(s.target());
        List<Object[]> rows = new java.util.ArrayList<>();
        readFiles(s, locations, layout, def.schema(), conf, read -> {
            Object[] stored = fitted(s, read);
            Object[] sql = new Object[stored.length];
            for (int i = 0; i < sql.length; i++) {
                sql[i] = s.target().columns().get(i).type().fromStored(stored[i]);
            }
            rows.add(sql);
        });
        return rows;
    }

    /** Where the rows of a write come from. */
    private interface RowSource {
        void sendTo(RowsInto into) throws Exception;
    }

    /**
     * Writes rows into a table on the nodes, in place ({@code inPlace} and {@code append}, and the
     * table has no GLOBAL index) or by rebuilding its partitions. Tables created through SQL number
     * their rows when they have no key (the catalog keeps the next number); tables only loaded onto
     * the nodes keep their stored layout. Returns the rows written.
     */
    private long write(TableInfo target, boolean append, boolean inPlace, RowSource source) {
        return write(target, catalog.entry(target.database(), target.name()), append, inPlace, source);
    }

    /**
     * {@link #write(TableInfo, boolean, boolean, RowSource)} as the catalog entry {@code entry}
     * describes the table, which the catalog records (with its next row id) once the nodes have
     * committed.
     */
    private long write(TableInfo target, Optional<CatalogTable> entry, boolean append, boolean inPlace,
                       RowSource source) {
        TableDefinition def;
        try {
            def = entry.isPresent() ? entry.get().definition() : definition(target);
        } catch (RuntimeException e) {
            throw failed("writing " + target.database() + "." + target.name(), e);
        }
        boolean rowId = entry.map(CatalogTable::hasRowId).orElse(false);
        long firstRowId = entry.map(CatalogTable::nextRowId).orElse(0L);
        long written;
        if (inPlace && append && ClusterWriter.writable(def)) {
            ClusterWriter.Statement w = beginInPlace(target, def);
            try {
                RowsInto into = new RowsInto(def, target, rowId, firstRowId, row -> w.add(ClusterWriter.RowWrite.INSERT, row));
                source.sendTo(into);
                w.commit();
                written = into.written;
            } catch (Exception e) {
                w.rollback();
                throw failed("writing " + target.database() + "." + target.name(), e);
            }
        } else {
            ClusterLoader.TableWrite w;
            try {
                w = new ClusterLoader(cluster.peers(), TransactionalTableLayout.storedCopies(target, cluster.serving()))
                        .beginWrite(def, append, (t, done, expected) -> { });
            } catch (Exception e) {
                throw failed("writing " + target.database() + "." + target.name(), e);
            }
            RowsInto into = new RowsInto(def, target, rowId, firstRowId, w::add);
            try {
                source.sendTo(into);
                w.commit();
            } catch (Exception e) {
                w.abort();
                throw failed("writing " + target.database() + "." + target.name(), e);
            }
            written = into.written;
        }
        long next = firstRowId + written;
        entry.ifPresent(t -> catalog.put(t.withNextRowId(next)));
        return written;
    }

    /** Where {@link RowsInto} sends each row. */
    private interface RowSink {
        void add(Object[] row) throws InterruptedException;
    }

    /** Stored values of a table's declared columns on their way to the nodes, with the row id and a key check added. */
    private static final class RowsInto {
        private final TableDefinition def;
        private final TableInfo table;
        private final boolean rowId;
        private final long firstRowId;
        private final int[] key;
        private final RowSink write;
        private long written;

        RowsInto(TableDefinition def, TableInfo table, boolean rowId, long firstRowId, RowSink write) {
            this.write = write;
            this.def = def;
            this.table = table;
            this.rowId = rowId;
            this.firstRowId = firstRowId;
            this.key = def.schema().indexesOf(def.primaryKey());
        }

        /** The declared columns as the nodes store them (without a hidden row id). */
        Schema columns() {
            return new Schema(def.schema().columns().subList(0, table.columns().size()));
        }

        void add(Object[] declared) {
            Object[] row = rowId ? Arrays.copyOf(declared, declared.length + 1) : declared;
            if (rowId) {
                row[declared.length] = firstRowId + written;
            }
            written++;
            for (int k : key) {
                if (row[k] == null) {
                    throw new SqlException(SqlException.CONSTRAINT, "primary key column " + def.schema().column(k).name()
                            + " of " + table.name() + " is NULL in row " + written);
                }
            }
            try {
                write.add(row);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SqlException(SqlException.CANCELLED, "writing " + table.name() + " was interrupted", e);
            }
        }
    }

    private static SqlException failed(String what, Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof SqlException s) {
            return s;
        }
        String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        String state = message.contains("duplicate primary key") ? SqlException.CONSTRAINT : Faults.state(cause);
        return new SqlException(state, what + " failed: " + message, cause);
    }
}
