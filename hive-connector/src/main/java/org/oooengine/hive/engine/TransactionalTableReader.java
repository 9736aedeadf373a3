package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.TransactionalRows;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Reads transactional tables within the statement's transaction: every node's partition, each row
 * joining the transaction's read set there, so the statement commits only if what it read still
 * stands. The rows come to the coordinator, where the rest of the statement's work on them runs.
 */
final class TransactionalTableReader implements TableReader {
    private final StatementTransaction tx;

    TransactionalTableReader(StatementTransaction tx) {
        this.tx = tx;
    }

    /** How the nodes keep {@code table}: its columns as stored, keyed on its primary key. */
    static TableDefinition definition(TableInfo table) {
        List<Column> columns = new ArrayList<>();
        for (ResultColumn c : table.columns()) {
            columns.add(new Column(c.name(), c.type().storedType()));
        }
        return new TableDefinition(table.storage(), new Schema(columns), table.primaryKey(), List.of(), false);
    }

    static TransactionalRows layout(TableInfo table, StatementTransaction tx) {
        return new TransactionalRows(definition(table), tx.peers().spec().owners(table.storage()));
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        TransactionalRows layout = layout(table, tx);
        StoredRows sql = StoredRows.of(definition(table).schema().columns().stream().map(Column::type).toList());
        synchronized (tx) {
            DistributedTransaction t = tx.get();
            for (String node : tx.peers().spec().owners(table.storage())) {
                cancel.check();
                for (DistributedTransaction.Row r : t.scan(node, table.storage(), null, null)) {
                    sink.accept(sql.toSql(layout.row(r.value()), needed));
                }
            }
        }
    }
}
