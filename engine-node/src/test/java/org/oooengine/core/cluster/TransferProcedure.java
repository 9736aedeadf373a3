package org.oooengine.core.cluster;

import java.nio.ByteBuffer;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.txn.TransactionAbortedException;

/**
 * A stored procedure for tests ({@value #NAME}): moves an amount between two accounts of table
 * {@code accounts} (account {@code a} lives on node {@code a % nodes}), coordinated on the node of
 * the first, run again after a conflict. With {@code duplicate} it also inserts the second account
 * again, which its node refuses: nothing of the transfer may stay.
 *
 * <p>Arguments: from (int), to (int), amount (long), duplicate (byte).
 */
public final class TransferProcedure implements NodeProcedure {
    static final String NAME = "test-transfer";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] run(PayloadReader args, Context context) {
        int from = args.getInt();
        int to = args.getInt();
        long amount = args.getLong();
        boolean duplicate = args.get() != 0;
        for (int attempt = 1; ; attempt++) {
            DistributedTransaction tx = context.begin();
            try {
                String fromNode = owner(context, from);
                String toNode = owner(context, to);
                long a = ByteBuffer.wrap(tx.get(fromNode, "accounts", key(from))).getLong();
                long b = ByteBuffer.wrap(tx.get(toNode, "accounts", key(to))).getLong();
                tx.write(fromNode, "accounts", TransactionalWrite.UPDATE, key(from), amount(a - amount));
                tx.write(toNode, "accounts", TransactionalWrite.UPDATE, key(to), amount(b + amount));
                if (duplicate) {
                    tx.write(toNode, "accounts", TransactionalWrite.INSERT, key(to), amount(0));
                }
                tx.commit();
                return new byte[0];
            } catch (TransactionAbortedException e) {
                tx.abort();
                if (attempt == 100) {
                    throw e;
                }
            } catch (RuntimeException e) {
                tx.abort();
                throw e;
            }
        }
    }

    static String owner(Context context, int account) {
        return context.nodes().get(account % context.nodes().size());
    }

    static byte[] key(int account) {
        return ByteBuffer.allocate(4).putInt(account).array();
    }

    static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }
}
