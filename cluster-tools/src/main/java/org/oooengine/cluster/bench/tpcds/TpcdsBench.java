package org.oooengine.cluster.bench.tpcds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.oooengine.cluster.bench.QueryProfiler;
import org.oooengine.cluster.bench.Stats;
import org.oooengine.cluster.bench.TimedStatements;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * Runs TPC-DS queries through the SQL engine and checks each answer against DuckDB's over the same
 * rows. Per query: DuckDB once to warm up and {@code repeat} timed runs; the engine once (its rows
 * are compared), then, if it answered, {@code repeat} timed runs. With {@code repeat} 0 the runs
 * that are checked are the ones timed. Each engine run has its own session and is cancelled at
 * {@code timeout}, so one query cannot hold up the others.
 */
public final class TpcdsBench implements AutoCloseable {
    private final TimedStatements statements;
    private final TpcdsDuckDb duckdb;
    private final int repeat;
    private QueryProfiler profiler = QueryProfiler.NONE;
    /** Where each answered query's EXPLAIN ANALYZE goes ({@code q01.txt}, ...), or null: nowhere. */
    private Path explainDir;
    public TpcdsBench(Supplier<SqlSession> sessions, TpcdsDuckDb duckdb, int repeat, Duration timeout) {
        if (repeat < 0) {
            throw new IllegalArgumentException("repeat must be at least 0, got " + repeat);
        }
        this.statements = new TimedStatements(sessions, timeout);
        this.duckdb = duckdb;
        this.repeat = repeat;
    }

    /**
     * This bench with each query that answered run once more under EXPLAIN ANALYZE, its plan with
     * the rows and times measured written to {@code dir} as {@code q01.txt}, ... (made if missing).
     */
    /** Has {@code profiler} record each query's timed runs on the engine. */
    public TpcdsBench profiledBy(QueryProfiler profiler) {
        this.profiler = profiler;
        return this;
    }

    public TpcdsBench explainingTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        this.explainDir = dir;
        return this;
    }

    /** Runs the queries in order, passing each one's result to {@code onQuery} as soon as it is known. */
    public List<TpcdsQueryResult> run(List<Integer> queries, Consumer<TpcdsQueryResult> onQuery) {
        List<TpcdsQueryResult> results = new ArrayList<>();
        for (int q : queries) {
            TpcdsQueryResult r = run(q);
            results.add(r);
            onQuery.accept(r);
        }
        return results;
    }

    /** One query: its status, and its times when the engine answered. */
    public TpcdsQueryResult run(int number) {
        String name = TpcdsQueries.name(number);
        String sql = TpcdsQueries.text(number);
        List<Object[]> expected;
        double duckdbSeconds;
        try {
            long first = System.nanoTime();
            expected = duckdb.rows(sql);
            double[] seconds = repeat == 0 ? new double[] {(System.nanoTime() - first) / 1e9} : new double[repeat];
            for (int i = 0; i < repeat; i++) {
                long t0 = System.nanoTime();
                duckdb.rows(sql);
                seconds[i] = (System.nanoTime() - t0) / 1e9;
            }
            duckdbSeconds = millis(Stats.median(seconds));
        } catch (Exception e) {
            return failed(name, "DuckDB could not run the query: " + e.getMessage(), null);
        }
        TimedStatements.Run checked;
        try {
            checked = statements.execute(sql, true);
        } catch (SqlException e) {
            return new TpcdsQueryResult(name, TpcdsQueryResult.Status.REFUSED, e.sqlState(), e.getMessage(), null, null,
                    null, null, duckdbSeconds);
        } catch (TimeoutException e) {
            return new TpcdsQueryResult(name, TpcdsQueryResult.Status.TIMEOUT, null, e.getMessage(), null, null, null,
                    null, duckdbSeconds);
        } catch (RuntimeException e) {
            return failed(name, e.toString(), duckdbSeconds);
        }
        List<Object[]> ours = checked.rows();
        String difference = Answers.difference(ours, expected, TpcdsQueries.ordered(sql));
        double[] seconds = repeat == 0 ? new double[] {checked.seconds()} : new double[repeat];
        profiler.start(name);
        try {
            for (int i = 0; i < repeat; i++) {
                seconds[i] = statements.execute(sql, false).seconds();
            }
        } catch (TimeoutException | RuntimeException e) {
            // It answered once: the answer stands, its time is unknown.
            seconds = null;
        } finally {
            profiler.stop(name);
        }
        explain(name, sql);
        List<Double> runs = seconds == null ? null : Arrays.stream(seconds).map(TpcdsBench::millis).boxed().toList();
        return new TpcdsQueryResult(name, difference == null ? TpcdsQueryResult.Status.OK : TpcdsQueryResult.Status.WRONG,
                null, null, difference, (long) ours.size(), seconds == null ? null : millis(Stats.median(seconds)), runs,
                duckdbSeconds);
    }

    /** The query's EXPLAIN ANALYZE in the explain directory, if there is one; a failure there is written in its place. */
    private void explain(String name, String sql) {
        if (explainDir == null) {
            return;
        }
        List<String> lines = new ArrayList<>();
        try {
            statements.execute("EXPLAIN ANALYZE " + sql, true).rows().forEach(row -> lines.add(String.valueOf(row[0])));
        } catch (TimeoutException | RuntimeException e) {
            lines.add("EXPLAIN ANALYZE failed: " + e.getMessage());
        }
        try {
            Files.write(explainDir.resolve(name + ".txt"), lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the plan of " + name + " to " + explainDir, e);
        }
    }

    private static TpcdsQueryResult failed(String name, String error, Double duckdbSeconds) {
        return new TpcdsQueryResult(name, TpcdsQueryResult.Status.FAILED, null, error, null, null, null, null, duckdbSeconds);
    }

    /** Seconds to the millisecond: the machine's noise is larger. */
    static double millis(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    @Override
    public void close() {
        statements.close();
    }
}
