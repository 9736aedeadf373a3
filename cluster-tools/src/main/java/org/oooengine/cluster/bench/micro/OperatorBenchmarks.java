package org.oooengine.cluster.bench.micro;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.oooengine.core.fragment.BatchSink;
import org.oooengine.core.fragment.FinalAggregation;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A node's pipeline over 262,144 lineitem-like rows (an order key and two DECIMAL(15,2) columns)
 * from a source that hands it rows of objects ({@code rows}: the row engine, {@code Pipeline})
 * or column batches ({@code batches}: {@code VectorPipeline}), as the scans of the nodes do:
 * <ul>
 *   <li>{@code hashJoin}: an inner hash join on the order key with 65,536 orders (every probe row
 *       meets one; the build made anew each run), the rows that come out counted as a shuffle
 *       takes them (batches not boxed into rows);</li>
 *   <li>{@code revenue}: {@code sum(price * (1 - discount))}, TPC-H's decimal arithmetic, one
 *       group;</li>
 *   <li>{@code semiJoin}: a semi join with 1,024 of the orders, which most probe rows miss (TPC-H
 *       Q21's lineitems reduced to the late orders' keys);</li>
 *   <li>{@code groupByOrder}: {@code sum(price)} per order key over the rows in order-key order, four
 *       to an order, as lineitem is stored (TPC-H Q18's groups);</li>
 *   <li>{@code groupByKey}: the same over the rows in random order, each row's group looked up
 *       (a GROUP BY on a key the rows are not stored by: TPC-H Q13's customers);</li>
 *   <li>{@code bigBuildJoin}: an inner hash join with 524,288 orders, a table larger than the
 *       caches (a node's share of TPC-H SF 1's orders is 375,000), every probe row meeting one;</li>
 *   <li>{@code selectiveJoin}: an inner hash join with 49,152 orders, 3,277 of which have keys of
 *       the probe rows, so that 1 in 20 probe rows meets one (TPC-H Q09's lineitems and the
 *       partsupp rows of its green parts): a table larger than a core's nearer caches that most
 *       probes miss;</li>
 *   <li>{@code manyPerKey}: an inner hash join with 262,144 build rows of 16,384 keys, sixteen to a
 *       key, a quarter of the probe rows meeting them (TPC-H Q13's orders per customer).</li>
 *   <li>{@code mergeGroups}: the last step of a split GROUP BY on the node that merges it: 262,144
 *       partial groups ({@code sum(price)} by order key, each key once, as TPC-H Q18's groups
 *       arrive) in chunks of 1,024 as the wire delivers them, merged from their rows of objects
 *       ({@code rows}) or from their columns ({@code batches}).</li>
 * </ul>
 * Run with {@code ./ooo bench micro --filter Operator}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class OperatorBenchmarks {
    static final int ROWS = 1 << 18;
    static final int ORDERS = 1 << 16;
    private static final SqlType MONEY = SqlType.decimal(15, 2);
    private static final Schema LINEITEM = new Schema(List.of(new Column("l_orderkey", DataType.BIGINT),
            new Column("l_extendedprice", DataType.decimal(15, 2)), new Column("l_discount", DataType.decimal(15, 2))));

    @Param({"rows", "batches"})
    String format;

    private List<List<Object[]>> pages;
    private List<Batch> batches;
    /** The same rows with order keys ascending, four rows to an order. */
    private List<List<Object[]>> pagesByOrder;
    private List<Batch> batchesByOrder;
    private List<Object[]> orders;
    private List<Object[]> lateOrders;
    private List<Object[]> manyOrders;
    private List<Object[]> ordersPerCustomer;
    private List<Object[]> fewMatching;
    /** Partial groups of {@code sum(price)} by order key as they arrive at the node merging them. */
    private List<ColumnarRows.Chunk> partialGroups;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(3);
        pages = new ArrayList<>();
        pagesByOrder = new ArrayList<>();
        for (int from = 0; from < ROWS; from += 1024) {
            List<Object[]> page = new ArrayList<>(1024);
            List<Object[]> byOrder = new ArrayList<>(1024);
            for (int i = 0; i < 1024; i++) {
                // stored values: decimals as their unscaled longs
                Object[] row = {(long) random.nextInt(ORDERS), 90_000L + random.nextInt(10_000_000), (long) random.nextInt(11)};
                page.add(row);
                byOrder.add(new Object[] {(long) ((from + i) / 4), row[1], row[2]});
            }
            pages.add(page);
            pagesByOrder.add(byOrder);
        }
        batches = batchesOf(pages);
        batchesByOrder = batchesOf(pagesByOrder);
        orders = new ArrayList<>(ORDERS);
        lateOrders = new ArrayList<>();
        for (long o = 0; o < ORDERS; o++) {
            orders.add(new Object[] {o, o % 1500});
            if (o % 64 == 0) {
                lateOrders.add(new Object[] {o});
            }
        }
        // the probe keys are below 65,536: each of these orders is met by the probe rows whose
        // key is its own modulo 65,536, 1 of 8 of them, so every probe row meets one
        manyOrders = new ArrayList<>(8 * ORDERS);
        for (long o = 0; o < 8 * ORDERS; o++) {
            manyOrders.add(new Object[] {o % 8 == 0 ? o / 8 : ORDERS + o, o % 1500});
        }
        fewMatching = new ArrayList<>();
        for (long o = 0; o < 49_152; o++) { // every 15th order key below 65,536, the others above it
            fewMatching.add(new Object[] {o % 15 == 0 ? o / 15 * 20 : ORDERS + o, o % 1500});
        }
        partialGroups = new ArrayList<>();
        for (int from = 0; from < ROWS; from += 1024) {
            List<Object[]> chunk = new ArrayList<>(1024);
            for (int i = from; i < from + 1024; i++) { // key, then the sum's state: count, value, unused
                chunk.add(new Object[] {(long) i, 4L, BigDecimal.valueOf(90_000L + random.nextInt(10_000_000), 2), null});
            }
            PayloadWriter w = new PayloadWriter();
            ColumnarRows.write(w, chunk);
            partialGroups.add(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
        }
        ordersPerCustomer = new ArrayList<>(ROWS);
        for (int o = 0; o < ROWS; o++) {
            ordersPerCustomer.add(new Object[] {(long) random.nextInt(ORDERS / 4), (long) o});
        }
    }

    private static List<Batch> batchesOf(List<List<Object[]>> pages) {
        List<Batch> batches = new ArrayList<>();
        for (List<Object[]> page : pages) {
            Vector[] columns = new Vector[3];
            for (int c = 0; c < 3; c++) {
                columns[c] = StoredVectors.column(page, c, LINEITEM.columns().get(c).type());
            }
            batches.add(Batch.of(columns, page.size()));
        }
        return batches;
    }

    @Benchmark
    public long hashJoin() {
        return run(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(orders), JoinKind.INNER, List.of(0), List.of(0),
                null, 2)));
    }

    @Benchmark
    public long revenue() {
        Expr price = new Expr.Column(1, MONEY);
        Expr discount = new Expr.Column(2, MONEY);
        Expr one = new Expr.Literal(BigDecimal.ONE, SqlType.decimal(1, 0));
        Expr net = new Expr.Call(ScalarFunction.MULTIPLY, List.of(price,
                new Expr.Call(ScalarFunction.SUBTRACT, List.of(one, discount), SqlType.decimal(16, 2))),
                SqlType.decimal(32, 4));
        AggregateCall sum = new AggregateCall(AggregateCall.Kind.SUM, net, false, SqlType.decimal(38, 4));
        return run(List.of(new PipelineStep.PartialAggregate(List.of(), List.of(sum))));
    }

    @Benchmark
    public long semiJoin() {
        return run(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(lateOrders), JoinKind.SEMI, List.of(0), List.of(0),
                null, 1)));
    }

    @Benchmark
    public long bigBuildJoin() {
        return run(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(manyOrders), JoinKind.INNER, List.of(0), List.of(0),
                null, 2)));
    }

    @Benchmark
    public long selectiveJoin() {
        return run(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(fewMatching), JoinKind.INNER, List.of(0), List.of(0),
                null, 2)));
    }

    @Benchmark
    public long manyPerKey() {
        return run(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(ordersPerCustomer), JoinKind.INNER, List.of(0),
                List.of(0), null, 2)));
    }

    @Benchmark
    public long groupByKey() {
        AggregateCall sum = new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(1, MONEY), false, SqlType.decimal(38, 2));
        return run(List.of(new PipelineStep.PartialAggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(sum),
                PipelineStep.PartialAggregate.NEVER_SKIP)));
    }

    @Benchmark
    public long groupByOrder() {
        AggregateCall sum = new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(1, MONEY), false, SqlType.decimal(38, 2));
        return run(List.of(new PipelineStep.PartialAggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(sum),
                PipelineStep.PartialAggregate.NEVER_SKIP)), pagesByOrder, batchesByOrder);
    }

    @Benchmark
    public long mergeGroups() {
        AggregateCall sum = new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(1, MONEY), false, SqlType.decimal(38, 2));
        FinalAggregation merge = new FinalAggregation(1, List.of(sum));
        for (ColumnarRows.Chunk c : partialGroups) {
            ColumnarRows.Chunk arrived = ColumnarRows.Chunk.ofColumns(c.size(), c.columns()); // no rows made yet
            if (format.equals("rows")) {
                merge.acceptAll(arrived.rows());
            } else {
                merge.acceptChunk(arrived);
            }
        }
        long[] groups = {0};
        merge.finish(rows -> groups[0] += rows.size());
        return groups[0];
    }

    private long run(List<PipelineStep> steps) {
        return run(steps, pages, batches);
    }

    private long run(List<PipelineStep> steps, List<List<Object[]>> pages, List<Batch> batches) {
        BitSet all = new BitSet();
        all.set(0, 3);
        AtomicLong out = new AtomicLong();
        PartitionPipeline.run(name -> null, name -> source(pages, batches), (build, rows) -> { },
                new ScanPipeline("lineitem", 3, all, steps), new BatchSink() {
                    @Override
                    public void accept(List<Object[]> rows) {
                        out.addAndGet(rows.size());
                    }

                    @Override
                    public void acceptBatch(Batch batch, SqlType[] types) {
                        out.addAndGet(batch.size()); // as a shuffle takes them: not boxed into rows
                    }
                }, () -> false, QueryMemory.unbounded());
        return out.get();
    }

    private PartitionPipeline.RowSource source(List<List<Object[]>> pages, List<Batch> batches) {
        if (format.equals("rows")) {
            return new PartitionPipeline.RowSource() {
                @Override
                public Schema schema() {
                    return LINEITEM;
                }

                @Override
                public void forEachPage(Predicate<List<Object[]>> page) {
                    for (List<Object[]> p : pages) {
                        if (!page.test(p)) {
                            return;
                        }
                    }
                }
            };
        }
        return new PartitionPipeline.BatchSource() {
            @Override
            public Schema schema() {
                return LINEITEM;
            }

            @Override
            public void forEachPage(Predicate<List<Object[]>> page) {
                throw new UnsupportedOperationException("a source of batches");
            }

            @Override
            public void forEachBatch(boolean[] wanted, GroupFilter skip, Predicate<Batch> batch) {
                for (Batch b : batches) {
                    if (!batch.test(b)) {
                        return;
                    }
                }
            }
        };
    }
}
