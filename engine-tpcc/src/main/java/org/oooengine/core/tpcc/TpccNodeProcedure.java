package org.oooengine.core.tpcc;

import org.oooengine.core.cluster.RowAccess;
import org.oooengine.core.cluster.NodeProcedure;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.txn.TransactionAbortedException;

/**
 * TPC-C's transactions as a stored procedure ({@value #NAME}, on the transactional tables) on the node that holds the home
 * warehouse: the body runs there, reading and writing that warehouse's rows in place and another
 * warehouse's over the network, and commits (by two-phase commit when another node's rows took
 * part); a conflict runs it again, up to {@value #ATTEMPTS} times.
 *
 * <p>Arguments: warehouses (int), the input ({@link TpccInputCodec}), the history row's key (long),
 * the time (long), a seed for a customer drawn when a last name finds none (long). Answer:
 * committed (byte 1, or 0 after {@value #ATTEMPTS} conflicts), the attempts that conflicted (int),
 * whether another node took part (byte).
 */
public class TpccNodeProcedure implements NodeProcedure {
    public static final String NAME = "tpcc";
    static final int ATTEMPTS = 100;

    @Override
    public String name() {
        return NAME;
    }

    /** A transaction coordinated on this node over the engine's rows. */
    protected RowAccess begin(Context context) {
        return context.begin();
    }

    @Override
    public byte[] run(PayloadReader args, Context context) {
        TpccPlacement placement = new TpccPlacement(args.getInt(), context.nodes());
        TpccInput input = TpccInputCodec.read(args);
        long historyKey = args.getLong();
        long now = args.getLong();
        long seed = args.getLong();
        int conflicts = 0;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            RowAccess tx = begin(context);
            try {
                TpccProcedures procedures = new TpccProcedures(new TpccRandom(seed), now, () -> historyKey);
                procedures.run(input, new TransactionalTpccTables(tx, placement, context.node()));
                tx.commit();
                return answer(true, conflicts, tx.nodes().size() > 1);
            } catch (TransactionAbortedException e) {
                tx.abort();
                conflicts++;
                if (attempt > 8) {
                    Thread.yield();
                }
            } catch (RuntimeException e) {
                tx.abort();
                throw e;
            }
        }
        return answer(false, conflicts, false);
    }

    private static byte[] answer(boolean committed, int conflicts, boolean remote) {
        return new PayloadWriter(6).put(committed ? 1 : 0).putInt(conflicts).put(remote ? 1 : 0).toByteArray();
    }
}
