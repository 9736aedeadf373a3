package org.oooengine.core.tpcc;

import org.oooengine.core.cluster.RowAccess;

/**
 * The baseline of {@link TpccNodeProcedure} ({@value #NAME}): the same transactions, dispatched and
 * routed the same way, over RocksDB's lock-based {@code TransactionDB} on each node.
 */
public final class RocksTpccProcedure extends TpccNodeProcedure {
    public static final String NAME = "tpcc-rocksdb";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected RowAccess begin(Context context) {
        return new RocksTransaction(context.peers(), RocksTpccStep.store(context), context.node());
    }
}
