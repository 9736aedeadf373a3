package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under an NLR group protocol a worker's transactions read and overwrite what its own unflushed
 * commits hold (no flush between them), while every other reader waits for the flush; what was
 * acknowledged is durable, what was not may be lost — never a later commit without an earlier one.
 */
class GroupPipeliningTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return TransactionalDatabaseTest.key(i);
    }

    private static long read(Transaction tx, TransactionalTable t, int k) {
        byte[] v = tx.get(t, key(k));
        return v == null ? -1 : TransactionalDatabaseTest.amount(v);
    }

    @Test
    void aWorkerBuildsOnItsOwnUnflushedCommitsAndOthersSeeThemOnlyWhenDurable() {
        TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.nlrGroup(8), Durability.NONE);
        TransactionalTable t = db.createTable("t");
        Worker w = db.newWorker();
        w.keepGroupsOpen(); // three commits may take longer than the group's 1 ms age on a busy machine
        AtomicBoolean durable = new AtomicBoolean();
        for (int i = 1; i <= 3; i++) {
            Transaction tx = w.begin();
            long before = read(tx, t, 1);
            assertEquals(i == 1 ? -1 : i - 1, before, "sees its own worker's previous commit");
            tx.put(t, key(1), TransactionalDatabaseTest.amount(i));
            tx.commitInGroup();
        }
        w.whenDurable(() -> durable.set(true));
        assertFalse(durable.get(), "not acknowledged before the flush");
        assertTrue(w.holds(t.tuple(new Key(key(1)))));
        TransactionalTable held = t;
        assertThrows(TransactionAbortedException.class, () -> read(Transaction.begin(), held, 1),
                "another reader waits for the flush (and gives up here)");
        db.crash();
        db = TransactionalDatabase.open(dir, LogProtocol.nlrGroup(8), Durability.NONE);
        assertNull(Transaction.begin().get(db.table("t"), key(1)), "nothing of the unflushed group survives");

        t = db.table("t");
        w = db.newWorker();
        for (int i = 1; i <= 3; i++) {
            Transaction tx = w.begin();
            tx.put(t, key(1), TransactionalDatabaseTest.amount(read(tx, t, 1) + 10));
            tx.commitInGroup();
        }
        durable.set(false);
        w.whenDurable(() -> durable.set(true));
        w.flush();
        assertTrue(durable.get());
        assertEquals(29, read(Transaction.begin(), t, 1));
        db.crash();
        db = TransactionalDatabase.open(dir, LogProtocol.nlrGroup(8), Durability.NONE);
        assertEquals(29, read(Transaction.begin(), db.table("t"), 1), "the flushed group survives whole");
        db.close();
    }
}
