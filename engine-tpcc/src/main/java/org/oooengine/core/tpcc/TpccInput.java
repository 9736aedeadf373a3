package org.oooengine.core.tpcc;

/**
 * One TPC-C transaction's inputs, drawn by its terminal before it runs (clause 2.x.1), so that a
 * transaction run again after a conflict is the same transaction. {@link #warehouse()} is its home
 * warehouse, where a dispatcher sends it.
 */
public sealed interface TpccInput {
    int warehouse();

    /** The kind, as {@link TpccTransactions.Kind} counts it. */
    TpccTransactions.Kind kind();

    /** Clause 2.4.1: a new order of lines, each an item, the warehouse supplying it and a quantity. */
    record NewOrder(int warehouse, int district, int customer, int[] items, int[] supplyWarehouses, int[] quantities)
            implements TpccInput {
        public TpccTransactions.Kind kind() {
            return TpccTransactions.Kind.NEW_ORDER;
        }
    }

    /**
     * Clause 2.5.1: a payment into warehouse and district by a customer of
     * ({@code customerWarehouse}, {@code customerDistrict}) — another warehouse's for a remote one —
     * chosen by id or, when {@code customerId} is 0, by last name.
     */
    record Payment(int warehouse, int district, int customerWarehouse, int customerDistrict, int customerId,
                   String lastName, long amount) implements TpccInput {
        public TpccTransactions.Kind kind() {
            return TpccTransactions.Kind.PAYMENT;
        }
    }

    /** Clause 2.6.1: a customer (by id, or by last name when {@code customerId} is 0) asks for their last order. */
    record OrderStatus(int warehouse, int district, int customerId, String lastName) implements TpccInput {
        public TpccTransactions.Kind kind() {
            return TpccTransactions.Kind.ORDER_STATUS;
        }
    }

    /** Clause 2.7.1: the warehouse's oldest undelivered orders, one per district, delivered by {@code carrier}. */
    record Delivery(int warehouse, int carrier) implements TpccInput {
        public TpccTransactions.Kind kind() {
            return TpccTransactions.Kind.DELIVERY;
        }
    }

    /** Clause 2.8.1: items of the district's last 20 orders below {@code threshold} in stock. */
    record StockLevel(int warehouse, int district, int threshold) implements TpccInput {
        public TpccTransactions.Kind kind() {
            return TpccTransactions.Kind.STOCK_LEVEL;
        }
    }
}
