package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.catalog.CatalogTable;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.hive.sql.ddl.DdlStatement;

/**
 * The ALTER TABLE statements that change the catalog only: RENAME TO (the rows keep their name on
 * the nodes), SET and UNSET TBLPROPERTIES, and CHANGE COLUMN giving a column a new name or comment
 * (the nodes find a column by its place, not its name). They apply to tables created through SQL;
 * a table only loaded onto the nodes has no catalog entry to change and is refused.
 */
final class TableChanges {
    /** Hive's table property that is the table's comment. */
    private static final String COMMENT_PROPERTY = "comment";

    private final EmbeddedCatalog catalog;

    TableChanges(EmbeddedCatalog catalog) {
        this.catalog = catalog;
    }

    /** The catalog's entry of a table an ALTER TABLE changes; a view, a missing table or a loaded one is refused. */
    CatalogTable entry(String database, String name) {
        String qualified = database + "." + name;
        if (catalog.view(database, name).isPresent()) {
            throw new SqlException(SqlException.GENERAL, qualified + " is a view: ALTER VIEW changes it, not ALTER TABLE");
        }
        return catalog.entry(database, name).orElseThrow(() -> catalog.table(database, name).isPresent()
                ? new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: ALTER TABLE of " + qualified
                        + ", which was loaded onto the nodes rather than created through SQL")
                : new SqlException(SqlException.UNKNOWN_TABLE, "table not found: " + qualified));
    }

    void rename(DdlStatement.Rename s) {
        String from = s.database() + "." + s.name();
        String to = s.newDatabase() + "." + s.newName();
        if (!catalog.databases().contains(s.newDatabase())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + s.newDatabase());
        }
        if (catalog.table(s.newDatabase(), s.newName()).isPresent() || catalog.view(s.newDatabase(), s.newName()).isPresent()) {
            throw new SqlException(SqlException.ALREADY_EXISTS, "cannot rename " + from + " to " + to + ": " + to
                    + " exists already");
        }
        if (s.view()) {
            CatalogView v = catalog.view(s.database(), s.name()).orElseThrow(() -> new SqlException(
                    catalog.table(s.database(), s.name()).isPresent() ? SqlException.GENERAL : SqlException.UNKNOWN_TABLE,
                    catalog.table(s.database(), s.name()).isPresent() ? from + " is a table: ALTER TABLE renames it"
                            : "view not found: " + from));
            catalog.putView(new CatalogView(s.newDatabase(), s.newName(), v.columns(), v.statement(), v.comment()));
            catalog.removeView(s.database(), s.name());
            return;
        }
        CatalogTable t = entry(s.database(), s.name());
        catalog.renameTable(t, t.renamed(s.newDatabase(), s.newName()));
        // foreign keys that reference the table follow it, as Hive's metastore keeps them
        for (CatalogTable o : catalog.entries()) {
            CatalogTable moved = withReferencesRenamed(o, s);
            if (moved != o) {
                catalog.put(moved);
            }
        }
    }

    private static CatalogTable withReferencesRenamed(CatalogTable t, DdlStatement.Rename s) {
        boolean changed = false;
        List<TableConstraints.ForeignKey> keys = new ArrayList<>();
        for (TableConstraints.ForeignKey fk : t.constraints().foreignKeys()) {
            if (fk.database().equals(s.database()) && fk.table().equals(s.name())) {
                fk = new TableConstraints.ForeignKey(fk.name(), fk.columns(), s.newDatabase(), s.newName(),
                        fk.referenced(), fk.rely());
                changed = true;
            }
            keys.add(fk);
        }
        TableConstraints c = t.constraints();
        return changed ? t.withConstraints(new TableConstraints(c.primaryKeyName(), c.primaryKeyRely(), keys, c.unenforcedKey())) : t;
    }

    void alterProperties(DdlStatement.AlterProperties s) {
        CatalogTable t = entry(s.database(), s.name());
        Map<String, String> properties = new LinkedHashMap<>(t.properties());
        String comment = t.comment();
        for (Map.Entry<String, String> e : s.set().entrySet()) {
            if (e.getKey().equals(COMMENT_PROPERTY)) {
                comment = e.getValue();
            } else {
                properties.put(e.getKey(), e.getValue());
            }
        }
        for (String key : s.unset()) {
            boolean present = key.equals(COMMENT_PROPERTY) ? !comment.isEmpty() : properties.containsKey(key);
            if (!present && !s.ifExists()) {
                // Hive's message, which says how to go on
                throw new SqlException(SqlException.GENERAL, "table " + t.database() + "." + t.name() + " has no property '"
                        + key + "'; ALTER TABLE " + t.name() + " UNSET TBLPROPERTIES IF EXISTS (...) ignores a property "
                        + "that may not be there");
            }
            if (key.equals(COMMENT_PROPERTY)) {
                comment = "";
            } else {
                properties.remove(key);
            }
        }
        catalog.put(t.withProperties(properties, comment));
    }

    void addForeignKey(DdlStatement.AddForeignKey s) {
        CatalogTable t = entry(s.database(), s.name());
        TableConstraints c = t.constraints();
        String name = s.key().name();
        if (!name.isEmpty() && (name.equals(c.primaryKeyName())
                || c.foreignKeys().stream().anyMatch(fk -> fk.name().equals(name)))) {
            throw new SqlException(SqlException.ALREADY_EXISTS, "table " + t.database() + "." + t.name()
                    + " has a constraint " + name + " already");
        }
        List<TableConstraints.ForeignKey> keys = new ArrayList<>(c.foreignKeys());
        keys.add(s.key());
        catalog.put(t.withConstraints(new TableConstraints(c.primaryKeyName(), c.primaryKeyRely(), keys, c.unenforcedKey())));
    }

    void dropConstraint(DdlStatement.DropConstraint s) {
        CatalogTable t = entry(s.database(), s.name());
        TableConstraints c = t.constraints();
        if (s.constraint().equals(c.primaryKeyName())) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: dropping primary key " + s.constraint()
                    + " of " + t.database() + "." + t.name() + " (the rows are stored by it)");
        }
        List<TableConstraints.ForeignKey> keys = c.foreignKeys().stream()
                .filter(fk -> !fk.name().equals(s.constraint())).toList();
        if (keys.size() == c.foreignKeys().size()) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "table " + t.database() + "." + t.name()
                    + " has no constraint " + s.constraint());
        }
        catalog.put(t.withConstraints(new TableConstraints(c.primaryKeyName(), c.primaryKeyRely(), keys, c.unenforcedKey())));
    }

    void changeColumn(DdlStatement.ChangeColumn s) {
        CatalogTable t = entry(s.database(), s.name());
        String table = t.database() + "." + t.name();
        int at = -1;
        for (int i = 0; i < t.columns().size(); i++) {
            if (t.columns().get(i).name().equals(s.column())) {
                at = i;
            }
        }
        if (at < 0) {
            throw new SqlException(SqlException.UNKNOWN_COLUMN, "table " + table + " has no column " + s.column());
        }
        CatalogTable.ColumnEntry old = t.columns().get(at);
        if (!old.type().equals(s.type().toString())) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: ALTER TABLE ... CHANGE COLUMN to "
                    + "another type (" + s.column() + " is " + old.type() + ", not " + s.type() + "): the nodes' rows "
                    + "keep their values as they are");
        }
        boolean renamed = !s.newName().equals(s.column());
        if (renamed) {
            if (t.columns().stream().anyMatch(c -> c.name().equals(s.newName()))) {
                throw new SqlException(SqlException.ALREADY_EXISTS, "table " + table + " has a column " + s.newName()
                        + " already");
            }
            checkNotKeyed(t, s.column());
        }
        List<CatalogTable.ColumnEntry> columns = new ArrayList<>(t.columns());
        columns.set(at, new CatalogTable.ColumnEntry(s.newName(), old.type(), s.comment() == null ? old.comment() : s.comment()));
        catalog.put(t.withColumns(columns));
    }

    /**
     * A column the rows are keyed or indexed by, or a foreign key names, keeps its name: the nodes
     * know their keys and indexes by the columns' names.
     */
    private void checkNotKeyed(CatalogTable t, String column) {
        String why = t.primaryKey().contains(column) ? "the primary key"
                : t.indexedColumns().contains(column) ? "a secondary index ('ooo.indexes')"
                : t.constraints().foreignKeys().stream().anyMatch(fk -> fk.columns().contains(column)) ? "a foreign key"
                : null;
        for (CatalogTable o : catalog.entries()) {
            if (why == null && o.constraints().foreignKeys().stream().anyMatch(fk -> fk.database().equals(t.database())
                    && fk.table().equals(t.name()) && fk.referenced().contains(column))) {
                why = "a foreign key of " + o.database() + "." + o.name();
            }
        }
        if (why != null) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: renaming column " + column + " of "
                    + t.database() + "." + t.name() + ", which is in " + why);
        }
    }
}
