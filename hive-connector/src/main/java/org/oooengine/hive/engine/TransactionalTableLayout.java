package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.TransactionalRows;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/** How the nodes keep a transactional table of the catalog: its columns as stored, keyed on its primary key. */
final class TransactionalTableLayout {
    private TransactionalTableLayout() {
    }

    static TableDefinition definition(TableInfo table) {
        List<Column> columns = new ArrayList<>();
        for (ResultColumn c : table.columns()) {
            columns.add(new Column(c.name(), c.type().storedType()));
        }
        return new TableDefinition(table.storage(), new Schema(columns), table.primaryKey(), List.of(), false);
    }

    /** Where its rows live and how they are encoded there. */
    static TransactionalRows layout(TableInfo table, Peers peers) {
        return new TransactionalRows(definition(table), peers.spec().owners(table.storage()));
    }
}
