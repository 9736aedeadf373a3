package org.oooengine.optimizer.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.stats.ColumnStatistics;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.stats.TableStatistics;

/**
 * Statistics against DuckDB over the same rows: collected at load on a single store and on each
 * node of a three-node cluster, merged per table. Counts and extremes are exact, distinct values
 * within HyperLogLog's error, histograms equi-depth.
 */
class StatisticsTest {
    private static TpchCluster tpch;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-stats-test", 3, 0.01, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM,
                TpchTable.CUSTOMER));
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource({"orders, o_orderkey", "orders, o_custkey", "orders, o_totalprice", "orders, o_orderdate",
        "orders, o_orderpriority", "lineitem, l_partkey", "lineitem, l_quantity", "lineitem, l_shipmode",
        "customer, c_acctbal", "customer, c_mktsegment"})
    void singleStoreAndClusterAgreeWithTheOracle(String table, String column) throws Exception {
        String[] exact = tpch.oracle.query("SELECT count(*), count(" + column + "), count(DISTINCT " + column
                + "), min(" + column + "), max(" + column + ") FROM " + table).get(0).split("\\|");
        long rows = Long.parseLong(exact[0]);
        long nulls = rows - Long.parseLong(exact[1]);
        double distinct = Double.parseDouble(exact[2]);

        TableStatistics single = StoreStatistics.read(tpch.single.dir()).orElseThrow().table(table);
        TableStatistics merged = ClusterStatistics.collect(tpch.session, false).get(table);
        for (TableStatistics t : List.of(single, merged)) {
            ColumnStatistics c = t.column(column);
            assertEquals(rows, t.rows());
            assertEquals(nulls, c.nulls());
            assertEquals(exact[3], c.min(), column + " min");
            assertEquals(exact[4], c.max(), column + " max");
            assertTrue(Math.abs(c.distinctValues() - distinct) <= 0.05 * distinct,
                    column + ": " + c.distinctValues() + " distinct estimated, " + distinct + " exact");
        }
        assertTrue(merged.bytes() >= single.bytes() / 2, "partition bytes add up: " + merged.bytes());
    }

    @Test
    void histogramsOfIndexedColumnsAreEquiDepth() {
        TableStatistics single = StoreStatistics.read(tpch.single.dir()).orElseThrow().table("orders");
        TableStatistics merged = ClusterStatistics.collect(tpch.session, false).get("orders");
        assertTrue(single.column("o_comment").histogram().isEmpty(), "no index, no histogram");
        for (TableStatistics t : List.of(single, merged)) {
            List<ColumnStatistics.Bucket> h = t.column("o_totalprice").histogram();
            // a bucket ends after the last copy of its bound: a few prices repeat, a few buckets merge
            assertTrue(h.size() <= StatisticsCollector.DEFAULT_BUCKETS && h.size() >= 0.9 * StatisticsCollector.DEFAULT_BUCKETS,
                    h.size() + " buckets");
            assertEquals(t.rows(), h.stream().mapToLong(ColumnStatistics.Bucket::rows).sum());
            assertEquals(t.column("o_totalprice").max(), h.get(h.size() - 1).upper());
            double depth = (double) t.rows() / StatisticsCollector.DEFAULT_BUCKETS;
            // one row off on one store, plus the copies of a repeated bound; merged from three,
            // each bound may be off by a partition bucket
            double slack = t == single ? 2 : 2 * depth + 2;
            for (ColumnStatistics.Bucket b : h) {
                assertTrue(Math.abs(b.rows() - depth) <= slack, "bucket " + b + " of depth " + depth);
            }
            for (int i = 1; i < h.size(); i++) {
                assertTrue(Double.parseDouble(h.get(i - 1).upper()) < Double.parseDouble(h.get(i).upper()), h::toString);
            }
        }
    }

    /**
     * A string column's sample: values of the column, as many as the sample holds, and as often
     * as the column holds them within sampling error (a fifth of orders are '1-URGENT'); none of a
     * number column.
     */
    @Test
    void stringColumnsKeepASampleOfTheirValues() throws Exception {
        TableStatistics single = StoreStatistics.read(tpch.single.dir()).orElseThrow().table("orders");
        TableStatistics merged = ClusterStatistics.collect(tpch.session, false).get("orders");
        double urgent = Double.parseDouble(tpch.oracle.query(
                "SELECT avg(CASE WHEN o_orderpriority = '1-URGENT' THEN 1.0 ELSE 0 END) FROM orders").get(0));
        java.util.Set<String> priorities = java.util.Set.copyOf(tpch.oracle.query("SELECT DISTINCT o_orderpriority FROM orders"));
        for (TableStatistics t : List.of(single, merged)) {
            List<String> sample = t.column("o_orderpriority").sample();
            assertTrue(Math.abs(sample.size() - org.oooengine.core.stats.ValueSample.SIZE) <= 2, "sample of " + sample.size());
            assertTrue(priorities.containsAll(sample), sample::toString);
            double share = sample.stream().filter("1-URGENT"::equals).count() / (double) sample.size();
            assertTrue(Math.abs(share - urgent) < 0.1, share + " of the sample urgent, " + urgent + " of the rows");
            assertTrue(t.column("o_totalprice").sample().isEmpty(), "a number column has no sample");
        }
    }

    @Test
    void analyzeCollectsTheSameStatisticsAnew() {
        Map<String, StoreStatistics> before = tpch.session.statistics(false);
        Map<String, StoreStatistics> after = tpch.session.statistics(true);
        before.forEach((node, s) -> assertTrue(after.get(node).collectedAt().compareTo(s.collectedAt()) > 0,
                node + " kept its statistics of " + s.collectedAt() + " instead of collecting them anew"));
        Map<String, TableStatistics> kept = ClusterStatistics.collect(tpch.session, false);
        Map<String, TableStatistics> fresh = ClusterStatistics.collect(tpch.session, true);
        assertEquals(kept.keySet(), fresh.keySet());
        kept.forEach((table, k) -> {
            TableStatistics f = fresh.get(table);
            assertEquals(k.rows(), f.rows(), table);
            assertEquals(k.columns().stream().map(ColumnStatistics::max).toList(),
                    f.columns().stream().map(ColumnStatistics::max).toList(), table);
        });
    }
}
