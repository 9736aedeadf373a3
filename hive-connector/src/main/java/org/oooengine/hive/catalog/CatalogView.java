package org.oooengine.hive.catalog;

import java.util.List;

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
}
