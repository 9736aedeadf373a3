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
import java.util.BitSet;
import java.util.TreeMap;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.QueryLimits;
import org.oooengine.core.cluster.TransactionalReads;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.txn.TransactionAbortedException;

/**
 * Money moved between accounts on different nodes of a running cluster, each transfer a
 * distributed transaction that also records itself (a row keyed by its id on the paying account's
 * node): what the crash test runs while it kills nodes and clients. {@link #verify} then checks
 * that every transfer a client was told committed is there, and that the balances are exactly
 * what the recorded transfers make of the opening balances — no transaction lost or half applied —
 * and, when the nodes keep analytical copies of the tables, that the copies come to hold what the
 * tables hold, row for row.
 */
public final class Transfers {
    static final String ACCOUNTS = "crash_accounts";
    static final String RECORDED = "crash_transfers";
    static final long OPENING = 1_000_000;
    /** The tables' rows, encoded as SQL's transactional tables are: so the nodes can keep analytical copies of them. */
    private static final TableDefinition ACCOUNT_ROWS = new TableDefinition(ACCOUNTS, new Schema(List.of(
            new Column("id", DataType.BIGINT), new Column("balance", DataType.BIGINT))), List.of("id"), List.of(), false);
    private static final TableDefinition TRANSFER_ROWS = new TableDefinition(RECORDED, new Schema(List.of(
            new Column("id", DataType.BIGINT), new Column("from_account", DataType.BIGINT),
            new Column("to_account", DataType.BIGINT), new Column("amount", DataType.BIGINT))), List.of("id"), List.of(),
            false);
    private static final KeyCodec KEYS = new KeyCodec(new DataType[] {DataType.BIGINT});
    private static final RowCodec ACCOUNT_CODEC = new RowCodec(ACCOUNT_ROWS.schema());
    private static final RowCodec TRANSFER_CODEC = new RowCodec(TRANSFER_ROWS.schema());

    private final ClusterSession session;
    private final Peers peers;
    private final List<String> nodes;

    public Transfers(ClusterSession session) {
        this.session = session;
        this.peers = session.peers();
        this.nodes = peers.spec().nodes().stream().map(n -> n.id()).toList();
    }

    private String owner(long account) {
        return nodes.get((int) (account % nodes.size()));
    }

    private static byte[] key(long id) {
        return KEYS.encode(id);
    }

    private static byte[] account(long id, long balance) {
        return ACCOUNT_CODEC.encode(new Object[] {id, balance});
    }

    private static long balanceOf(byte[] row) {
        return (Long) ACCOUNT_CODEC.decode(row)[1];
    }

    /**
     * Creates the tables and opens {@code accounts} accounts with the opening balance; with {@code
     * copies}, every node keeps analytical copies of both tables too (HTAP), which {@link #verify}
     * then checks against the tables.
     */
    public void setUp(int accounts, boolean copies) {
        TransactionalTables.create(peers, ACCOUNTS);
        TransactionalTables.create(peers, RECORDED);
        DistributedTransaction tx = new DistributedTransaction(peers);
        for (long a = 0; a < accounts; a++) {
            tx.write(owner(a), ACCOUNTS, TransactionalWrite.PUT, key(a), account(a, OPENING));
        }
        tx.commit();
        if (copies) {
            TransactionalTables.copy(peers, Map.of(ACCOUNTS, ACCOUNT_ROWS, RECORDED, TRANSFER_ROWS));
        }
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
            long a = balanceOf(tx.get(owner(from), ACCOUNTS, key(from)));
            long b = balanceOf(tx.get(owner(to), ACCOUNTS, key(to)));
            tx.write(owner(from), ACCOUNTS, TransactionalWrite.UPDATE, key(from), account(from, a - amount));
            tx.write(owner(to), ACCOUNTS, TransactionalWrite.UPDATE, key(to), account(to, b + amount));
            tx.write(owner(from), RECORDED, TransactionalWrite.INSERT, key(id),
                    TRANSFER_CODEC.encode(new Object[] {id, from, to, amount}));
        } catch (RuntimeException e) {
            tx.abort();
            throw e;
        }
        tx.commit();
    }

    /** What {@link #verify} found. */
    public record Check(boolean ok, long accounts, long recorded, long acknowledged, long lostAcknowledged,
                        long wrongBalances, long total, CopiesCheck copies, List<String> problems) {
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ok", ok);
            m.put("accounts", accounts);
            m.put("recorded_transfers", recorded);
            m.put("acknowledged_transfers", acknowledged);
            m.put("lost_acknowledged", lostAcknowledged);
            m.put("wrong_balances", wrongBalances);
            m.put("total", total);
            if (copies != null) {
                m.put("copies_equal_tables", copies.equal());
                m.put("copies_seconds_to_converge", copies.seconds());
            }
            m.put("problems", problems);
            return m;
        }
    }

    /** Whether every node's analytical copies came to hold what its tables hold, and how long that took. */
    public record CopiesCheck(boolean equal, double seconds) {
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
                return check(accounts, acked, patienceSeconds);
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500); // rows still locked (in doubt) or a node still starting
            }
        }
    }

    /** Every node's rows of both tables as read in one transaction: per node, table, the decoded rows in key order. */
    private Map<String, Map<String, List<List<Object>>>> tableRows() {
        DistributedTransaction tx = new DistributedTransaction(peers);
        Map<String, Map<String, List<List<Object>>>> rows = new TreeMap<>();
        try {
            for (String node : nodes) {
                for (TableDefinition t : List.of(ACCOUNT_ROWS, TRANSFER_ROWS)) {
                    RowCodec codec = new RowCodec(t.schema());
                    List<List<Object>> decoded = new ArrayList<>();
                    for (DistributedTransaction.Row r : tx.scan(node, t.name(), null, null)) {
                        decoded.add(List.of(codec.decode(r.value())));
                    }
                    rows.computeIfAbsent(node, n -> new TreeMap<>()).put(t.name(), decoded);
                }
            }
            tx.commit();
        } catch (RuntimeException e) {
            tx.abort();
            throw e;
        }
        return rows;
    }

    /** Every node's rows of both tables as its analytical copies hold them, in key order. */
    private Map<String, Map<String, List<List<Object>>>> copyRows() {
        Map<String, Map<String, List<List<Object>>>> rows = new TreeMap<>();
        for (String node : nodes) {
            for (TableDefinition t : List.of(ACCOUNT_ROWS, TRANSFER_ROWS)) {
                BitSet all = new BitSet();
                all.set(0, t.schema().size());
                List<List<Object>> read = java.util.Collections.synchronizedList(new ArrayList<>());
                session.pipeline(node, new ScanPipeline(t.name(), t.schema().size(), all, List.of()), QueryLimits.DEFAULTS,
                        new TransactionalReads(null, Map.of(t.name(), t.schema()), Set.of(t.name())),
                        batch -> batch.forEach(r -> read.add(List.of(r)))).join();
                rows.computeIfAbsent(node, n -> new TreeMap<>()).put(t.name(), read);
            }
        }
        return rows;
    }

    /** Whether the nodes keep analytical copies of the accounts (set up with copies). */
    private boolean copied() {
        return TransactionalTables.copyStatus(peers).stream()
                .anyMatch(s -> s.tables().stream().anyMatch(f -> f.table().equals(ACCOUNTS)));
    }

    /**
     * Waits up to {@code patienceSeconds} for every node's copies to hold what its tables hold (the
     * tables are quiet now; a node's copies switch within about a second).
     */
    private CopiesCheck checkCopies(Map<String, Map<String, List<List<Object>>>> tables, double patienceSeconds)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + (long) (patienceSeconds * 1e9);
        while (true) {
            boolean equal = copyRows().equals(tables);
            if (equal || System.nanoTime() > deadline) {
                return new CopiesCheck(equal, Math.round((System.nanoTime() - start) / 1e7) / 100.0);
            }
            Thread.sleep(100);
        }
    }

    private Check check(int accounts, Path acked, double patienceSeconds) throws IOException, InterruptedException {
        Map<String, Map<String, List<List<Object>>>> tables = tableRows();
        Map<Long, Long> balances = new HashMap<>();
        Map<Long, long[]> recorded = new HashMap<>();
        for (Map<String, List<List<Object>>> node : tables.values()) {
            for (List<Object> r : node.get(ACCOUNTS)) {
                balances.put((Long) r.get(0), (Long) r.get(1));
            }
            for (List<Object> r : node.get(RECORDED)) {
                recorded.put((Long) r.get(0), new long[] {(Long) r.get(1), (Long) r.get(2), (Long) r.get(3)});
            }
        }
        CopiesCheck copies = copied() ? checkCopies(tables, patienceSeconds) : null;
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
        if (copies != null && !copies.equal()) {
            problems.add("the nodes' analytical copies did not come to hold what their tables hold");
        }
        boolean ok = wrong == 0 && lost == 0 && total == accounts * OPENING && (copies == null || copies.equal());
        return new Check(ok, balances.size(), recorded.size(), ackedIds.size(), lost, wrong, total, copies, problems);
    }
}
