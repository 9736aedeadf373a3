package org.oooengine.core.fragment;

import java.util.List;
import org.oooengine.core.net.PayloadReader;
import org.oooengine.core.net.PayloadWriter;
import org.oooengine.core.net.ProtocolException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.ExprCodec;

/**
 * Where a shuffle sends each row: to the node that owns, of a table hash-partitioned on its key's
 * first column, the rows whose key equals the row's column {@code keyColumn} — the node where the
 * row's join partners are. The key is hashed as the table's loader hashed it (its stored
 * encoding), so {@code keyType} must be that column's type. Rows go to exchange
 * {@code exchangeId} on that node; a row whose key is null joins nothing and goes nowhere.
 */
public record ShuffleTarget(String exchangeId, int keyColumn, SqlType keyType, List<String> owners) {
    public ShuffleTarget {
        owners = List.copyOf(owners);
        if (owners.isEmpty()) {
            throw new IllegalArgumentException("a shuffle needs a node to send to");
        }
    }

    public void write(PayloadWriter w) {
        w.putString(exchangeId).putVarInt(keyColumn);
        ExprCodec.writeType(w, keyType);
        w.putVarInt(owners.size());
        owners.forEach(w::putString);
    }

    public static ShuffleTarget read(PayloadReader r) {
        String id = r.getString();
        int key = r.getVarInt();
        if (key < 0) {
            throw new ProtocolException("a shuffle keyed on column " + key);
        }
        SqlType type = ExprCodec.readType(r);
        int n = r.getCount(1);
        String[] owners = new String[n];
        for (int i = 0; i < n; i++) {
            owners[i] = r.getString();
        }
        return new ShuffleTarget(id, key, type, List.of(owners));
    }
}
