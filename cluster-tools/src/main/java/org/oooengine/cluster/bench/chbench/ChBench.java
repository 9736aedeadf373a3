package org.oooengine.cluster.bench.chbench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.oooengine.cluster.bench.TimedStatements;
import org.oooengine.cluster.bench.tpcc.TpccBench;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.HtapConfig;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.htap.Freshness;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.tpcc.TpccCluster;
import org.oooengine.core.tpcc.TransactionalTpccTables;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;

/**
 * CH-benCHmark on a running cluster: TPC-C terminals (stored procedures on the nodes, as {@code
 * bench tpcc}) and query clients running CH-benCHmark's queries through the SQL engine over the
 * same rows at once, in phases of different OLTP:OLAP shares. Reports throughput (tps),
 * queries per hour (qph), the analytical copies' freshness and the abort rate per phase and over
 * the run, and a time series a second apart.
 */
public final class ChBench {
    /** Where the queries read the TPC-C tables, and how the nodes run their copies and core roles. */
    public enum Mode {
        /** From the nodes' analytical copies, kept in step by log shipping, the nodes' roles unbounded (the nodes' default). */
        COPIES("copies", HtapConfig.Mode.COPIES),
        /** The transactional tables themselves, in the query's transaction (the seed's unified storage). */
        UNIFIED("unified", null),
        /** From the copies, with the seed's static baseline: fixed role slots, copies switching every --switch-every. */
        STATIC("static", HtapConfig.Mode.STATIC),
        /** From the copies, with HTAL's balancer moving slots and the copies switching when their trees' freshness drops. */
        HTAL("htal", HtapConfig.Mode.HTAL),
        /** From copies never fed (the seed's decoupled storage without shipping), fixed role slots. */
        NO_SHIPPING("no-shipping", HtapConfig.Mode.NO_SHIPPING);

        private final String label;
        private final HtapConfig.Mode nodes;

        Mode(String label, HtapConfig.Mode nodes) {
            this.label = label;
            this.nodes = nodes;
        }

        public String label() {
            return label;
        }

        boolean readsCopies() {
            return nodes != null;
        }

        /** The mode called {@code label}. */
        public static Mode named(String label) {
            for (Mode m : values()) {
                if (m.label.equals(label)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown mode '" + label + "'; use "
                    + java.util.Arrays.stream(values()).map(Mode::label).collect(java.util.stream.Collectors.joining(", ")));
        }
    }

    /** What to run: the most terminals and query clients a phase runs its shares of. */
    /**
     * @param nodes the nodes' HTAP settings for the modes that set them (slots, cores, switching
     *              period, HTAL's thresholds and period); its mode is the run's
     */
    public record Options(int warehouses, int terminals, int queryClients, Mode mode, List<ChPhase> phases,
                          double phaseSeconds, double warmUpSeconds, List<Integer> queries, Duration queryTimeout,
                          boolean reload, HtapConfig nodes) {
        public Options {
            if (warehouses < 1 || terminals < 1 || queryClients < 1 || phaseSeconds <= 0 || warmUpSeconds < 0
                    || phases.isEmpty() || queries.isEmpty() || queryTimeout.isNegative() || queryTimeout.isZero()) {
                throw new IllegalArgumentException("--warehouses, --oltp-clients, --olap-clients, --phases, --queries, "
                        + "--phase-seconds and --query-timeout must be positive, --warmup at least 0");
            }
            phases = List.copyOf(phases);
            queries = List.copyOf(queries);
        }
    }

    private final Peers peers;
    private final ClusterSqlEngine engine;
    private final Options options;
    private final Consumer<String> progress;
    private final TpccCluster tpcc;
    /** When each query client's running query started (nanoTime); 0 while it runs none. */
    private final java.util.concurrent.atomic.AtomicLongArray queryStarted;

    public ChBench(Peers peers, ClusterSqlEngine engine, Options options, Consumer<String> progress) {
        this.peers = peers;
        this.engine = engine;
        this.options = options;
        this.progress = progress;
        this.tpcc = new TpccCluster(peers, options.warehouses(), TpccCluster.Engine.OOO);
        this.queryStarted = new java.util.concurrent.atomic.AtomicLongArray(options.queryClients());
    }

    /** Loads what is missing, runs the phases and reports; the nodes go back to the HTAP mode they ran in before. */
    public Map<String, Object> run() throws InterruptedException {
        prepare();
        HtapConfig before = TransactionalTables.copyStatus(peers).get(0).htap().config();
        try {
            if (options.mode().readsCopies()) {
                HtapConfig c = options.nodes();
                TransactionalTables.htapMode(peers, new HtapConfig(options.mode().nodes, c.slots(), c.cores(),
                        c.switchEvery(), c.parameters(), c.period(), c.treesOnly()));
            }
            return measure();
        } finally {
            if (options.mode().readsCopies()) {
                TransactionalTables.htapMode(peers, before);
            }
        }
    }

    private Map<String, Object> measure() throws InterruptedException {
        ChSeries series = new ChSeries(System.nanoTime());
        AtomicInteger active = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong failedQueries = new AtomicLong();
        AtomicLong abortedQueries = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        try (TimedStatements statements = new TimedStatements(this::querySession, options.queryTimeout())) {
            for (int c = 0; c < options.queryClients(); c++) {
                int client = c;
                Thread t = new Thread(() -> queryLoop(client, statements, active, stop, series, failedQueries,
                        abortedQueries),
                        "chbench-query-" + c);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            Thread sampler = new Thread(() -> sampleFreshness(stop, series), "chbench-freshness");
            sampler.setDaemon(true);
            sampler.start();
            threads.add(sampler);
            if (options.warmUpSeconds() > 0) {
                progress.accept(String.format(Locale.ROOT, "warming up: %d terminals for %.0f s",
                        options.phases().get(0).terminals(options.terminals()), options.warmUpSeconds()));
                long end = System.nanoTime() + (long) (options.warmUpSeconds() * 1e9);
                TpccBench.drive(tpcc, options.warehouses(), options.phases().get(0).terminals(options.terminals()), end, end,
                        () -> { }, progress);
            }
            List<Map<String, Object>> phases = new ArrayList<>();
            long runStart = System.nanoTime();
            long commits = 0;
            long conflicts = 0;
            for (ChPhase phase : options.phases()) {
                phases.add(runPhase(phase, active, series));
                commits += (long) phases.get(phases.size() - 1).get("commits");
                conflicts += (long) phases.get(phases.size() - 1).get("conflicts");
            }
            long runEnd = System.nanoTime();
            stop.set(true);
            active.set(0);
            for (Thread t : threads) {
                t.join(options.queryTimeout().toMillis() + 60_000);
            }
            double seconds = (runEnd - runStart) / 1e9;
            progress.accept("checking the consistency conditions");
            List<String> problems = tpcc.consistencyProblems();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("mode", options.mode().label());
            if (options.mode().readsCopies() && options.mode() != Mode.COPIES) {
                r.put("node_settings", nodeSettings());
            }
            r.put("warehouses", options.warehouses());
            r.put("nodes", peers.spec().nodes().size());
            r.put("terminals", options.terminals());
            r.put("query_clients", options.queryClients());
            r.put("queries", options.queries().stream().map(ChQueries::name).toList());
            r.put("phase_seconds", options.phaseSeconds());
            r.put("tps", commits / seconds);
            r.put("qph", series.queries(runStart, runEnd) * 3600 / seconds);
            r.put("freshness", ChSeries.orNull(series.freshness(runStart, runEnd)));
            r.put("freshness_min", ChSeries.orNull(series.minFreshness(runStart, runEnd)));
            r.put("lag_mean_seconds", ChSeries.orNull(series.meanLag(runStart, runEnd)));
            r.put("lag_p99_seconds", ChSeries.orNull(series.p99Lag(runStart, runEnd)));
            r.put("lag_max_seconds", ChSeries.orNull(series.maxLag(runStart, runEnd)));
            r.put("lag_by_table", series.lagByTable(runStart, runEnd));
            r.put("abort_rate", commits + conflicts == 0 ? 0.0 : (double) conflicts / (commits + conflicts));
            r.put("aborted_queries", abortedQueries.get());
            r.put("failed_queries", failedQueries.get());
            r.put("consistency_ok", problems.isEmpty());
            r.put("phases", phases);
            r.put("series", series.rows(runStart, runEnd));
            return r;
        }
    }

    private Map<String, Object> runPhase(ChPhase phase, AtomicInteger active, ChSeries series) throws InterruptedException {
        int terminals = phase.terminals(options.terminals());
        int clients = phase.queryClients(options.queryClients());
        progress.accept(String.format(Locale.ROOT, "phase %s: %d terminals, %d query clients for %.0f s", phase, terminals,
                clients, options.phaseSeconds()));
        active.set(clients);
        long start = System.nanoTime();
        long end = start + (long) (options.phaseSeconds() * 1e9);
        long commits = 0;
        long conflicts = 0;
        if (terminals > 0) {
            TpccBench.Tally t = TpccBench.drive(tpcc, options.warehouses(), terminals, start, end, series::commit, progress);
            commits = t.commits();
            conflicts = t.conflicts();
        } else {
            Thread.sleep(options.phaseSeconds() > 0 ? (long) (options.phaseSeconds() * 1000) : 0);
        }
        long stopped = Math.max(end, System.nanoTime());
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("oltp_share", phase.oltpShare() / 100.0);
        p.put("tps", commits / options.phaseSeconds());
        p.put("qph", series.queries(start, stopped) * 3600 / ((stopped - start) / 1e9));
        p.put("freshness", ChSeries.orNull(series.freshness(start, stopped)));
        p.put("freshness_min", ChSeries.orNull(series.minFreshness(start, stopped)));
        p.put("lag_mean_seconds", ChSeries.orNull(series.meanLag(start, stopped)));
        p.put("lag_p99_seconds", ChSeries.orNull(series.p99Lag(start, stopped)));
        p.put("lag_by_table", series.lagByTable(start, stopped));
        p.put("abort_rate", commits + conflicts == 0 ? 0.0 : (double) conflicts / (commits + conflicts));
        Map<String, Object> roles = new LinkedHashMap<>();
        roles.put("terminals", terminals);
        roles.put("query_clients", clients);
        roles.put("node_slots", series.meanSlots(start, stopped)); // summed over the nodes, averaged over the phase
        p.put("roles", roles);
        p.put("commits", commits);
        p.put("conflicts", conflicts);
        return p;
    }

    /** The nodes' HTAP settings, as the report gives them. */
    private Map<String, Object> nodeSettings() {
        HtapConfig c = options.nodes();
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Integer> slots = new java.util.TreeMap<>();
        c.slots().forEach((role, n) -> slots.put(role.name().toLowerCase(Locale.ROOT), n));
        m.put("slots", slots);
        // each node's own: without --cores-per-node, a node takes its share of its host
        Map<String, Double> cores = new java.util.TreeMap<>();
        for (TransactionalTables.CopyStatus s : TransactionalTables.copyStatus(peers)) {
            cores.put(s.node(), s.htap().coresShared());
        }
        m.put("cores_per_node", new java.util.HashSet<>(cores.values()).size() == 1 ? cores.values().iterator().next()
                : cores);
        m.put("switch_every_seconds", c.switchEvery().toMillis() / 1000.0);
        m.put("htal", c.parameters());
        m.put("balance_every_seconds", c.period().toMillis() / 1000.0);
        m.put("trees_only", c.treesOnly());
        return m;
    }

    /** A query client: while it is among the active ones, runs the queries in turn, starting at its own. */
    private void queryLoop(int client, TimedStatements statements, AtomicInteger active, AtomicBoolean stop,
                           ChSeries series, AtomicLong failed, AtomicLong aborted) {
        int next = client % options.queries().size();
        while (!stop.get()) {
            if (client >= active.get()) {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
                continue;
            }
            int q = options.queries().get(next);
            next = (next + 1) % options.queries().size();
            queryStarted.set(client, System.nanoTime());
            try {
                statements.execute(ChQueries.text(q), false);
                series.query();
            } catch (SqlException e) {
                if (SqlException.SERIALIZATION_FAILURE.equals(e.sqlState())) {
                    aborted.incrementAndGet(); // unified storage: the writes kept invalidating its reads
                } else if (failed.incrementAndGet() <= 3) {
                    progress.accept("query " + ChQueries.name(q) + " failed: " + e.getMessage());
                }
            } catch (TimeoutException | RuntimeException e) {
                if (failed.incrementAndGet() <= 3) {
                    progress.accept("query " + ChQueries.name(q) + " failed: " + e.getMessage());
                }
            } finally {
                queryStarted.set(client, 0);
            }
        }
    }

    /** How long the query running longest has run, in seconds; 0 when none runs. */
    private double longestQuery() {
        long now = System.nanoTime();
        long longest = 0;
        for (int c = 0; c < queryStarted.length(); c++) {
            long started = queryStarted.get(c);
            if (started != 0) {
                longest = Math.max(longest, now - started);
            }
        }
        return longest / 1e9;
    }

    /**
     * Five times a second: the copies' freshness over all nodes and TPC-C's tables (rows up to date
     * over rows), and each table's greatest lag over the nodes.
     */
    private void sampleFreshness(AtomicBoolean stop, ChSeries series) {
        while (!stop.get()) {
            if (!options.mode().readsCopies()) {
                // the queries read the tables themselves
                series.freshness(1.0, Map.of(), Map.of(), ChSeries.CopyWork.NONE, longestQuery());
            } else {
                try {
                    long rows = 0;
                    long stale = 0;
                    Map<String, Double> lag = new java.util.TreeMap<>();
                    Map<String, Integer> slots = new java.util.TreeMap<>();
                    ChSeries.CopyWork work = ChSeries.CopyWork.NONE;
                    for (TransactionalTables.CopyStatus s : TransactionalTables.copyStatus(peers)) {
                        work = work.plus(new ChSeries.CopyWork(s.switches(), s.applied(), s.owedCommits(), s.deltaKeys()));
                        for (Freshness f : s.tables()) {
                            rows += f.rows();
                            stale += f.staleRows();
                            lag.merge(f.table(), f.lagSeconds(), Math::max);
                        }
                        s.htap().slots().forEach((role, n) -> slots.merge(role.name().toLowerCase(Locale.ROOT), n,
                                Integer::sum));
                    }
                    series.freshness(rows == 0 ? 1.0 : Math.max(0, 1 - (double) stale / rows), lag,
                            options.mode() == Mode.COPIES ? Map.of() : slots, work, longestQuery());
                } catch (RuntimeException e) {
                    progress.accept("the copies' freshness could not be read: " + e.getMessage());
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(SAMPLE_NANOS);
        }
    }

    /** How often the copies' freshness is read. */
    private static final long SAMPLE_NANOS = 200_000_000L;

    private SqlSession querySession() {
        SqlSession s = engine.openSession("chbench", ChTables.DATABASE, Map.of());
        s.execute("SET ooo.htap.reads=" + (options.mode().readsCopies() ? "copies" : "transactional"), new Cancellation());
        return s;
    }

    /** Loads TPC-C unless the cluster holds the warehouses asked for, enters the tables in SQL, and has the copies built. */
    private void prepare() throws InterruptedException {
        int held = tpcc.loadedWarehouses();
        if (held != options.warehouses() && held != 0 && !options.reload()) {
            throw new IllegalArgumentException("the cluster holds TPC-C with " + held + " warehouses, not "
                    + options.warehouses() + ": run with --reload to load " + options.warehouses() + " anew");
        }
        boolean copies = options.mode().readsCopies();
        try (SqlSession sql = engine.openSession("chbench", "default", Map.of())) {
            boolean entered = entered(sql);
            if (held != options.warehouses()) {
                if (entered) {
                    ChTables.drop(sql);
                    entered = false;
                }
                if (held != 0) {
                    tpcc.drop();
                }
                long t0 = System.nanoTime();
                tpcc.load(TpccBench.SEED, TpccBench.NOW,
                        (table, rows) -> progress.accept(String.format("loaded %s: %,d rows", table, rows)));
                progress.accept(String.format(Locale.ROOT, "loaded %d warehouse(s) in %.1f s", options.warehouses(),
                        (System.nanoTime() - t0) / 1e9));
            }
            if (!entered) {
                ChTables.create(engine, sql, TpccBench.SEED, options.warehouses(), copies, progress);
            } else {
                for (String t : ChTables.FROM_TPCC) {
                    ChTables.run(sql, "ALTER TABLE " + ChTables.DATABASE + "." + t
                            + " SET TBLPROPERTIES ('" + DdlAnalyzer.HTAP_COPIES_PROPERTY + "'='" + copies + "')");
                }
            }
        }
        if (copies) {
            awaitCopiesBuilt();
        }
    }

    private static boolean entered(SqlSession sql) {
        try {
            sql.execute("SELECT count(*) FROM " + ChTables.DATABASE + ".region", new Cancellation());
            return true;
        } catch (SqlException e) {
            return false;
        }
    }

    /** Waits until every node serves copies of TPC-C's tables (built from their rows after they were entered). */
    private void awaitCopiesBuilt() throws InterruptedException {
        progress.accept("waiting for the nodes to build the analytical copies");
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        while (true) {
            boolean built = TransactionalTables.copyStatus(peers).stream().allMatch(s -> s.tables().stream()
                    .filter(f -> f.table().startsWith(TransactionalTpccTables.PREFIX)).count() == ChTables.FROM_TPCC.size());
            if (built) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the nodes did not build their analytical copies within 30 minutes");
            }
            Thread.sleep(500);
        }
    }
}
