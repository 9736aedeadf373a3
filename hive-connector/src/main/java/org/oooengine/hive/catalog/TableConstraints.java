package org.oooengine.hive.catalog;

import java.util.List;

/**
 * A table's constraints as Hive declares them, {@code DISABLE NOVALIDATE}: kept, shown and
 * written back by {@code SHOW CREATE TABLE}, not checked against the rows. (The primary key's
 * columns are the table's own {@link CatalogTable#primaryKey()}, which the engine does enforce:
 * the key the rows are stored by.)
 *
 * @param primaryKeyName the name of {@code CONSTRAINT name PRIMARY KEY}; empty when none was given
 * @param primaryKeyRely whether the primary key is declared {@code RELY} (the planner may trust it)
 * @param unenforcedKey  the primary key's columns of a table whose rows are files (empty otherwise):
 *                       the engine neither stores the rows by it nor checks it, so it is not the
 *                       table's own {@link CatalogTable#primaryKey()}
 */
public record TableConstraints(String primaryKeyName, boolean primaryKeyRely, List<ForeignKey> foreignKeys,
                               List<String> unenforcedKey) {
    public static final TableConstraints NONE = new TableConstraints("", false, List.of());

    public TableConstraints {
        primaryKeyName = primaryKeyName == null ? "" : primaryKeyName;
        foreignKeys = foreignKeys == null ? List.of() : List.copyOf(foreignKeys);
        unenforcedKey = unenforcedKey == null ? List.of() : List.copyOf(unenforcedKey); // files written before it was kept
    }

    /** Constraints of a table whose primary key, if any, is its own key. */
    public TableConstraints(String primaryKeyName, boolean primaryKeyRely, List<ForeignKey> foreignKeys) {
        this(primaryKeyName, primaryKeyRely, foreignKeys, List.of());
    }

    /** The primary key's columns as declared: the table's own key, or the one no one checks of a table in files. */
    public List<String> declaredKey(List<String> ownKey) {
        return ownKey.isEmpty() ? unenforcedKey : ownKey;
    }

    /**
     * {@code [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES database.table (referenced)
     * DISABLE NOVALIDATE [RELY]}.
     */
    public record ForeignKey(String name, List<String> columns, String database, String table, List<String> referenced,
                             boolean rely) {
        public ForeignKey {
            name = name == null ? "" : name;
            columns = List.copyOf(columns);
            referenced = List.copyOf(referenced);
        }
    }
}
