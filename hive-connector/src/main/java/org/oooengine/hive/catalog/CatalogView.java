package org.oooengine.hive.catalog;

import java.util.List;
import org.oooengine.core.sql.SqlType;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A view created through SQL, as the catalog keeps it: its columns (names and types as its query
 * gave them when it was created) and the statement that created it, whose query is analysed again
 * wherever the view is read, so a view always reads its tables as they are.
 *
 * @param statement the CREATE VIEW or ALTER VIEW ... AS statement as written
 */
public record CatalogView(String database, String name, List<CatalogTable.ColumnEntry> columns, String statement,
                          String comment) {
    public CatalogView {
        columns = List.copyOf(columns);
        comment = comment == null ? "" : comment;
    }

    /** Its columns as a table's, for the metadata calls that list columns; it has no storage. */
    public TableInfo info() {
        List<ResultColumn> cols = columns.stream()
                .map(c -> new ResultColumn(c.name(), SqlType.parse(c.type()), c.comment())).toList();
        return new TableInfo(database, name, cols, List.of(), "", java.util.Map.of(), comment);
    }
}
