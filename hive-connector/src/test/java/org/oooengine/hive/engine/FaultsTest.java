package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.storage.PageCorruptedException;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.txn.TransactionAbortedException;

/** Each class of fault the nodes report gets its one SQLSTATE, however it is wrapped on the way. */
class FaultsTest {
    @Test
    void aNodeThatCannotBeReachedOrMissesItsDeadlineIsANodeFailureNotAConnectionFailure() {
        for (ErrorCode code : new ErrorCode[] {ErrorCode.NODE_UNAVAILABLE, ErrorCode.TIMEOUT}) {
            SqlException e = Faults.of("scan of nation failed: ",
                    new CompletionException(new RemoteException("n1", code, "unreachable at 127.0.0.1:7101")));
            assertEquals(SqlException.NODE_FAILURE, e.sqlState());
            assertEquals("scan of nation failed: node n1: unreachable at 127.0.0.1:7101", e.getMessage());
        }
    }

    @Test
    void corruptionKeepsItsStateAndDetailsFromANodeOrFromThisProcess() {
        RemoteException remote = new RemoteException("n2", ErrorCode.DATA_CORRUPTED,
                "corrupt page 7 in /d/lineitem.data: checksum mismatch");
        assertEquals(SqlException.DATA_CORRUPTED, Faults.of("", remote).sqlState());
        assertEquals("node n2: corrupt page 7 in /d/lineitem.data: checksum mismatch", Faults.of("", remote).getMessage());
        var local = new IllegalStateException("map task failed",
                new PageCorruptedException(Path.of("/d/orders.data"), 3, "bad magic 0x00000000"));
        assertEquals(SqlException.DATA_CORRUPTED, Faults.state(local));
    }

    /** A read on a node that met a row locked by another commit is a conflict, as a conflicting commit is: retryable by its type. */
    @Test
    void aConflictMetByANodesReadIsAConflictException() {
        SqlException e = Faults.of("scan of acct failed: ", new CompletionException(
                new RemoteException("n2", ErrorCode.CONFLICT, "a tuple stayed locked while being read")));
        assertInstanceOf(ConflictException.class, e);
        assertEquals(SqlException.SERIALIZATION_FAILURE, e.sqlState());
        assertEquals("scan of acct failed: node n2: a tuple stayed locked while being read", e.getMessage());
        assertTrue(Faults.conflict(e));
        assertTrue(Faults.conflict(new CompletionException(e)));
        assertTrue(Faults.conflict(new TransactionAbortedException("a row read was overwritten")));
        assertFalse(Faults.conflict(new SqlException(SqlException.SERIALIZATION_FAILURE, "gave up after 5 attempts")),
                "a statement that gave up is not run again by another");
        assertFalse(Faults.conflict(Faults.of("", new RemoteException("n2", ErrorCode.TIMEOUT, "no answer"))));
    }

    @Test
    void outOfMemoryCancelledAndOtherFailures() {
        assertEquals(SqlException.OUT_OF_MEMORY, Faults.state(new RemoteException("n3", ErrorCode.OUT_OF_MEMORY, "Java heap space")));
        assertEquals(SqlException.CANCELLED, Faults.state(new RemoteException("n3", ErrorCode.CANCELLED, "cancelled")));
        assertEquals(SqlException.GENERAL, Faults.state(new RemoteException("n3", ErrorCode.INTERNAL, "bug")));
        assertEquals(SqlException.NODE_FAILURE, Faults.state(new ClusterException("table orders: node n1 did not answer",
                new RemoteException("n1", ErrorCode.TIMEOUT, "no answer"))));
        SqlException mine = new SqlException(SqlException.CONSTRAINT, "duplicate primary key 1");
        assertSame(mine, Faults.of("insert failed: ", new CompletionException(mine)));
    }
}
