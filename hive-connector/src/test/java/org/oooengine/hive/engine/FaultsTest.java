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
import org.oooengine.core.cluster.NodeRanOutOfMemoryException;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.NodeClient;
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

    /**
     * A statement whose node's process ended under it is a node failure, unless the node, started
     * again, said it ran out of memory while the statement ran (see LostNodes).
     */
    @Test
    void aNodeThatRanOutOfMemoryAndWasRestartedIsOutOfMemory() {
        SqlException lost = Faults.of("writing default.big failed: ", new CompletionException(new RemoteException("n1",
                ErrorCode.NODE_UNAVAILABLE, "connection to 127.0.0.1:7101" + NodeClient.LOST)));
        assertEquals(SqlException.NODE_FAILURE, lost.sqlState());
        String why = "node n1 ran out of memory (exit code 3) while running this statement and was restarted by its supervisor";
        SqlException oom = Faults.of("", new NodeRanOutOfMemoryException("n1", why, lost));
        assertEquals(SqlException.OUT_OF_MEMORY, oom.sqlState());
        assertEquals(why, oom.getMessage());
        // ended otherwise, or not back within the wait: still the node's failure, its message telling more
        SqlException ended = Faults.of("", new ClusterException("node n1 ended (killed by signal 9, exit code 137) while "
                + "running this statement and was restarted by its supervisor", lost));
        assertEquals(SqlException.NODE_FAILURE, ended.sqlState());
        assertTrue(ended.getMessage().startsWith("node n1 ended (killed by signal 9"), ended.getMessage());
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
