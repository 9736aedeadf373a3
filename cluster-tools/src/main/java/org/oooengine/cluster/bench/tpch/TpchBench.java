package org.oooengine.cluster.bench.tpch;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.oooengine.cluster.bench.QueryProfiler;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementMemory;
import org.oooengine.hive.sql.StatementResult;

/**
 * Times TPC-H queries through an SQL session or a JDBC connection: each query once untimed (its rows are kept, for
 * checking), then {@code repeat} timed runs. A run's time is the wall time of the statement with
 * every row read. A query that fails is reported with its error and the others still run. With a
 * reading of the nodes' CPU time, each query also reports the CPU seconds the nodes spent per timed
 * run (what several nodes sharing one machine's cores compete for). Where the session tells, each
 * query reports what its first run held at most on the coordinator and in one pipeline on a node.
 */
public final class TpchBench {
    private final Queries queries;
    private final int repeat;
    private final LongSupplier spilled;
    private final DoubleSupplier nodesCpu;
    private QueryProfiler profiler = QueryProfiler.NONE;

    /** Where the queries run: a statement's rows, read as the caller reads them. */
    @FunctionalInterface
    public interface Queries {
        Iterator<Object[]> rows(String sql);

        /** Through an SQL session of this process, as its coordinator runs them. */
        static Queries of(SqlSession session) {
            return sql -> {
                StatementResult r = session.execute(sql, new Cancellation());
                if (!r.hasResultSet()) {
                    throw new IllegalStateException("the statement returned no result set");
                }
                return r.rows();
            };
        }
    }

    /**
     * As above, {@code spilled} telling the bytes spilled to disk so far (counted over each query's
     * first run) and {@code nodesCpu} the CPU seconds all nodes have spent so far (-1: unknown).
     */
    public TpchBench(Queries queries, int repeat, LongSupplier spilled, DoubleSupplier nodesCpu) {
        this.spilled = spilled;
        this.nodesCpu = nodesCpu;
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        this.queries = queries;
        this.repeat = repeat;
    }

    /** Has {@code profiler} record each query's timed runs. */
    public TpchBench profiledBy(QueryProfiler profiler) {
        this.profiler = profiler;
        return this;
    }

    /** Runs the queries in order, passing each one's result to {@code onQuery} as soon as it is known. */
    public List<TpchQueryResult> run(List<Integer> queries, Consumer<TpchQueryResult> onQuery) {
        List<TpchQueryResult> results = new ArrayList<>();
        for (int q : queries) {
            TpchQueryResult r = run(q);
            results.add(r);
            onQuery.accept(r);
        }
        return results;
    }

    private TpchQueryResult run(int number) {
        String name = TpchQueries.name(number);
        String sql = TpchQueries.text(number);
        try {
            List<Object[]> rows = new ArrayList<>();
            long spilledBefore = spilled.getAsLong();
            Iterator<Object[]> first = execute(sql);
            StatementMemory held = first instanceof StatementMemory.Measured m ? m.memory() : null;
            first.forEachRemaining(rows::add);
            long spilledBytes = spilled.getAsLong() - spilledBefore;
            double[] seconds = new double[repeat];
            double cpuBefore = nodesCpu.getAsDouble();
            profiler.start(name);
            try {
                for (int i = 0; i < repeat; i++) {
                    long t0 = System.nanoTime();
                    long count = count(execute(sql));
                    seconds[i] = (System.nanoTime() - t0) / 1e9;
                    if (count != rows.size()) {
                        throw new IllegalStateException("a timed run returned " + count + " rows, the first " + rows.size());
                    }
                }
            } finally {
                profiler.stop(name);
            }
            double cpuAfter = nodesCpu.getAsDouble();
            Double cpuPerRun = cpuBefore < 0 || cpuAfter < 0 ? null : (cpuAfter - cpuBefore) / repeat;
            return TpchQueryResult.of(name, seconds, rows, spilledBytes, cpuPerRun, held);
        } catch (RuntimeException e) {
            return TpchQueryResult.failed(name, e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }

    private Iterator<Object[]> execute(String sql) {
        return queries.rows(sql);
    }

    private static long count(Iterator<Object[]> rows) {
        long n = 0;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        return n;
    }
}
