package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.txn.TransactionAbortedException;
import org.oooengine.core.txn.TransactionId;

/**
 * Transactions over the transactional tables of three nodes: transfers between accounts on
 * different nodes keep the total under concurrency; a commit is on all nodes or none, also when its
 * coordinator dies between the phases (the nodes finish it: the voters ask the decider, the decider
 * tells the voters) or a voter is stopped after voting and started again.
 */
class DistributedTransactionTest {
    private static final int ACCOUNTS = 30;
    private static final long INITIAL = 1000;

    @TempDir
    Path dir;

    private static byte[] key(int account) {
        return ByteBuffer.allocate(4).putInt(account).array();
    }

    private static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    private static String owner(TestCluster c, int account) {
        return c.spec.nodes().get(account % c.spec.nodes().size()).id();
    }

    private static void openAccounts(TestCluster c, Peers peers) {
        TransactionalTables.create(peers, "accounts");
        DistributedTransaction tx = new DistributedTransaction(peers);
        for (int a = 0; a < ACCOUNTS; a++) {
            tx.write(owner(c, a), "accounts", TransactionalWrite.INSERT, key(a), amount(INITIAL));
        }
        assertEquals(ACCOUNTS, tx.changed());
        tx.commit();
    }

    /** The balance of every account, read in one transaction (retried while rows are locked). */
    private static long[] balances(TestCluster c, Peers peers) {
        for (int attempt = 0; ; attempt++) {
            DistributedTransaction tx = new DistributedTransaction(peers);
            try {
                long[] b = new long[ACCOUNTS];
                for (int a = 0; a < ACCOUNTS; a++) {
                    byte[] v = tx.get(owner(c, a), "accounts", key(a));
                    b[a] = v == null ? -1 : amount(v);
                }
                tx.commit();
                return b;
            } catch (TransactionAbortedException e) {
                if (attempt > 200) {
                    throw e;
                }
                sleep(50);
            }
        }
    }

    private static void transfer(TestCluster c, Peers peers, int from, int to, long amount) {
        DistributedTransaction tx = new DistributedTransaction(peers);
        long a = amount(tx.get(owner(c, from), "accounts", key(from)));
        long b = amount(tx.get(owner(c, to), "accounts", key(to)));
        tx.write(owner(c, from), "accounts", TransactionalWrite.UPDATE, key(from), amount(a - amount));
        tx.write(owner(c, to), "accounts", TransactionalWrite.UPDATE, key(to), amount(b + amount));
        tx.commit();
    }

    @Test
    void concurrentTransfersAcrossNodesKeepTheTotal() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            AtomicInteger committed = new AtomicInteger();
            AtomicInteger aborted = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(clients.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < 150; i++) {
                        int from = random.nextInt(ACCOUNTS);
                        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        try {
                            transfer(cluster, peers, from, to, random.nextInt(1, 50));
                            committed.incrementAndGet();
                        } catch (TransactionAbortedException e) {
                            aborted.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            clients.shutdown();
            long total = 0;
            for (long b : balances(cluster, peers)) {
                total += b;
            }
            assertEquals(ACCOUNTS * INITIAL, total, committed + " committed, " + aborted + " aborted");
            assertTrue(committed.get() > 100, committed + " committed, " + aborted + " aborted");
        }
    }

    @Test
    void aDuplicateKeyFailsTheTransactionAndNothingOfItStays() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            DistributedTransaction tx = new DistributedTransaction(peers);
            tx.write(owner(cluster, 1), "accounts", TransactionalWrite.UPDATE, key(1), amount(5));
            tx.write(owner(cluster, 2), "accounts", TransactionalWrite.INSERT, key(2), amount(5));
            RemoteException e = assertThrows(RemoteException.class, tx::commit);
            assertEquals(ErrorCode.CONSTRAINT, e.code());
            assertTrue(e.getMessage().contains("duplicate primary key"), e.getMessage());
            assertEquals(INITIAL, balances(cluster, peers)[1]);
        }
    }

    /** A transfer by the stored procedure on the first account's node: a commit with one voter, in two requests to it. */
    private static void transferOnTheNode(TestCluster c, Peers peers, int from, int to, long amount, boolean duplicate) {
        byte[] args = new PayloadWriter(24).putInt(from).putInt(to).putLong(amount).put(duplicate ? 1 : 0).toByteArray();
        DistributedTransaction.join(TransactionalTables.procedure(peers, owner(c, from), TransferProcedure.NAME, from, args));
    }

    @Test
    void transfersCoordinatedOnTheNodesCommitWithOneRequestToTheOtherNode() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<?>> done = new ArrayList<>();
            long[] moved = new long[ACCOUNTS];
            for (int t = 0; t < 4; t++) {
                done.add(clients.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < 100; i++) {
                        int from = random.nextInt(ACCOUNTS);
                        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        int amount = random.nextInt(1, 50);
                        transferOnTheNode(cluster, peers, from, to, amount, false); // every one commits, retried on conflicts
                        synchronized (moved) {
                            moved[from] -= amount;
                            moved[to] += amount;
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            clients.shutdown();
            long[] balances = balances(cluster, peers);
            for (int a = 0; a < ACCOUNTS; a++) {
                assertEquals(INITIAL + moved[a], balances[a], "account " + a);
            }
        }
    }

    @Test
    void aDuplicateKeyOnTheOnlyVoterFailsTheProceduresTransactionAndNothingOfItStays() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            RemoteException e = assertThrows(RemoteException.class, () -> transferOnTheNode(cluster, peers, 1, 2, 7, true));
            assertTrue(e.getMessage().contains("duplicate primary key"), e.getMessage());
            long[] balances = balances(cluster, peers);
            assertEquals(INITIAL, balances[1]);
            assertEquals(INITIAL, balances[2]);
            transferOnTheNode(cluster, peers, 1, 2, 7, false); // nothing stays locked either
            balances = balances(cluster, peers);
            assertEquals(INITIAL - 7, balances[1]);
            assertEquals(INITIAL + 7, balances[2]);
        }
    }

    @Test
    void updatesAndDeletesCountTheRowsTheyChangeAndScansSeeTheTransactionsOwnWrites() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            DistributedTransaction tx = new DistributedTransaction(peers);
            String n0 = cluster.spec.nodes().get(0).id();
            tx.write(n0, "accounts", TransactionalWrite.DELETE, key(0), null);
            tx.write(n0, "accounts", TransactionalWrite.DELETE, key(1000), null); // none such
            tx.write(n0, "accounts", TransactionalWrite.UPDATE, key(3), amount(7));
            List<DistributedTransaction.Row> rows = tx.scan(n0, "accounts", null, null);
            assertEquals(ACCOUNTS / 3 - 1, rows.size());
            assertArrayEquals(key(3), rows.get(0).key());
            assertEquals(7, amount(rows.get(0).value()));
            assertEquals(2, tx.changed());
            tx.commit();
            long[] b = balances(cluster, peers);
            assertEquals(-1, b[0]);
            assertEquals(7, b[3]);
        }
    }

    /** Raw steps of a transaction moving 10 from account 0 (node 1) to account 1 (node 2), as a coordinator sends them. */
    private static final class Steps {
        final TransactionId id = TransactionId.next();
        final Peers peers;
        final String decider;
        final String voter;

        Steps(Peers peers, String decider, String voter) {
            this.peers = peers;
            this.decider = decider;
            this.voter = voter;
        }

        PayloadWriter start(TxnOp op) {
            return new PayloadWriter(64).put(op.code()).putLong(id.high()).putLong(id.low());
        }

        org.oooengine.core.wire.PayloadReader call(String node, PayloadWriter w) {
            return peers.client(node).call(OpCode.TXN, w.toByteArray()).join().reader();
        }

        /** Writes both rows, locks both, the voter votes: a coordinator that dies now leaves the voter in doubt. */
        long writeLockAndVote() {
            call(decider, start(TxnOp.WRITE).putString("accounts").put(TransactionalWrite.UPDATE.ordinal()).putVarInt(1)
                    .putBytes(key(0)).putBytes(amount(INITIAL - 10)));
            call(voter, start(TxnOp.WRITE).putString("accounts").put(TransactionalWrite.UPDATE.ordinal()).putVarInt(1)
                    .putBytes(key(1)).putBytes(amount(INITIAL + 10)));
            long ts = Math.max(call(decider, start(TxnOp.LOCK)).getLong(), call(voter, start(TxnOp.LOCK)).getLong());
            call(voter, start(TxnOp.PREPARE).putLong(ts).putString(decider));
            return ts;
        }

        void decide(long ts) {
            call(decider, start(TxnOp.DECIDE).putLong(ts).putVarInt(1).putString(voter));
        }
    }

    private static void awaitBalances(TestCluster c, Peers peers, long first, long second) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long[] b;
        do {
            b = balances(c, peers);
            if (b[0] == first && b[1] == second) {
                return;
            }
            sleep(200);
        } while (System.nanoTime() < deadline);
        assertEquals(first + " " + second, b[0] + " " + b[1]);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aCoordinatorThatDiesAfterTheVotesLeavesNothing_theVoterAsksTheDecider() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            Steps steps = new Steps(peers, owner(cluster, 0), owner(cluster, 1));
            steps.writeLockAndVote();
            // no decision: the voter's row stays locked until it asks the decider, which presumes abort
            awaitBalances(cluster, peers, INITIAL, INITIAL);
            assertThrows(TransactionAbortedException.class, () -> {
                try {
                    steps.decide(1);
                } catch (java.util.concurrent.CompletionException e) {
                    RemoteException re = (RemoteException) e.getCause();
                    assertEquals(ErrorCode.CONFLICT, re.code());
                    throw new TransactionAbortedException(re.getMessage());
                }
            }, "a decision after the decider presumed the abort is refused");
        }
    }

    @Test
    void aCoordinatorThatDiesAfterTheDecisionLeavesItCommittedEverywhere_theDeciderTellsTheVoter() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            Steps steps = new Steps(peers, owner(cluster, 0), owner(cluster, 1));
            steps.decide(steps.writeLockAndVote());
            awaitBalances(cluster, peers, INITIAL - 10, INITIAL + 10);
        }
    }

    @Test
    void aVoterStoppedAfterVotingLearnsTheCommitWhenItIsBack() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            Steps steps = new Steps(peers, owner(cluster, 0), owner(cluster, 1));
            long ts = steps.writeLockAndVote();
            cluster.stop(steps.voter);
            steps.decide(ts);
            cluster.restart(steps.voter);
            awaitBalances(cluster, peers, INITIAL - 10, INITIAL + 10);
        }
    }

    @Test
    void aStoppedNodeFailsTheCommitNamingItAndNothingStaysElsewhere() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            DistributedTransaction tx = new DistributedTransaction(peers);
            tx.write(owner(cluster, 0), "accounts", TransactionalWrite.UPDATE, key(0), amount(1));
            tx.write(owner(cluster, 1), "accounts", TransactionalWrite.UPDATE, key(1), amount(1));
            tx.changed();
            cluster.stop(owner(cluster, 1));
            RuntimeException e = assertThrows(RuntimeException.class, tx::commit);
            assertTrue(e.getMessage().contains(owner(cluster, 1)), e.getMessage());
            cluster.restart(owner(cluster, 1));
            long[] b = balances(cluster, peers);
            assertEquals(INITIAL, b[0]);
            assertEquals(INITIAL, b[1]);
        }
    }

    @Test
    void malformedTransactionStepsAreRefusedAndTheNodeKeepsServing() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            String n = owner(cluster, 0);
            TransactionId id = TransactionId.next();
            byte[] truncated = new PayloadWriter(32).put(TxnOp.WRITE.code()).putLong(id.high()).putLong(id.low())
                    .putString("accounts").put(TransactionalWrite.PUT.ordinal()).putVarInt(1000).toByteArray();
            assertThrows(java.util.concurrent.CompletionException.class,
                    () -> peers.client(n).call(OpCode.TXN, truncated).join(), "1,000 rows announced, none sent");
            byte[] badMode = new PayloadWriter(32).put(TxnOp.WRITE.code()).putLong(id.high()).putLong(id.low())
                    .putString("accounts").put(9).putVarInt(0).toByteArray();
            assertThrows(java.util.concurrent.CompletionException.class,
                    () -> peers.client(n).call(OpCode.TXN, badMode).join());
            byte[] noProcedure = new PayloadWriter(32).put(TxnOp.PROCEDURE.code()).putString("rm -rf").putInt(0)
                    .putBytes(new byte[0]).toByteArray();
            RemoteException unknown = assertThrows(RemoteException.class, () -> {
                try {
                    peers.client(n).call(OpCode.TXN, noProcedure).join();
                } catch (java.util.concurrent.CompletionException e) {
                    throw e.getCause();
                }
            });
            assertTrue(unknown.getMessage().contains("no stored procedure rm -rf"), unknown.getMessage());
            assertEquals(INITIAL, balances(cluster, peers)[0], "the node still serves");
        }
    }

    @Test
    void aDroppedTableIsGoneAndNotRecoveredFromTheLog() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            Peers peers = session.peers();
            openAccounts(cluster, peers);
            TransactionalTables.drop(peers, "accounts");
            String n0 = cluster.spec.nodes().get(0).id();
            cluster.stop(n0);
            cluster.restart(n0);
            DistributedTransaction tx = new DistributedTransaction(peers);
            RemoteException e = assertThrows(RemoteException.class, () -> tx.get(n0, "accounts", key(0)));
            assertTrue(e.getMessage().contains("no transactional table 'accounts'"), e.getMessage());
            tx.abort();
            TransactionalTables.create(peers, "accounts");
            DistributedTransaction again = new DistributedTransaction(peers);
            assertNull(again.get(n0, "accounts", key(0)));
            again.commit();
        }
    }
}
