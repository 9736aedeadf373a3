package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.txn.TransactionId;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * What a node's pipeline reads of transactional tables, sent with the pipeline: the statement's
 * transaction, which each row read joins the read set of on that node, and how the rows of each
 * such table are laid out (the nodes keep them as encoded rows under their keys). The pipeline's
 * other tables come from the node's store.
 */
public record TransactionalReads(TransactionId transaction, Map<String, Schema> tables) {
    /** A pipeline that reads no transactional table. */
    public static final TransactionalReads NONE = new TransactionalReads(null, Map.of());

    public TransactionalReads {
        tables = Map.copyOf(tables);
        if (transaction == null && !tables.isEmpty()) {
            throw new IllegalArgumentException("transactional tables " + tables.keySet() + " are read within a transaction");
        }
    }

    public boolean reads(String table) {
        return tables.containsKey(table);
    }

    void write(PayloadWriter w) {
        w.putVarInt(tables.size());
        if (tables.isEmpty()) {
            return;
        }
        w.putLong(transaction.high()).putLong(transaction.low());
        for (Map.Entry<String, Schema> t : tables.entrySet()) {
            w.putString(t.getKey()).putVarInt(t.getValue().size());
            for (Column c : t.getValue().columns()) {
                w.putString(c.name()).putString(c.type().toString());
            }
        }
    }

    static TransactionalReads read(PayloadReader r) {
        int n = r.getCount(2);
        if (n == 0) {
            return NONE;
        }
        TransactionId id = TransactionService.readId(r);
        Map<String, Schema> tables = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = r.getString();
            int width = r.getCount(2);
            if (width == 0) {
                throw new ProtocolException("transactional table " + name + " read with no columns");
            }
            List<Column> columns = new ArrayList<>(width);
            for (int c = 0; c < width; c++) {
                columns.add(new Column(r.getString(), DataType.parse(r.getString())));
            }
            tables.put(name, new Schema(columns));
        }
        return new TransactionalReads(id, tables);
    }
}
