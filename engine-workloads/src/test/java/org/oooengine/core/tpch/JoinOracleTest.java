package org.oooengine.core.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.exec.CollectingSink;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.IndexRangeScan;
import org.oooengine.core.exec.Project;
import org.oooengine.core.ooo.TaskScheduler;
import org.oooengine.core.store.Table;
import org.oooengine.core.exec.ExecutionStats;
import org.oooengine.core.exec.HashJoin;
import org.oooengine.core.exec.IndexNestedLoopJoin;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.types.DataType;

/**
 * OL and PL at several selectivities: out-of-order, in-order and hash join return exactly DuckDB's
 * rows on the same generated data, and the out-of-order run stays within its in-flight budget.
 */
class JoinOracleTest {
    private static final double SF = 0.01;
    private static final int BUDGET = 48;
    private static Path dir;
    private static Store store;
    private static DuckDbOracle oracle;

    @BeforeAll
    static void load() throws Exception {
        dir = Files.createTempDirectory("ooo-join-test");
        StoreManifest m = new TpchLoader(SF, 4096, 1.0).load(dir.resolve("store"), false, (t, d, e) -> { });
        assertEquals(60_175, m.table("lineitem").rows());
        // A small buffer pool so that probes really miss and go to the I/O threads.
        store = Store.open(dir.resolve("store"), StoreOptions.defaults().withBufferPoolBytes(256 << 10).withIoThreads(BUDGET));
        oracle = new DuckDbOracle(SF, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.PART));
    }

    @AfterAll
    static void close() throws Exception {
        if (store != null) {
            store.close();
        }
        if (oracle != null) {
            oracle.close();
        }
        Directories.deleteRecursively(dir);
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String q : List.of("OL", "PL")) {
            for (double s : List.of(0.2, 0.01, 0.001)) {
                out.add(Arguments.of(q, s));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} at {1}")
    @MethodSource("cases")
    void everyStrategyReturnsTheOraclesRows(String query, double selectivity) throws Exception {
        JoinQueries.Query q = JoinQueries.byName(store, query, selectivity);
        JoinSpec spec = q.spec();
        assertTrue(q.outerRows() >= Math.round(selectivity * q.outerTotal()), "range selects too few outer rows");
        assertTrue(q.actualSelectivity() < selectivity * 1.5 + 5.0 / q.outerTotal(), "range selects too many outer rows");

        List<String> expected = oracle.query(sql(spec));
        assertFalse(expected.isEmpty());

        store.bufferPool().clear();
        CollectingSink ooo = new CollectingSink();
        ExecutionStats oooStats = new IndexNestedLoopJoin(store, spec).run(BUDGET, ooo);
        assertEquals(expected, render(spec, ooo.rows()), "out-of-order");
        assertTrue(oooStats.maxTasksInflight() <= BUDGET, "tasks in flight exceeded the budget");
        assertTrue(oooStats.maxIoInflight() <= BUDGET, "I/Os in flight exceeded the budget");

        store.bufferPool().clear();
        CollectingSink inOrder = new CollectingSink();
        ExecutionStats inOrderStats = new IndexNestedLoopJoin(store, spec).run(1, inOrder);
        assertEquals(expected, render(spec, inOrder.rows()), "in-order");
        assertEquals(1, inOrderStats.maxTasksInflight());
        assertTrue(inOrderStats.maxIoInflight() <= 1);

        try (Store synchronous = Store.open(dir.resolve("store"), StoreOptions.defaults().withIoThreads(0)
                .withBufferPoolBytes(256 << 10))) {
            CollectingSink sync = new CollectingSink();
            ExecutionStats syncStats = new IndexNestedLoopJoin(synchronous, spec).run(1, sync);
            assertEquals(expected, render(spec, sync.rows()), "in-order with synchronous reads");
            assertTrue(syncStats.maxIoInflight() <= 1);
        }

        CollectingSink hash = new CollectingSink();
        new HashJoin(store, spec).run(hash);
        assertEquals(expected, render(spec, hash.rows()), "hash join");

        if (expected.size() > 1000) {
            assertTrue(oooStats.maxTasksInflight() > 4, "out-of-order run had only " + oooStats.maxTasksInflight()
                    + " tasks in flight; " + oooStats);
        }
    }

    /** Index range scan with a residual predicate, then projection, out of order and in order. */
    @ParameterizedTest(name = "budget {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, BUDGET})
    void indexRangeScanWithResidualAndProjection(int budget) throws Exception {
        Table orders = store.table("orders");
        ColumnRange range = JoinQueries.ol(store, 0.05).spec().outerRange();
        int status = orders.schema().indexOf("o_orderstatus");
        int[] out = orders.schema().indexesOf(List.of("o_orderkey", "o_orderstatus", "o_totalprice", "o_clerk"));
        IndexRangeScan scan = new IndexRangeScan(orders, range, out, row -> "F".equals(row[status]));
        assertTrue(scan.fetchesRows(), "o_clerk is not in the index, so rows are fetched");
        CollectingSink sink = new CollectingSink();
        Project project = new Project(out, sink);
        TaskScheduler scheduler = new TaskScheduler(budget, store.computeExecutor());
        scan.start(scheduler, IndexRangeScan.toConsumer(project::accept));
        scheduler.start().join();
        assertTrue(scheduler.maxInflight() <= budget);

        List<String> expected = oracle.query("SELECT o_orderkey, o_orderstatus, o_totalprice, o_clerk FROM orders WHERE "
                + range.describe(orders.schema().type(orders.schema().indexOf("o_totalprice"))) + " AND o_orderstatus = 'F'");
        assertFalse(expected.isEmpty());
        List<DataType> types = new ArrayList<>();
        for (int c : out) {
            types.add(orders.schema().type(c));
        }
        assertEquals(expected, OracleRows.render(types, sink.rows()));
    }

    private static String sql(JoinSpec spec) {
        return OracleRows.sql(store, spec);
    }

    private static List<String> render(JoinSpec spec, List<Object[]> rows) {
        return OracleRows.render(store, spec, rows);
    }
}
