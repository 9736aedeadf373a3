package org.oooengine.hive.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A table created through SQL, as the embedded catalog keeps it: its columns, its primary key
 * (the clustering and partitioning key on the nodes) and the columns with a secondary index.
 * A table declared without a primary key is stored with a hidden row id as its key, numbered by
 * the coordinator ({@code nextRowId}), so rows that repeat are kept, as Hive keeps them.
 * {@code constraints} are what Hive declares and does not enforce: the primary key's name and
 * the foreign keys, and of a table whose rows are files (an EXTERNAL table, whose own primary key
 * is empty) the primary key it was declared with: no node stores the rows by it, nothing checks
 * it, and the planner trusts it only where it was declared RELY ({@link #info()}).
 *
 * @param storage the name of the table on the nodes
 */
public record CatalogTable(String database, String name, String storage, List<ColumnEntry> columns,
                           List<String> primaryKey, List<String> indexedColumns, Map<String, String> properties,
                           String comment, long nextRowId, TableConstraints constraints) {
    /** The hidden key column of a table declared without a primary key. */
    public static final String ROW_ID = "__row_id";

    public record ColumnEntry(String name, String type, String comment) {
    }

    public CatalogTable {
        constraints = constraints == null ? TableConstraints.NONE : constraints; // files written before constraints were kept
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        indexedColumns = List.copyOf(indexedColumns);
        properties = Map.copyOf(properties);
        comment = comment == null ? "" : comment;
    }

    public static CatalogTable of(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                                  List<String> indexedColumns, Map<String, String> properties, String comment,
                                  TableConstraints constraints) {
        List<ColumnEntry> entries = new ArrayList<>();
        for (ResultColumn c : columns) {
            if (c.type().isComplex() && (primaryKey.contains(c.name()) || indexedColumns.contains(c.name()))) {
                // keys are stored in order, and arrays and maps have none (Hive does not compare them either)
                throw new SqlException(SqlException.NOT_SUPPORTED, (primaryKey.contains(c.name()) ? "PRIMARY KEY" : "an index")
                        + " on column " + c.name() + " of type " + c.type() + " (arrays and maps have no order)");
            }
            entries.add(new ColumnEntry(c.name(), c.type().toString(), c.comment() == null ? "" : c.comment()));
        }
        String storage = ClusterCatalog.DEFAULT_DATABASE.equals(database) ? name : database + "." + name;
        return new CatalogTable(database, name, storage, entries, primaryKey, indexedColumns, properties, comment, 0,
                constraints);
    }

    /**
     * The same table stored under a name of its own on the nodes (its name and a random suffix):
     * a new table never meets what a dropped one of the same name left behind.
     */
    /** This table kept on the nodes under {@code storage}. */
    public CatalogTable withStorage(String storage) {
        return new CatalogTable(database, name, storage, columns, primaryKey, indexedColumns, properties, comment, nextRowId,
                constraints);
    }

    public CatalogTable withUniqueStorage() {
        String unique = storage + "#" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
        return new CatalogTable(database, name, unique, columns, primaryKey, indexedColumns, properties, comment, nextRowId,
                constraints);
    }

    public boolean hasRowId() {
        return primaryKey.isEmpty();
    }

    public CatalogTable withNextRowId(long next) {
        return new CatalogTable(database, name, storage, columns, primaryKey, indexedColumns, properties, comment, next,
                constraints);
    }

    /** The same rows under another name (ALTER TABLE ... RENAME TO): its name on the nodes stays. */
    public CatalogTable renamed(String newDatabase, String newName) {
        return new CatalogTable(newDatabase, newName, storage, columns, primaryKey, indexedColumns, properties, comment,
                nextRowId, constraints);
    }

    public CatalogTable withProperties(Map<String, String> newProperties, String newComment) {
        return new CatalogTable(database, name, storage, columns, primaryKey, indexedColumns, newProperties, newComment,
                nextRowId, constraints);
    }

    public CatalogTable withColumns(List<ColumnEntry> newColumns) {
        return new CatalogTable(database, name, storage, newColumns, primaryKey, indexedColumns, properties, comment,
                nextRowId, constraints);
    }

    public CatalogTable withConstraints(TableConstraints newConstraints) {
        return new CatalogTable(database, name, storage, columns, primaryKey, indexedColumns, properties, comment,
                nextRowId, newConstraints);
    }

    /** What SQL sees: the declared columns, without the hidden row id. */
    public TableInfo info() {
        List<ResultColumn> cols = new ArrayList<>();
        for (ColumnEntry c : columns) {
            cols.add(new ResultColumn(c.name(), SqlType.parse(c.type()), c.comment()));
        }
        return new TableInfo(database, name, cols, primaryKey, indexedColumns, storage, properties, comment,
                constraints.primaryKeyRely() ? constraints.unenforcedKey() : List.of());
    }

    /** How the nodes store it: the declared columns (and the row id), clustered on the key, one local index per indexed column. */
    public TableDefinition definition() {
        List<Column> cols = new ArrayList<>();
        for (ColumnEntry c : columns) {
            cols.add(new Column(c.name(), SqlType.parse(c.type()).storedType()));
        }
        if (hasRowId()) {
            cols.add(new Column(ROW_ID, DataType.parse("bigint")));
        }
        List<TableDefinition.IndexDefinition> indexes = new ArrayList<>();
        for (String c : indexedColumns) {
            indexes.add(new TableDefinition.IndexDefinition(name + "_" + c.toLowerCase(Locale.ROOT), List.of(c)));
        }
        return new TableDefinition(storage, new Schema(cols), hasRowId() ? List.of(ROW_ID) : primaryKey, indexes, false);
    }
}
