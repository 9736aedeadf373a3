package org.oooengine.hive.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.CopyCut;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.TransactionalReads;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The transaction one statement runs in on the transactional tables it reads or writes: begun when
 * it first touches one, committed when the statement is done (a statement is a transaction), so a
 * query reads them serializably and a DML statement changes them on every node or on none. Its
 * scans may run on several threads: they take turns on the transaction.
 */
final class StatementTransaction implements ClusterTableReader.Reads {
    private static final Logger LOG = LogManager.getLogger(StatementTransaction.class);
    /**
     * The session setting of how many times in all a statement on transactional tables runs when it
     * keeps conflicting, before its conflict reaches the client (SQLSTATE 40001); 1 hands every
     * conflict to the client at once.
     */
    static final String ATTEMPTS_SETTING = SessionSettings.TRANSACTION_ATTEMPTS.name();
    static final int DEFAULT_ATTEMPTS = Math.toIntExact(SessionSettings.TRANSACTION_ATTEMPTS.defaultValue());
    /**
     * The longest pause before running a statement again: a few conflicting statements commit
     * meanwhile, and a client given many attempts does not sit idle for seconds.
     */
    static final long MAX_PAUSE_MILLIS = 200;

    /** {@link SessionSettings#TRANSACTION_ATTEMPTS} in {@code settings}, from 1 to 100. */
    static int attempts(java.util.Map<String, String> settings) {
        return Math.toIntExact(SessionSettings.TRANSACTION_ATTEMPTS.get(settings));
    }

    private final Peers peers;
    private DistributedTransaction tx;
    /** Whether the tables with analytical copies are read from them ({@link SessionSettings#HTAP_READS}: a query's choice). */
    private volatile boolean readCopies;
    /**
     * The number under which this statement's scans share one pin of the copies on each node (0
     * until a scan reads a copy), the pins cut across the nodes together ({@link CopyCut}): a query
     * sees each transaction whole, in every table and on every node it wrote.
     */
    private long copySnapshot;

    StatementTransaction(Peers peers) {
        this.peers = peers;
    }

    Peers peers() {
        return peers;
    }

    /** The transaction, begun on first use; hold this object's lock while using it. */
    synchronized DistributedTransaction get() {
        if (tx == null) {
            tx = new DistributedTransaction(peers);
        }
        return tx;
    }

    /**
     * Has this query read the transactional tables that have analytical copies from them, when
     * {@code settings} say so ({@link SessionSettings#HTAP_READS}). Only for statements that write
     * nothing: what a write reads must be read within its transaction.
     */
    void readCopiesIfAsked(Map<String, String> settings) {
        readCopiesIfAsked(settings, true);
    }

    /**
     * As above, unless {@code copiesMayServe} is false: a node is down, and each node's analytical
     * copies hold only its own rows, so the query reads the tables in its transaction instead, each
     * partition on a holder up where the table keeps copies.
     */
    void readCopiesIfAsked(Map<String, String> settings, boolean copiesMayServe) {
        readCopies = copiesMayServe && readsCopies(settings);
    }

    /** Whether a query under {@code settings} reads the tables that have analytical copies from them. */
    static boolean readsCopies(Map<String, String> settings) {
        return "copies".equals(SessionSettings.HTAP_READS.get(settings));
    }

    /** Whether a query that reads copies or not ({@code readCopies}) reads {@code table} from its analytical copies. */
    static boolean readsFromCopy(TableInfo table, boolean readCopies) {
        return readCopies && DdlAnalyzer.copied(table);
    }

    /**
     * Where a query reads {@code table} when it is transactional, as EXPLAIN says it: from the
     * nodes' analytical copies or in the query's transaction; empty for any other table.
     */
    static String readPlace(TableInfo table, boolean readCopies) {
        if (!DdlAnalyzer.transactional(table)) {
            return "";
        }
        return readsFromCopy(table, readCopies) ? "read from the nodes' analytical copies" : "read in the query's transaction";
    }

    /**
     * The transaction that the transactional tables among {@code tables} are read in on the nodes,
     * and which of them are read from their analytical copies instead; {@link TransactionalReads#NONE}
     * when there are none. A query that reads only copies begins no transaction. Each node that
     * reads within it is counted among its participants as its part starts ({@link #readOn}).
     */
    @Override
    public TransactionalReads of(List<TableInfo> tables) {
        Map<String, Schema> read = new LinkedHashMap<>();
        java.util.Set<String> fromCopies = new java.util.HashSet<>();
        for (TableInfo t : tables) {
            if (DdlAnalyzer.transactional(t)) {
                read.put(t.storage(), TransactionalTableLayout.definition(t).schema());
                if (readsFromCopy(t, readCopies)) {
                    fromCopies.add(t.storage());
                }
            }
        }
        if (read.isEmpty()) {
            return TransactionalReads.NONE;
        }
        synchronized (this) {
            long snapshot = fromCopies.isEmpty() ? 0 : copySnapshot();
            if (fromCopies.containsAll(read.keySet())) {
                return new TransactionalReads(null, read, fromCopies, snapshot);
            }
            return new TransactionalReads(get().id(), read, fromCopies, snapshot);
        }
    }

    /**
     * Counts {@code node} among the transaction's participants: it reads rows within it, which it
     * validates at the commit. Only the nodes that read are asked, so that a node down whose
     * partitions are read on their copies does not fail the commit.
     */
    @Override
    public synchronized void readOn(String node) {
        get().readsOn(node);
    }

    private long copySnapshot() {
        if (copySnapshot == 0) {
            long snapshot = 0;
            while (snapshot == 0) {
                snapshot = ThreadLocalRandom.current().nextLong();
            }
            copySnapshot = snapshot; // released at the statement's end, cut or not
            CopyCut.take(peers, snapshot);
        }
        return copySnapshot;
    }

    private synchronized void commit() {
        releaseCopies();
        if (tx != null) {
            tx.commit();
        }
    }

    private synchronized void abort() {
        releaseCopies();
        if (tx != null) {
            tx.abort();
        }
    }

    private void releaseCopies() {
        if (copySnapshot != 0) {
            TransactionalTables.releaseCopySnapshot(peers, copySnapshot);
            copySnapshot = 0;
        }
    }

    /** One attempt at a statement, and how to let go of what it produced when its transaction aborted (e.g. spooled rows). */
    @FunctionalInterface
    interface Attempt<T> {
        T run(StatementTransaction tx);

        default void discard(T result) {
        }
    }

    /**
     * Runs a statement in a transaction of its own and commits it; a conflict — met at the commit
     * or by a read on a node ({@link Faults#conflict}) — runs it again from scratch after a random
     * pause, at most {@code attempts} times in all, then fails with SQLSTATE 40001 saying how many
     * attempts conflicted. Any other failure aborts the transaction and goes on.
     */
    static <T> T run(Peers peers, String what, int attempts, Attempt<T> attempt) {
        RuntimeException last = null;
        for (int i = 1; i <= attempts; i++) {
            StatementTransaction tx = new StatementTransaction(peers);
            T result = null;
            try {
                result = attempt.run(tx);
                tx.commit();
                return result;
            } catch (RuntimeException | Error e) {
                tx.abort();
                if (result != null) {
                    attempt.discard(result);
                }
                if (!(e instanceof RuntimeException re) || !Faults.conflict(re)) {
                    throw e;
                }
                last = re;
                LOG.debug("{}: attempt {} of {} conflicted: {}", what, i, attempts, e.getMessage());
                if (i < attempts) {
                    sleepBeforeRetry(i);
                }
            }
        }
        LOG.debug("{}: all {} attempts conflicted", what, attempts);
        throw new SqlException(SqlException.SERIALIZATION_FAILURE, what + " conflicted with concurrent transactions "
                + (attempts == 1 ? "in its only attempt (" + ATTEMPTS_SETTING + "=1)"
                : "in all " + attempts + " attempts") + " and was rolled back; run it again (the last conflict: "
                + last.getMessage() + ")", last);
    }

    /**
     * A random pause before attempt {@code attempt + 1}, its range doubling with each conflict up to
     * {@link #MAX_PAUSE_MILLIS}, so that conflicting statements spread out and stop meeting.
     */
    static long pauseMillis(int attempt) {
        long range = Math.min(MAX_PAUSE_MILLIS, 5L << Math.min(attempt, 10));
        return ThreadLocalRandom.current().nextLong(1, range + 1);
    }

    private static void sleepBeforeRetry(int attempt) {
        try {
            Thread.sleep(pauseMillis(attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SqlException(SqlException.CANCELLED, "interrupted while waiting to run a statement again", e);
        }
    }
}
