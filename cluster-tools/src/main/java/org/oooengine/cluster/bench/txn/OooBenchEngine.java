package org.oooengine.cluster.bench.txn;

import java.nio.file.Path;
import java.util.Iterator;
import org.oooengine.core.txn.Durability;
import org.oooengine.core.txn.LogProtocol;
import org.oooengine.core.txn.Transaction;
import org.oooengine.core.txn.TransactionalDatabase;
import org.oooengine.core.txn.TransactionalTable;
import org.oooengine.core.txn.Worker;

/** This project's transactional tables: TicToc plus the per-worker WAL, one worker per thread. */
final class OooBenchEngine implements BenchEngine {
    private final TransactionalDatabase db;
    private final TransactionalTable table;

    OooBenchEngine(Path dir, long rows, LogProtocol protocol, Durability durability) {
        db = TransactionalDatabase.open(dir, protocol, durability);
        table = db.createTable("usertable");
        db.load(table, () -> new Iterator<>() {
            private long next;

            @Override
            public boolean hasNext() {
                return next < rows;
            }

            @Override
            public byte[][] next() {
                return new byte[][] {BenchEngine.key(next++), new byte[VALUE_BYTES]};
            }
        });
    }

    @Override
    public Session session() {
        Worker worker = db.newWorker();
        return new Session() {
            @Override
            public int run(long[] keys, TxnWorkload workload, Runnable onDurable) {
                return worker.execute(tx -> body(tx, keys, workload), onDurable);
            }

            @Override
            public void drain() {
                worker.close();
            }
        };
    }

    private void body(Transaction tx, long[] keys, TxnWorkload workload) {
        for (int i = 0; i < keys.length; i++) {
            byte[] k = BenchEngine.key(keys[i]);
            byte[] v = tx.get(table, k);
            if (workload.updates(i)) {
                tx.put(table, k, BenchEngine.incremented(v));
            }
        }
        if (workload.readsSameTuples()) {
            for (int i = 0; i < workload.reads(); i++) {
                tx.get(table, BenchEngine.key(keys[i]));
            }
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
