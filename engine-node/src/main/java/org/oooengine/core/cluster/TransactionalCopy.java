package org.oooengine.core.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.txn.TransactionAbortedException;
import org.oooengine.core.wire.PayloadWriter;

/**
 * Puts a transactional table's partition back on a holder that lacks it ({@link ReplicaRepair}):
 * the table is created there, then one transaction reads the partition on a node that has it and
 * writes every row onto the holder. Writes into the partition go on meanwhile (they reach the new
 * table too once it exists); one that changes a row the copy read makes the copy conflict, and it
 * runs again from the start, at most {@value #ATTEMPTS} times.
 */
final class TransactionalCopy {
    private static final Logger LOG = LogManager.getLogger(TransactionalCopy.class);
    static final int ATTEMPTS = 10;
    private static final int PAGE_ROWS = 4096;

    private TransactionalCopy() {
    }

    /** The transactional tables {@code node} keeps, its copies of other nodes' partitions among them. */
    static java.util.Set<String> tables(Peers peers, String node) {
        var r = NodeCalls.await(peers.client(node).call(OpCode.TXN, new byte[] {TxnOp.TABLES.code()},
                ReplicaRepair.ASK_WITHIN)).reader();
        java.util.Set<String> names = new java.util.TreeSet<>();
        int n = r.getCount(1);
        for (int i = 0; i < n; i++) {
            names.add(r.getString());
        }
        return names;
    }

    /** Copies {@code c}; returns its rows and bytes. */
    static long[] run(Peers peers, ReplicaRepair.Copy c, ReplicaRepair.Pacer pacer, ReplicaRepair.Listener listener)
            throws InterruptedException {
        NodeCalls.await(peers.client(c.to()).call(OpCode.TXN, new PayloadWriter(64).put(TxnOp.CREATE_TABLE.code())
                .putString(c.toStored()).toByteArray()));
        for (int attempt = 1; ; attempt++) {
            DistributedTransaction tx = new DistributedTransaction(peers);
            try {
                long[] copied = copyRows(tx, c, pacer, listener);
                tx.commit();
                return copied;
            } catch (TransactionAbortedException e) {
                tx.abort(); // everywhere it reached, as a statement that conflicted is
                if (attempt == ATTEMPTS) {
                    throw new ClusterException("copying partition " + c.partition() + " of transactional table " + c.table()
                            + " onto node " + c.to() + " conflicted with writes " + ATTEMPTS + " times; run the repair "
                            + "again when fewer writes reach it", e);
                }
                LOG.info("copying {} onto {} conflicted with a write (attempt {}): again", c.toStored(), c.to(), attempt);
                Thread.sleep(ThreadLocalRandom.current().nextLong(10, 200));
            } catch (RuntimeException | InterruptedException e) {
                tx.abort();
                throw e;
            }
        }
    }

    private static long[] copyRows(DistributedTransaction tx, ReplicaRepair.Copy c, ReplicaRepair.Pacer pacer,
                                   ReplicaRepair.Listener listener) throws InterruptedException {
        long rows = 0;
        long bytes = 0;
        byte[] from = null;
        while (true) {
            List<DistributedTransaction.Row> page = tx.scan(c.from(), c.fromStored(), from, null, PAGE_ROWS);
            long pageBytes = 0;
            for (DistributedTransaction.Row r : page) {
                tx.write(c.to(), c.toStored(), TransactionalWrite.PUT, r.key(), r.value());
                pageBytes += r.key().length + r.value().length;
            }
            rows += page.size();
            bytes += pageBytes;
            listener.copied(pageBytes);
            pacer.paid(pageBytes);
            if (page.size() < PAGE_ROWS) {
                return new long[] {rows, bytes};
            }
            byte[] last = page.get(page.size() - 1).key();
            from = Arrays.copyOf(last, last.length + 1); // the smallest key after the last one
        }
    }
}
