package org.oooengine.core.tpcc;

import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/** A {@link TpccInput} as the bytes a dispatcher sends the node that runs it. */
public final class TpccInputCodec {
    private TpccInputCodec() {
    }

    public static void write(TpccInput in, PayloadWriter w) {
        w.put(in.kind().ordinal()).putInt(in.warehouse());
        if (in instanceof TpccInput.NewOrder n) {
            w.putInt(n.district()).putInt(n.customer()).putVarInt(n.items().length);
            for (int i = 0; i < n.items().length; i++) {
                w.putInt(n.items()[i]).putInt(n.supplyWarehouses()[i]).putInt(n.quantities()[i]);
            }
        } else if (in instanceof TpccInput.Payment p) {
            w.putInt(p.district()).putInt(p.customerWarehouse()).putInt(p.customerDistrict()).putInt(p.customerId())
                    .putString(p.lastName() == null ? "" : p.lastName()).putLong(p.amount());
        } else if (in instanceof TpccInput.OrderStatus o) {
            w.putInt(o.district()).putInt(o.customerId()).putString(o.lastName() == null ? "" : o.lastName());
        } else if (in instanceof TpccInput.Delivery d) {
            w.putInt(d.carrier());
        } else if (in instanceof TpccInput.StockLevel s) {
            w.putInt(s.district()).putInt(s.threshold());
        }
    }

    public static TpccInput read(PayloadReader r) {
        int kind = r.get();
        int w = r.getInt();
        if (kind < 0 || kind >= TpccTransactions.Kind.values().length) {
            throw new IllegalArgumentException("unknown TPC-C transaction kind " + kind);
        }
        return switch (TpccTransactions.Kind.values()[kind]) {
            case NEW_ORDER -> {
                int d = r.getInt();
                int c = r.getInt();
                int lines = r.getCount(12);
                int[] items = new int[lines];
                int[] supply = new int[lines];
                int[] quantities = new int[lines];
                for (int i = 0; i < lines; i++) {
                    items[i] = r.getInt();
                    supply[i] = r.getInt();
                    quantities[i] = r.getInt();
                }
                yield new TpccInput.NewOrder(w, d, c, items, supply, quantities);
            }
            case PAYMENT -> {
                int d = r.getInt();
                int cw = r.getInt();
                int cd = r.getInt();
                int c = r.getInt();
                String last = r.getString();
                yield new TpccInput.Payment(w, d, cw, cd, c, last.isEmpty() ? null : last, r.getLong());
            }
            case ORDER_STATUS -> {
                int d = r.getInt();
                int c = r.getInt();
                String last = r.getString();
                yield new TpccInput.OrderStatus(w, d, c, last.isEmpty() ? null : last);
            }
            case DELIVERY -> new TpccInput.Delivery(w, r.getInt());
            case STOCK_LEVEL -> new TpccInput.StockLevel(w, r.getInt(), r.getInt());
        };
    }
}
