package org.oooengine.hive.catalog;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.sql.SqlException;
import org.oooengine.optimizer.catalog.TableInfo;

/** Databases and their tables, as SQL names them. Names are lower case. */
public interface Catalog {
    List<String> databases();

    List<TableInfo> tables(String database);

    Optional<TableInfo> table(String database, String name);

    /**
     * Refuses, with an error saying why, to write (load, insert into) table {@code database.name}
     * when this catalog's tables cannot be written; by default they can.
     */
    default void checkWritable(String database, String name) {
    }

    /**
     * Keeps {@code statistics} (table properties, {@link org.oooengine.hive.files.FileTableStatistics})
     * with table {@code database.name}, replacing those of the same names; refused by default (a
     * catalog that keeps nothing).
     */
    default void recordStatistics(String database, String name, Map<String, String> statistics) {
        throw new SqlException(SqlException.NOT_SUPPORTED, "this catalog keeps no statistics of " + database + "." + name);
    }

    /** The view {@code database.name}; none by default (a catalog that keeps no views). */
    default Optional<CatalogView> view(String database, String name) {
        return Optional.empty();
    }

    /** The views of a database, by name; none by default. */
    default List<CatalogView> views(String database) {
        return List.of();
    }

    /** The constraints declared with table {@code database.name}; none by default. */
    default TableConstraints constraints(String database, String name) {
        return TableConstraints.NONE;
    }

    /** The system table {@code database.name}, whose rows the engine makes up when read; none by default. */
    default Optional<SystemCatalog.SystemTable> systemTable(String database, String name) {
        return Optional.empty();
    }
}
