package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.oooengine.cluster.bench.tpcds.Answers;
import org.oooengine.cluster.bench.tpcds.TpcdsQueries;
import org.oooengine.cluster.bench.tpch.TpchDuckDb;
import org.oooengine.cluster.bench.tpch.TpchQueries;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.cluster.launch.NodeFaults;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A mixed workload on a cluster that keeps copies, while its nodes are killed (SIGKILL, started
 * again by their supervisors), stopped (SIGSTOP, let go on after a while) and restarted (SIGTERM,
 * started again) at random: TPC-H queries compared with their answers before the faults (those
 * checked against DuckDB's with {@code --duckdb}), and writes — rows inserted into a table
 * of the nodes' stores and into a transactional table — whose acknowledged rows must all be there
 * at the end. Counts wrong answers, acknowledged writes lost, and failed statements by cause; a
 * failure that names no cause counts as unnamed.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = "kill, stop and restart random nodes during a mixed workload of queries and writes; count wrong answers, "
                + "acknowledged writes lost and failures by cause")
final class BenchChaosCommand implements Callable<Integer> {
    private static final String ROWS_TABLE = "chaos_rows";
    private static final String TXN_TABLE = "chaos_txn";
    /** A failure's message names its cause when it names a node, a table, a conflict or a refusal. */
    private static final Pattern NAMED = Pattern.compile(
            "node \\S+|partition \\d+|conflict|refused|40001|timed out|not answer|unreachable|lost", Pattern.CASE_INSENSITIVE);

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running local cluster made with 'ooo cluster start --replication 2' and loaded with 'ooo load tpch'")
    Path cluster;

    @Option(names = "--duration", defaultValue = "600", paramLabel = "DURATION", converter = Units.Seconds.class,
            description = "how long the workload runs (a plain number is seconds; default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--count", defaultValue = "10", paramLabel = "N",
            description = "faults, spread evenly over the run, one node at a time (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "seed of the faults' nodes, kinds and lengths and of the queries' order (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--stop-seconds", defaultValue = "10", paramLabel = "S",
            description = "the longest a node stays stopped (SIGSTOP); each stop lasts 2 s to this (default: ${DEFAULT-VALUE})")
    int stopSeconds;

    @Option(names = "--query-clients", defaultValue = "2", paramLabel = "N", description = "clients running queries")
    int queryClients;

    @Option(names = "--write-clients", defaultValue = "2", paramLabel = "N", description = "clients inserting rows")
    int writeClients;

    @Option(names = "--queries", split = ",", paramLabel = "<n>", defaultValue = "1,3,6,12,14,19",
            description = "TPC-H query numbers the query clients run (default: ${DEFAULT-VALUE})")
    List<Integer> queries;

    @Option(names = "--duckdb", description = "check the answers taken before the faults, which every later answer "
            + "must equal, against DuckDB's on the same rows (TPC-H at the cluster's scale factor, generated into DuckDB "
            + "in memory first: about a minute at SF 1)")
    boolean duckdb;

    @Option(names = "--json", description = "print one JSON object instead of a summary")
    boolean json;

    /** With --duckdb, the queries whose answers before the faults are not DuckDB's; null without it. */
    private Map<String, String> oracleDifferences;
    /** Partitions of the transactional table whose copies do not hold their owner's rows, after the run. */
    private List<String> copiesDiffering = List.of();

    /** A fault put on a node, when (seconds into the run) and for how long. */
    record Fault(double at, String node, NodeFaults.Kind kind, double seconds) {
    }

    /** What happened to one kind of statement. */
    static final class Tally {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong unnamed = new AtomicLong();
        final Map<String, AtomicLong> causes = new ConcurrentHashMap<>();
        final AtomicLong slowestMillis = new AtomicLong();

        void failed(Exception e) {
            failed.incrementAndGet();
            String message = String.valueOf(e.getMessage());
            if (!NAMED.matcher(message).find()) {
                unnamed.incrementAndGet();
            }
            // the message with node names, numbers and quoted text made alike: one count per cause
            String cause = message.replaceAll("n\\d+", "n#").replaceAll("\\d+", "#").replaceAll("'[^']*'", "'…'");
            causes.computeIfAbsent(cause.length() > 160 ? cause.substring(0, 160) : cause, c -> new AtomicLong())
                    .incrementAndGet();
        }

        void took(long millis) {
            slowestMillis.accumulateAndGet(millis, Math::max);
        }

        Map<String, Object> report() {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("ok", ok.get());
            r.put("wrong", wrong.get());
            r.put("failed", failed.get());
            r.put("unnamed", unnamed.get());
            r.put("slowestSeconds", slowestMillis.get() / 1000.0);
            Map<String, Long> byCause = new TreeMap<>();
            causes.forEach((c, n) -> byCause.put(c, n.get()));
            r.put("causes", byCause);
            return r;
        }
    }

    /** The rows each write client inserted and had acknowledged, and those whose outcome it does not know. */
    static final class Writes {
        final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        final Set<Long> unknown = ConcurrentHashMap.newKeySet();
        final Tally tally = new Tally();
    }

    @Override
    public Integer call() throws Exception {
        ClusterSpec clusterSpec = CopiedClusters.read(spec, cluster, "a killed node's rows would be gone");
        if (count < 0 || duration.isNegative() || duration.isZero() || stopSeconds < 2 || queryClients < 0
                || writeClients < 0) {
            throw new ParameterException(spec.commandLine(), "--count and the clients must be at least 0, --duration "
                    + "positive and --stop-seconds at least 2");
        }
        queries.forEach(TpchQueries::check);
        PrintWriter err = spec.commandLine().getErr();
        LocalCluster local = new LocalCluster(cluster, true);
        NodeFaults faults = new NodeFaults(local);
        List<String> nodes = clusterSpec.nodes().stream().map(ClusterSpec.NodeSpec::id).toList();
        Tally queryTally = new Tally();
        Map<String, Writes> writes = new LinkedHashMap<>();
        writes.put(ROWS_TABLE, new Writes());
        writes.put(TXN_TABLE, new Writes());
        List<Fault> done = new ArrayList<>();
        Map<String, Object> check = new LinkedHashMap<>();
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of())) {
            Map<Integer, List<String>> expected = new LinkedHashMap<>();
            try (SqlSession s = session(engine)) {
                createTables(s);
                for (int q : queries) {
                    expected.put(q, rows(s, TpchQueries.text(q)));
                }
                if (duckdb) {
                    oracleDifferences = againstDuckDb(s, err);
                }
            }
            // a node's supervisor gives up on it after five restarts in ten minutes: each starts counting at 0
            for (String node : nodes) {
                faults.restart(node);
            }
            err.printf("answers before the faults taken; %d query and %d write clients for %d s, %d faults%n",
                    queryClients, writeClients, duration.toSeconds(), count);
            err.flush();
            long end = System.nanoTime() + duration.toNanos();
            ExecutorService clients = Executors.newFixedThreadPool(Math.max(1, queryClients + writeClients));
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < queryClients; c++) {
                Random random = new Random(seed * 31 + c);
                running.add(clients.submit(() -> queryLoop(engine, expected, random, end, queryTally)));
            }
            for (int c = 0; c < writeClients; c++) {
                long first = (c + 1L) << 32;
                running.add(clients.submit(() -> writeLoop(engine, first, end, writes)));
            }
            try {
                injectFaults(faults, nodes, end, done, err);
            } finally {
                for (Future<?> f : running) {
                    f.get();
                }
                clients.shutdown();
            }
            try (SqlSession s = session(engine)) {
                for (Map.Entry<String, Writes> w : writes.entrySet()) {
                    check.put(w.getKey(), verify(s, w.getKey(), w.getValue()));
                }
            }
            copiesDiffering = differingCopies(engine.cluster().peers(), TXN_TABLE);
        }
        return report(clusterSpec, queryTally, writes, check, done);
    }

    private static SqlSession session(ClusterSqlEngine engine) {
        return engine.openSession(System.getProperty("user.name", "ooo"), "default", Map.of());
    }

    private static void createTables(SqlSession s) {
        for (String t : List.of(ROWS_TABLE, TXN_TABLE)) {
            s.execute("DROP TABLE IF EXISTS " + t, new Cancellation());
        }
        s.execute("CREATE TABLE " + ROWS_TABLE + " (id BIGINT, client INT) TBLPROPERTIES ('ooo.primary.key'='id')",
                new Cancellation());
        s.execute("CREATE TABLE " + TXN_TABLE + " (id BIGINT, client INT, PRIMARY KEY (id) DISABLE NOVALIDATE) "
                + "TBLPROPERTIES ('transactional'='true')", new Cancellation());
    }

    /** The faults, one node at a time, evenly spread; each node up again before the next. */
    private void injectFaults(NodeFaults faults, List<String> nodes, long end, List<Fault> done, PrintWriter err)
            throws Exception {
        Random random = new Random(seed);
        long start = System.nanoTime();
        long every = (end - start) / (count + 1);
        for (int i = 1; i <= count; i++) {
            long due = start + i * every;
            Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
            if (System.nanoTime() >= end) {
                break;
            }
            String node = nodes.get(random.nextInt(nodes.size()));
            NodeFaults.Kind kind = NodeFaults.Kind.values()[random.nextInt(NodeFaults.Kind.values().length)];
            long held = 2_000 + random.nextInt((stopSeconds - 2) * 1000 + 1);
            long t0 = System.nanoTime();
            if (kind == NodeFaults.Kind.KILL) {
                faults.kill(node);
            } else if (kind == NodeFaults.Kind.RESTART) {
                faults.restart(node);
            } else {
                faults.stop(node);
                try {
                    Thread.sleep(held);
                } finally {
                    faults.resume(node);
                }
            }
            faults.awaitUp(node);
            Fault f = new Fault((t0 - start) / 1e9, node, kind, (System.nanoTime() - t0) / 1e9);
            done.add(f);
            err.printf("%6.1f s: %s %s, up again after %.1f s%n", f.at(), kind, node, f.seconds());
            err.flush();
        }
    }

    private static void queryLoop(ClusterSqlEngine engine, Map<Integer, List<String>> expected, Random random, long end,
                                  Tally tally) {
        List<Integer> numbers = new ArrayList<>(expected.keySet());
        try (SqlSession s = session(engine)) {
            while (System.nanoTime() < end) {
                int q = numbers.get(random.nextInt(numbers.size()));
                long t0 = System.nanoTime();
                try {
                    if (rows(s, TpchQueries.text(q)).equals(expected.get(q))) {
                        tally.ok.incrementAndGet();
                    } else {
                        tally.wrong.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    tally.failed(e);
                }
                tally.took((System.nanoTime() - t0) / 1_000_000);
            }
        }
    }

    /** Inserts rows numbered from {@code first}, one statement each, into each table in turn. */
    private static void writeLoop(ClusterSqlEngine engine, long first, long end, Map<String, Writes> writes) {
        List<String> tables = new ArrayList<>(writes.keySet());
        try (SqlSession s = session(engine)) {
            for (long id = first; System.nanoTime() < end; id++) {
                String table = tables.get((int) (id % tables.size()));
                Writes w = writes.get(table);
                long t0 = System.nanoTime();
                try {
                    s.execute("INSERT INTO " + table + " VALUES (" + id + ", " + (first >> 32) + ")", new Cancellation());
                    w.acknowledged.add(id);
                    w.tally.ok.incrementAndGet();
                } catch (RuntimeException e) {
                    w.unknown.add(id); // refused, or its outcome unknown: it may or may not be there
                    w.tally.failed(e);
                }
                w.tally.took((System.nanoTime() - t0) / 1_000_000);
            }
        }
    }

    /**
     * Where the copies of transactional table {@code table}'s partitions do not hold their owner's
     * rows, read in one transaction on every holder (the table as the nodes name it: {@code
     * <table>#<suffix>}).
     */
    private static List<String> differingCopies(org.oooengine.core.cluster.Peers peers, String table) {
        String node = peers.spec().nodes().get(0).id();
        String stored = TransactionalTables.tables(peers, node).stream()
                .filter(n -> n.startsWith(table + "#") && !ClusterSpec.isReplicaName(n)).findFirst()
                .orElseThrow(() -> new IllegalStateException("node " + node + " keeps no table " + table));
        return TransactionalTables.differingCopies(peers, stored);
    }

    /** Every acknowledged row there, and none that was never written. */
    private static Map<String, Object> verify(SqlSession s, String table, Writes w) {
        Set<Long> present = new HashSet<>();
        s.execute("SELECT id FROM " + table, new Cancellation()).rows()
                .forEachRemaining(r -> present.add(((Number) r[0]).longValue()));
        long lost = w.acknowledged.stream().filter(id -> !present.contains(id)).count();
        long phantom = present.stream().filter(id -> !w.acknowledged.contains(id) && !w.unknown.contains(id)).count();
        long unknownThere = w.unknown.stream().filter(present::contains).count();
        Map<String, Object> r = new LinkedHashMap<>(w.tally.report());
        r.put("acknowledged", w.acknowledged.size());
        r.put("present", present.size());
        r.put("lost", lost);
        r.put("phantom", phantom);
        r.put("failedButPresent", unknownThere);
        return r;
    }

    private int report(ClusterSpec clusterSpec, Tally queryTally, Map<String, Writes> writes, Map<String, Object> check,
                       List<Fault> faults) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("cluster", cluster.toAbsolutePath().normalize().toString());
        r.put("nodes", clusterSpec.nodes().size());
        r.put("replication", clusterSpec.replication());
        r.put("seconds", duration.toSeconds());
        r.put("seed", seed);
        r.put("faults", faults);
        r.put("queries", queryTally.report());
        r.put("writes", check);
        long wrong = queryTally.wrong.get();
        long unnamed = queryTally.unnamed.get() + writes.values().stream().mapToLong(w -> w.tally.unnamed.get()).sum();
        long lost = check.values().stream().mapToLong(c -> (Long) ((Map<?, ?>) c).get("lost")).sum();
        long phantom = check.values().stream().mapToLong(c -> (Long) ((Map<?, ?>) c).get("phantom")).sum();
        if (oracleDifferences != null) {
            r.put("duckdb_differences", oracleDifferences);
        }
        boolean oracleAgrees = oracleDifferences == null || oracleDifferences.isEmpty();
        r.put("copies_differing", copiesDiffering);
        r.put("passed", wrong == 0 && unnamed == 0 && lost == 0 && phantom == 0 && oracleAgrees && copiesDiffering.isEmpty());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(r));
        } else {
            out.printf("%d faults; queries: %s%n", faults.size(), queryTally.report());
            check.forEach((t, c) -> out.printf("%s: %s%n", t, c));
            out.printf("wrong answers %d, acknowledged writes lost %d, rows never written %d, failures naming no cause %d%n",
                    wrong, lost, phantom, unnamed);
            out.println(copiesDiffering.isEmpty() ? TXN_TABLE + ": every copy holds its owner's rows"
                    : TXN_TABLE + ": copies differing from their owners: " + copiesDiffering);
            if (oracleDifferences != null) {
                out.println(oracleAgrees ? "the answers before the faults are DuckDB's"
                        : "answers before the faults that are not DuckDB's: " + oracleDifferences);
            }
        }
        out.flush();
        return Boolean.TRUE.equals(r.get("passed")) ? 0 : 1;
    }

    /**
     * The queries whose answers, before the faults, differ from DuckDB's on the same generated rows,
     * with what differs first: empty when all agree.
     */
    private Map<String, String> againstDuckDb(SqlSession s, PrintWriter err) throws Exception {
        Map<String, String> differences = new TreeMap<>();
        try (TpchDuckDb oracle = TpchDuckDb.inMemory(TpchQueries.scaleFactor(s), BenchFailoverCommand.progress(err))) {
            for (int q : queries) {
                String text = TpchQueries.text(q);
                List<Object[]> ours = new ArrayList<>();
                s.execute(text, new Cancellation()).rows().forEachRemaining(ours::add);
                String difference = Answers.difference(ours, oracle.rows(TpcdsQueries.forDuckDb(text)),
                        TpcdsQueries.ordered(text));
                if (difference != null) {
                    differences.put(TpchQueries.name(q), difference);
                }
            }
        }
        return differences;
    }

    /** The query's rows, rendered and sorted: answers compared as sets of rows in any order. */
    private static List<String> rows(SqlSession s, String text) {
        List<String> rows = new ArrayList<>();
        s.execute(text, new Cancellation()).rows().forEachRemaining(r -> rows.add(Arrays.toString(r)));
        rows.sort(null);
        return rows;
    }
}
