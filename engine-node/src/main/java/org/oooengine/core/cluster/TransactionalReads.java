package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * such table are laid out (the nodes keep them as encoded rows under their keys). The tables in
 * {@code fromCopies} are read from the node's analytical copies instead (HTAP: whole transactions
 * as of the moment the copy was pinned, outside any transaction); every scan a statement runs on a
 * node reads the one pin its {@code copySnapshot} names there (0: each scan pins its own). The
 * pipeline's other tables come from the node's store.
 */
public record TransactionalReads(TransactionId transaction, Map<String, Schema> tables, Set<String> fromCopies,
                                 long copySnapshot) {
    /** A pipeline that reads no transactional table. */
    public static final TransactionalReads NONE = new TransactionalReads(null, Map.of(), Set.of());

    public TransactionalReads {
        tables = Map.copyOf(tables);
        fromCopies = Set.copyOf(fromCopies);
        if (!tables.keySet().containsAll(fromCopies)) {
            throw new IllegalArgumentException("tables read from copies " + fromCopies + " are not all among those read "
                    + tables.keySet());
        }
        if (transaction == null && !fromCopies.containsAll(tables.keySet())) {
            throw new IllegalArgumentException("transactional tables " + tables.keySet() + " are read within a transaction");
        }
    }

    /** Every table in {@code tables} read within {@code transaction}. */
    public TransactionalReads(TransactionId transaction, Map<String, Schema> tables) {
        this(transaction, tables, Set.of());
    }

    /** As the canonical constructor, each scan of a copy pinning its own. */
    public TransactionalReads(TransactionId transaction, Map<String, Schema> tables, Set<String> fromCopies) {
        this(transaction, tables, fromCopies, 0);
    }

    public boolean reads(String table) {
        return tables.containsKey(table);
    }

    /** Whether {@code table} is read from the node's analytical copy. */
    public boolean fromCopy(String table) {
        return fromCopies.contains(table);
    }

    void write(PayloadWriter w) {
        w.putVarInt(tables.size());
        if (tables.isEmpty()) {
            return;
        }
        w.put(transaction == null ? 0 : 1);
        if (transaction != null) {
            w.putLong(transaction.high()).putLong(transaction.low());
        }
        w.putLong(copySnapshot);
        for (Map.Entry<String, Schema> t : tables.entrySet()) {
            w.putString(t.getKey()).put(fromCopies.contains(t.getKey()) ? 1 : 0).putVarInt(t.getValue().size());
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
        TransactionId id = r.get() == 0 ? null : TransactionService.readId(r);
        long copySnapshot = r.getLong();
        Map<String, Schema> tables = new LinkedHashMap<>();
        Set<String> fromCopies = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            String name = r.getString();
            if (r.get() != 0) {
                fromCopies.add(name);
            }
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
        try {
            return new TransactionalReads(id, tables, fromCopies, copySnapshot);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(e.getMessage());
        }
    }
}
