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
 */
public record TableConstraints(String primaryKeyName, boolean primaryKeyRely, List<ForeignKey> foreignKeys) {
    public static final TableConstraints NONE = new TableConstraints("", false, List.of());

    public TableConstraints {
        primaryKeyName = primaryKeyName == null ? "" : primaryKeyName;
        foreignKeys = foreignKeys == null ? List.of() : List.copyOf(foreignKeys);
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
