package org.oooengine.core.tpcc;

/**
 * TPC-C's five transactions on a {@link TpccDatabase}, as one terminal runs them in the standard
 * mix (inputs from {@link TpccInputs}, bodies from {@link TpccProcedures}): every warehouse is the
 * home warehouse of its rows, no remote stock or customers.
 */
public final class TpccTransactions {
    /** The transaction kinds, in the order of {@link #counts()}. */
    public enum Kind { NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL }

    private final TpccDatabase db;
    private final TpccInputs inputs;
    private final TpccProcedures procedures;
    private final long[] counts = new long[Kind.values().length];

    public TpccTransactions(TpccDatabase db, long seed, long now) {
        this.db = db;
        TpccRandom r = new TpccRandom(seed);
        this.inputs = new TpccInputs(r, db.warehouses(), false);
        long[] historySeq = {(long) db.warehouses() * TpccGenerator.DISTRICTS_PER_WAREHOUSE
                * TpccGenerator.CUSTOMERS_PER_DISTRICT};
        this.procedures = new TpccProcedures(r, now, () -> ++historySeq[0]);
    }

    /** Runs the next transaction of the mix; returns its kind. */
    public Kind next() {
        TpccInput input = inputs.next();
        procedures.run(input, db);
        counts[input.kind().ordinal()]++;
        return input.kind();
    }

    /** Transactions run so far, by kind. */
    public long[] counts() {
        return counts.clone();
    }
}
