package org.oooengine.hive.engine;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.catalog.CatalogTable;
import org.oooengine.hive.metastore.MetastoreCatalog;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * What changes a Hive metastore catalog ({@code ooo.catalog=hms}) and its tables, which are held
 * in files. CREATE EXTERNAL TABLE enters a table as Hive's external table over its LOCATION
 * (judged as LOAD DATA's files are); CREATE TABLE ... LOCATION ... AS SELECT has the nodes write
 * its files first and enters it once they are there; DROP TABLE has the metastore forget it (and
 * delete its files only where Hive would); CREATE and DROP DATABASE. INSERT, ADD and DROP
 * PARTITION and MSCK REPAIR TABLE go to {@link FileTableChanges}. A table on the nodes cannot be
 * entered in a metastore: a plain CREATE TABLE is refused, naming what to write instead; so is
 * every other change of the catalog.
 */
final class MetastoreChanges {
    private static final Logger LOG = LogManager.getLogger(MetastoreChanges.class);

    private final MetastoreCatalog metastore;
    private final FileTableChanges files;
    private final LoadableFiles loadable;
    private final HadoopSettings hadoop;

    MetastoreChanges(MetastoreCatalog metastore, FileTableChanges files, LoadableFiles loadable, HadoopSettings hadoop) {
        this.metastore = metastore;
        this.files = files;
        this.loadable = loadable;
        this.hadoop = hadoop;
    }

    /** Runs {@code statement}; {@code rowsOf} runs the queries whose rows it writes. */
    StatementResult run(DdlStatement statement, Map<String, String> settings, PlanRows rowsOf,
                        BooleanSupplier cancelled) {
        if (FileTableChanges.changesFilesOnly(statement)) {
            return files.run(statement, settings, rowsOf, cancelled);
        }
        if (statement instanceof DdlStatement.CreateDatabase s) {
            if (!metastore.databases().contains(s.name())) {
                metastore.createDatabase(s.name(), s.comment());
            } else if (!s.ifNotExists()) {
                throw new SqlException(SqlException.ALREADY_EXISTS, "database already exists: " + s.name());
            }
        } else if (statement instanceof DdlStatement.DropDatabase s) {
            dropDatabase(s);
        } else if (statement instanceof DdlStatement.CreateExternalTable s) {
            return createTable(s, settings, rowsOf, cancelled);
        } else if (statement instanceof DdlStatement.CreateTable s) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "CREATE TABLE " + s.name() + ": a Hive metastore "
                    + "catalog (ooo.catalog=hms) holds tables in files, not on the nodes: CREATE EXTERNAL TABLE ... "
                    + "STORED AS ... LOCATION '...', or CREATE TABLE ... STORED AS ... LOCATION '...' AS SELECT");
        } else if (statement instanceof DdlStatement.DropTable s) {
            // looked up as it is: a table the engine cannot read (a view, an ACID table) is still dropped here
            if (metastore.exists(s.database(), s.name())) {
                metastore.dropTable(s.database(), s.name());
                LOG.info("dropped table {}.{} from the metastore", s.database(), s.name());
            } else if (!s.ifExists() && !DataDefinition.ignoresMissing(settings)) {
                throw new SqlException(SqlException.UNKNOWN_TABLE, "table not found: " + s.database() + "." + s.name()
                        + " (" + DataDefinition.DROP_IGNORES_MISSING + " is false)");
            }
        } else {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet with a Hive metastore catalog "
                    + "(ooo.catalog=hms): " + statement.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2")
                    .toUpperCase(java.util.Locale.ROOT) + "; change the catalog through Hive");
        }
        return StatementResult.update(0);
    }

    private void dropDatabase(DdlStatement.DropDatabase s) {
        if (s.name().equals("default")) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "DROP DATABASE default: the metastore keeps its default "
                    + "database; drop its tables one by one");
        }
        if (!metastore.databases().contains(s.name())) {
            if (s.ifExists()) {
                return;
            }
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + s.name());
        }
        int tables = metastore.tables(s.name()).size();
        if (tables > 0 && !s.cascade()) {
            throw new SqlException(SqlException.GENERAL, "database " + s.name() + " is not empty (" + tables
                    + " tables); DROP DATABASE ... CASCADE drops them too");
        }
        metastore.dropDatabase(s.name(), s.cascade());
    }

    private StatementResult createTable(DdlStatement.CreateExternalTable s, Map<String, String> settings,
                                        PlanRows rowsOf, BooleanSupplier cancelled) {
        if (!s.constraints().unenforcedKey().isEmpty() || !s.constraints().foreignKeys().isEmpty()) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "table " + s.name() + ": PRIMARY and FOREIGN KEY "
                    + "of a table in a Hive metastore catalog, not supported yet");
        }
        for (var c : s.columns()) {
            if (c.type().isComplex()) {
                throw new SqlException(SqlException.NOT_SUPPORTED, "table " + s.name() + ": column " + c.name() + " of type "
                        + c.type() + " in a Hive metastore catalog, not supported yet (its tables are read with simple types)");
            }
        }
        if (!metastore.databases().contains(s.database())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + s.database());
        }
        if (metastore.exists(s.database(), s.name())) {
            if (s.ifNotExists()) {
                return StatementResult.update(0);
            }
            throw new SqlException(SqlException.ALREADY_EXISTS, "table already exists: " + s.database() + "." + s.name());
        }
        Configuration conf = hadoop.apply(new Configuration(), settings);
        if (s.asSelect() == null) {
            String location = loadable.tableLocation("CREATE EXTERNAL TABLE " + s.name(), s.location(), conf);
            metastore.createTable(table(s, location));
            LOG.info("entered external table {}.{} over {} in the metastore", s.database(), s.name(), location);
            return StatementResult.update(0);
        }
        FileTableChanges.NewLocation location = files.newLocation(s, conf);
        TableInfo t = table(s, location.path());
        long written = files.insertCreating(new DdlStatement.Insert(t, s.asSelect(), false), location, rowsOf, settings,
                cancelled, () -> metastore.createTable(t));
        LOG.info("created table {}.{} over {} ({} rows) in the metastore", s.database(), s.name(), t.storage(), written);
        return StatementResult.update(written);
    }

    private static TableInfo table(DdlStatement.CreateExternalTable s, String location) {
        return CatalogTable.of(s.database(), s.name(), s.columns(), List.of(), List.of(), s.properties(), s.comment(),
                s.constraints()).withStorage(location).info();
    }
}
