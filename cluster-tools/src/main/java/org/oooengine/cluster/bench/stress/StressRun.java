package org.oooengine.cluster.bench.stress;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Clients that run statements meant to exhaust the nodes (a cross join, a self-join grouped by
 * both keys, TPC-H queries) side by side for a while, with a probe asking every node for its
 * status each second: whether every node keeps answering in time, how each statement ended (rows,
 * or the SQLSTATE and message of its failure), and whether a query run before and after is as
 * fast afterwards.
 */
public final class StressRun {
    /** SQLSTATEs that name why a statement failed: out of memory or disk, cancelled, a conflict. */
    static final Set<String> NAMED_CAUSES = Set.of("53200", "53100", "53000", "57014", "40001", "54000");

    /** Opens a client connection. */
    @FunctionalInterface
    public interface Connector {
        Connection open() throws Exception;
    }

    /** One node's answer to a status probe: its state and how long the whole probe took. */
    public record NodeProbe(String node, String state) {
    }

    /** What the run is given. */
    /**
     * @param statementTimeout each client statement's query timeout: a statement still running then is
     *                         cancelled by the endpoint (HYT00), so that none outlives the run's grace
     */
    public record Options(int clients, Duration length, Duration probeEvery, Duration probeLimit, int probeQueryRuns,
                          Duration statementTimeout) {
        public Options {
            if (statementTimeout.compareTo(GRACE) >= 0) {
                throw new IllegalArgumentException("the statement timeout must be shorter than the " + GRACE.toSeconds()
                        + " s the clients' last statements are given to end");
            }
        }
    }

    /** How the statements of one kind ended. */
    public record StatementOutcome(String name, long succeeded, Map<String, Long> failedByState, List<String> failures,
                                   double medianSeconds) {
    }

    /** The probe's record: samples, the slowest, and the moments a node did not answer in time. */
    public record Probes(long samples, double maxSeconds, double p99Seconds, long late, long notUp, List<String> lapses) {
    }

    public record Result(int clients, double seconds, String probeQuery, double probeBeforeSeconds,
                         double probeAfterSeconds, double probeSlowdown, String probeAfterError, Probes probes, List<StatementOutcome> statements,
                         long unnamedFailures, int hungClients, boolean everyNodeAnsweredInTime) {
    }

    private final Connector connector;
    private final Supplier<List<NodeProbe>> status;
    private final Map<String, String> statements;
    private final String probeQuery;
    private final Options options;
    private final Consumer<String> progress;

    /**
     * @param statements the statements the clients take turns at, by name
     * @param probeQuery the name of the statement timed before and after (one of {@code statements})
     */
    public StressRun(Connector connector, Supplier<List<NodeProbe>> status, Map<String, String> statements,
                     String probeQuery, Options options, Consumer<String> progress) {
        if (!statements.containsKey(probeQuery)) {
            throw new IllegalArgumentException("the probe query " + probeQuery + " is not among " + statements.keySet());
        }
        this.connector = connector;
        this.status = status;
        this.statements = statements;
        this.probeQuery = probeQuery;
        this.options = options;
        this.progress = progress;
    }

    /** How long statements still running when the time is up may take to finish. */
    static final Duration GRACE = Duration.ofMinutes(3);
    private int hung;

    public Result run() throws Exception {
        double before = timeProbeQuery("before");
        // The status probe's first run loads its classes and opens its thread pools in this JVM: done
        // once before the clients start and not counted, so that the samples time the nodes' answers.
        try {
            status.get();
        } catch (RuntimeException e) {
            progress.accept("status probe before the clients: " + e.getMessage());
        }
        Map<String, Tally> tallies = new LinkedHashMap<>();
        statements.keySet().forEach(n -> tallies.put(n, new Tally()));
        AtomicBoolean stop = new AtomicBoolean();
        ProbeLoop probe = new ProbeLoop();
        ExecutorService pool = Executors.newFixedThreadPool(options.clients() + 1);
        long t0 = System.nanoTime();
        try {
            Future<?> probing = pool.submit(() -> probe.run(stop));
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < options.clients(); c++) {
                int client = c;
                clients.add(pool.submit(() -> client(client, stop, tallies)));
            }
            long deadline = t0 + options.length().toNanos();
            while (System.nanoTime() < deadline) {
                Thread.sleep(Math.min(10_000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
                progress.accept(String.format("%.0f s: %s; status probes %d, slowest %.2f s", (System.nanoTime() - t0) / 1e9,
                        summary(tallies), probe.samples.get(), probe.maxNanos.get() / 1e9));
            }
            stop.set(true);
            // a statement running when time is up may finish; one still running after the grace is hung
            long graceEnd = System.nanoTime() + GRACE.toNanos();
            for (Future<?> f : clients) {
                try {
                    f.get(Math.max(1, graceEnd - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    hung++;
                    f.cancel(true);
                }
            }
            probing.get();
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String afterError = null;
        double after;
        try {
            after = timeProbeQuery("after");
        } catch (SQLException e) { // the nodes did not recover: that is the finding
            afterError = e.getSQLState() + " " + e.getMessage();
            after = Double.NaN;
            progress.accept(probeQuery + " after: failed: " + afterError);
        }
        List<StatementOutcome> outcomes = new ArrayList<>();
        tallies.forEach((name, t) -> outcomes.add(t.outcome(name)));
        long unnamed = outcomes.stream().flatMap(o -> o.failedByState().entrySet().stream())
                .filter(e -> !NAMED_CAUSES.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        Probes probes = probe.probes();
        return new Result(options.clients(), seconds, probeQuery, before, after, after / before, afterError, probes, outcomes,
                unnamed, hung, probes.late() == 0 && probes.notUp() == 0);
    }

    /** One client: the statements in turn, from an offset of its own, until told to stop. */
    private void client(int client, AtomicBoolean stop, Map<String, Tally> tallies) {
        List<String> names = new ArrayList<>(statements.keySet());
        int i = client;
        Connection c = null;
        while (!stop.get()) {
            String name = names.get(i++ % names.size());
            Tally t = tallies.get(name);
            long s0 = System.nanoTime();
            try {
                if (c == null || c.isClosed()) {
                    c = connector.open();
                }
                long rows = drain(c, statements.get(name), (int) Math.max(1, options.statementTimeout().toSeconds()));
                t.succeeded(System.nanoTime() - s0, rows);
            } catch (java.sql.SQLTimeoutException e) {
                // The Hive driver reports the endpoint's timeout (HYT00) as this class, without the state.
                t.failed(e.getSQLState() == null ? "HYT00" : e.getSQLState(), e.getMessage());
                c = closeQuietly(c);
            } catch (SQLException e) {
                t.failed(e.getSQLState() == null ? "none" : e.getSQLState(), e.getMessage());
                c = closeQuietly(c); // a connection a failure left in doubt is not used again
            } catch (Exception e) {
                t.failed("client", e.toString());
                c = closeQuietly(c);
            }
        }
        closeQuietly(c);
    }

    private static long drain(Connection c, String sql, int timeoutSeconds) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(timeoutSeconds);
            long rows = 0;
            if (s.execute(sql)) {
                try (ResultSet r = s.getResultSet()) {
                    while (r.next()) {
                        rows++;
                    }
                }
            }
            return rows;
        }
    }

    private static Connection closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the connection is being dropped
            }
        }
        return null;
    }

    /** The probe query's median time over {@link Options#probeQueryRuns} runs, alone on the cluster. */
    private double timeProbeQuery(String when) throws Exception {
        List<Double> times = new ArrayList<>();
        try (Connection c = connector.open()) {
            drain(c, statements.get(probeQuery), 0); // warm
            for (int r = 0; r < options.probeQueryRuns(); r++) {
                long s0 = System.nanoTime();
                drain(c, statements.get(probeQuery), 0);
                times.add((System.nanoTime() - s0) / 1e9);
            }
        }
        double median = median(times);
        progress.accept(String.format("%s %s: %.2f s (median of %d)", probeQuery, when, median, times.size()));
        return median;
    }

    private static String summary(Map<String, Tally> tallies) {
        StringBuilder b = new StringBuilder();
        tallies.forEach((n, t) -> b.append(b.length() == 0 ? "" : ", ").append(n).append(' ')
                .append(t.ok.get()).append(" ok/").append(t.failedCount.get()).append(" failed"));
        return b.toString();
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** How one statement fared across every client. */
    private static final class Tally {
        private final AtomicLong ok = new AtomicLong();
        private final AtomicLong failedCount = new AtomicLong();
        private final Map<String, AtomicLong> byState = new ConcurrentHashMap<>();
        /** The first few distinct failures of each SQLSTATE, as state and message. */
        private final Set<String> examples = ConcurrentHashMap.newKeySet();
        private final List<Double> seconds = java.util.Collections.synchronizedList(new ArrayList<>());

        void succeeded(long nanos, long rows) {
            ok.incrementAndGet();
            seconds.add(nanos / 1e9);
        }

        void failed(String state, String message) {
            failedCount.incrementAndGet();
            byState.computeIfAbsent(state, s -> new AtomicLong()).incrementAndGet();
            // a few of each SQLSTATE: a rare cause must not hide behind a frequent one
            long ofState = examples.stream().filter(e -> e.startsWith(state + " ")).count();
            if (ofState < 2 && examples.size() < 8) {
                String m = message == null ? "" : message.length() > 300 ? message.substring(0, 300) + "..." : message;
                examples.add(state + " " + m);
            }
        }

        StatementOutcome outcome(String name) {
            Map<String, Long> states = new java.util.TreeMap<>();
            byState.forEach((s, n) -> states.put(s, n.get()));
            List<String> shown = new ArrayList<>(examples);
            java.util.Collections.sort(shown);
            return new StatementOutcome(name, ok.get(), states, shown, median(new ArrayList<>(seconds)));
        }
    }

    /** Asks for every node's status each {@link Options#probeEvery}, timing each answer. */
    private final class ProbeLoop {
        private final AtomicLong samples = new AtomicLong();
        private final AtomicLong maxNanos = new AtomicLong();
        private final List<Double> seconds = java.util.Collections.synchronizedList(new ArrayList<>());
        private final List<String> lapses = java.util.Collections.synchronizedList(new ArrayList<>());
        private long late;
        private long notUp;
        private final long t0 = System.nanoTime();

        void run(AtomicBoolean stop) {
            while (!stop.get()) {
                long s0 = System.nanoTime();
                List<NodeProbe> answer;
                try {
                    answer = status.get();
                } catch (RuntimeException e) {
                    answer = List.of(new NodeProbe("?", "probe failed: " + e.getMessage()));
                }
                long took = System.nanoTime() - s0;
                samples.incrementAndGet();
                maxNanos.accumulateAndGet(took, Math::max);
                seconds.add(took / 1e9);
                List<NodeProbe> down = answer.stream().filter(p -> !p.state().startsWith("up")).toList();
                boolean slow = took > options.probeLimit().toNanos();
                synchronized (this) {
                    late += slow ? 1 : 0;
                    notUp += down.isEmpty() ? 0 : 1;
                }
                if ((slow || !down.isEmpty()) && lapses.size() < 50) {
                    lapses.add(String.format("at %.0f s: %.2f s%s", (s0 - t0) / 1e9, took / 1e9,
                            down.isEmpty() ? "" : " " + Arrays.toString(down.toArray())));
                }
                try {
                    Thread.sleep(Math.max(0, options.probeEvery().toMillis() - took / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        synchronized Probes probes() {
            List<Double> sorted = new ArrayList<>(seconds);
            java.util.Collections.sort(sorted);
            double p99 = sorted.isEmpty() ? Double.NaN : sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99)));
            return new Probes(samples.get(), maxNanos.get() / 1e9, p99, late, notUp, new ArrayList<>(lapses));
        }
    }
}
