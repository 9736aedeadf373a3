package org.oooengine.cluster.bench.txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.txn.TransactionAbortedException;

/**
 * Money moved between accounts on different nodes of a running cluster, each transfer a
 * distributed transaction that also records itself (a row keyed by its id on the paying account's
 * node): what the crash test runs while it kills nodes and clients. {@link #verify} then checks
 * that every transfer a client was told committed is there, and that the balances are exactly
 * what the recorded transfers make of the opening balances — no transaction lost or half applied.
 */
public final class Transfers {
    static final String ACCOUNTS = "crash_accounts";
    static final String RECORDED = "crash_transfers";
    static final long OPENING = 1_000_000;

    private final Peers peers;
    private final List<String> nodes;

    public Transfers(Peers peers) {
        this.peers = peers;
        this.nodes = peers.spec().nodes().stream().map(n -> n.id()).toList();
    }

    private String owner(long account) {
        return nodes.get((int) (account % nodes.size()));
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long longOf(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    /** Creates the tables and opens {@code accounts} accounts with the opening balance. */
    public void setUp(int accounts) {
        TransactionalTables.create(peers, ACCOUNTS);
        TransactionalTables.create(peers, RECORDED);
        DistributedTransaction tx = new DistributedTransaction(peers);
        for (long a = 0; a < accounts; a++) {
            tx.write(owner(a), ACCOUNTS, TransactionalWrite.PUT, longBytes(a), longBytes(OPENING));
        }
        tx.commit();
    }

    /** What {@link #run} did. */
    public record Ran(long committed, long conflicts, long failures, long unknown) {
    }

    /**
     * Moves money for {@code seconds} seconds on {@code threads} threads, appending the id of each
     * transfer whose commit returned to {@code acked} (forced to disk before the next transfer).
     */
    public Ran run(int accounts, double seconds, int threads, Path acked) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long client = ThreadLocalRandom.current().nextLong() & 0x7fff_ffffL;
        AtomicLong seq = new AtomicLong();
        AtomicLong committed = new AtomicLong();
        AtomicLong conflicts = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong unknown = new AtomicLong();
        try (FileChannel log = FileChannel.open(acked, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < deadline) {
                        long id = client << 32 | seq.incrementAndGet();
                        long from = random.nextInt(accounts);
                        long to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                        try {
                            transfer(id, from, to, random.nextInt(1, 100));
                            committed.incrementAndGet();
                            synchronized (log) {
                                log.write(ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.UTF_8)));
                                log.force(false);
                            }
                        } catch (TransactionAbortedException e) {
                            conflicts.incrementAndGet();
                        } catch (org.oooengine.core.cluster.CommitOutcomeUnknownException e) {
                            unknown.incrementAndGet();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        } catch (RuntimeException e) { // a node down: the transfer did not commit
                            failures.incrementAndGet();
                            sleepQuietly(20);
                        }
                    }
                }, "transfers-" + t);
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + acked, e);
        }
        return new Ran(committed.get(), conflicts.get(), failures.get(), unknown.get());
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void transfer(long id, long from, long to, long amount) {
        DistributedTransaction tx = new DistributedTransaction(peers);
        try {
            long a = longOf(tx.get(owner(from), ACCOUNTS, longBytes(from)));
            long b = longOf(tx.get(owner(to), ACCOUNTS, longBytes(to)));
            tx.write(owner(from), ACCOUNTS, TransactionalWrite.UPDATE, longBytes(from), longBytes(a - amount));
            tx.write(owner(to), ACCOUNTS, TransactionalWrite.UPDATE, longBytes(to), longBytes(b + amount));
            tx.write(owner(from), RECORDED, TransactionalWrite.INSERT, longBytes(id),
                    ByteBuffer.allocate(24).putLong(from).putLong(to).putLong(amount).array());
        } catch (RuntimeException e) {
            tx.abort();
            throw e;
        }
        tx.commit();
    }

    /** What {@link #verify} found. */
    public record Check(boolean ok, long accounts, long recorded, long acknowledged, long lostAcknowledged,
                        long wrongBalances, long total, List<String> problems) {
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ok", ok);
            m.put("accounts", accounts);
            m.put("recorded_transfers", recorded);
            m.put("acknowledged_transfers", acknowledged);
            m.put("lost_acknowledged", lostAcknowledged);
            m.put("wrong_balances", wrongBalances);
            m.put("total", total);
            m.put("problems", problems);
            return m;
        }
    }

    /**
     * Reads every account and recorded transfer in one transaction (waiting, up to {@code
     * patienceSeconds}, while rows are locked by transactions the nodes are still settling) and
     * checks them against the acknowledged ids in {@code acked}.
     */
    public Check verify(int accounts, Path acked, double patienceSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + (long) (patienceSeconds * 1e9);
        while (true) {
            try {
                return check(accounts, acked);
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500); // rows still locked (in doubt) or a node still starting
            }
        }
    }

    private Check check(int accounts, Path acked) throws IOException {
        DistributedTransaction tx = new DistributedTransaction(peers);
        Map<Long, Long> balances = new HashMap<>();
        Map<Long, long[]> recorded = new HashMap<>();
        try {
            for (String node : nodes) {
                for (DistributedTransaction.Row r : tx.scan(node, ACCOUNTS, null, null)) {
                    balances.put(longOf(r.key()), longOf(r.value()));
                }
                for (DistributedTransaction.Row r : tx.scan(node, RECORDED, null, null)) {
                    ByteBuffer v = ByteBuffer.wrap(r.value());
                    recorded.put(longOf(r.key()), new long[] {v.getLong(), v.getLong(), v.getLong()});
                }
            }
            tx.commit();
        } catch (RuntimeException e) {
            tx.abort();
            throw e;
        }
        List<String> problems = new ArrayList<>();
        Map<Long, Long> expected = new HashMap<>();
        for (long a = 0; a < accounts; a++) {
            expected.put(a, OPENING);
        }
        for (long[] t : recorded.values()) {
            expected.merge(t[0], -t[2], Long::sum);
            expected.merge(t[1], t[2], Long::sum);
        }
        long wrong = 0;
        long total = 0;
        for (long a = 0; a < accounts; a++) {
            Long have = balances.get(a);
            total += have == null ? 0 : have;
            if (!expected.get(a).equals(have)) {
                wrong++;
                if (problems.size() < 10) {
                    problems.add("account " + a + " holds " + have + ", the recorded transfers make it " + expected.get(a));
                }
            }
        }
        Set<Long> ackedIds = new HashSet<>();
        if (Files.exists(acked)) {
            for (String line : Files.readAllLines(acked)) {
                if (!line.isBlank()) {
                    ackedIds.add(Long.parseLong(line.strip()));
                }
            }
        }
        long lost = 0;
        for (long id : ackedIds) {
            if (!recorded.containsKey(id)) {
                lost++;
                if (problems.size() < 20) {
                    problems.add("acknowledged transfer " + id + " is not recorded");
                }
            }
        }
        boolean ok = wrong == 0 && lost == 0 && total == accounts * OPENING;
        return new Check(ok, balances.size(), recorded.size(), ackedIds.size(), lost, wrong, total, problems);
    }
}
