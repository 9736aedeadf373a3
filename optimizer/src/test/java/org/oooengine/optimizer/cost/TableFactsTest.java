package org.oooengine.optimizer.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.dynatrace.hash4j.distinctcount.HyperLogLog;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.stats.ColumnStatistics;
import org.oooengine.core.stats.EquiDepthHistogram;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.types.DataType;
import org.oooengine.optimizer.stats.TableStatisticsMerger;

/**
 * Range estimates read off the merged statistics of TPC-H's part table at SF 1, four partitions,
 * built as the nodes build them from p_retailprice as dbgen draws it: each dollar's 200 parts lie
 * within 20 cents of it, ten to a price, so a range a few hundred parts wide sees clumps and gaps.
 */
class TableFactsTest {
    private static final DataType PRICE = DataType.parse("DECIMAL(15,2)");
    private static final int PARTS = 200_000;
    private static final int PARTITIONS = 4;

    private static Comparable<Object>[] prices;
    private static TableFacts part;

    /** p_retailprice in cents, as dbgen computes it from the part key. */
    static long priceCents(long partkey) {
        return 90_000 + (partkey / 10) % 20_001 + 100 * (partkey % 1_000);
    }

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void build() {
        List<TableStatistics> partitions = new ArrayList<>();
        List<Long> all = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            List<Long> values = new ArrayList<>();
            for (long key = p + 1; key <= PARTS; key += PARTITIONS) {
                values.add(priceCents(key));
            }
            values.sort(null);
            all.addAll(values);
            partitions.add(new TableStatistics("part", values.size(), 0, List.of(statistics(values)), Map.of()));
        }
        all.sort(null);
        prices = all.toArray(new Comparable[0]);
        TableStatistics merged = TableStatisticsMerger.merge(partitions, List.of(PRICE), StatisticsCollector.DEFAULT_BUCKETS);
        StoreManifest.TableMeta meta = new StoreManifest.TableMeta("part",
                List.of(new StoreManifest.ColumnMeta("p_partkey", "BIGINT"),
                        new StoreManifest.ColumnMeta("p_retailprice", PRICE.toString())),
                List.of("p_partkey"), PARTS, 0, "part.tree",
                List.of(new StoreManifest.IndexMeta("part_price", List.of("p_retailprice"), PARTS, "part_price.tree",
                        IndexScope.LOCAL)), null, Map.of());
        part = new TableFacts(meta, merged, 8192);
    }

    /** A partition's column statistics from its values in ascending order, as a node collects them. */
    private static ColumnStatistics statistics(List<Long> sorted) {
        EquiDepthHistogram histogram = new EquiDepthHistogram(sorted.size(), StatisticsCollector.DEFAULT_BUCKETS, PRICE);
        HyperLogLog sketch = HyperLogLog.create(12);
        for (Long v : sorted) {
            histogram.add(v);
            sketch.add(Hashing.komihash5_0().hashLongToLong(v));
        }
        return new ColumnStatistics("p_retailprice", 0, PRICE.format(sorted.get(0)),
                PRICE.format(sorted.get(sorted.size() - 1)), Base64.getEncoder().encodeToString(sketch.getState()),
                histogram.buckets(), List.of());
    }

    /**
     * The ranges {@code ooo bench sweep} runs PL and Q8' over, centred on the median price: a
     * 128-bucket histogram estimated 0.1% at 84 of its 200 parts and 0.01% at 13 of 20.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(doubles = {0.1, 0.01, 0.001, 0.0001})
    void theSweepsRangesAreEstimatedWithinAQuarterOfTheirRows(double selectivity) {
        JoinQueries.Query q = JoinQueries.build(JoinQueries.PL, selectivity, prices);
        ColumnRange range = q.spec().outerRange();
        double ratio = part.rangeRows(range) / (double) q.outerRows();
        assertTrue(ratio >= 0.75 && ratio <= 1.25, range.describe(PRICE) + ": " + part.rangeRows(range)
                + " estimated, " + q.outerRows() + " selected");
    }

    /** A range of one price holds that price's rows, not the nothing a span of width zero interpolates to. */
    @Test
    void aRangeOfOneValueHoldsOneValuesRows() {
        Long price = priceCents(100_000);
        long estimated = part.rangeRows(new ColumnRange("p_retailprice", price, price));
        assertTrue(estimated >= 7 && estimated <= 13, estimated + " parts estimated at one price, 10 there");
    }

    @Test
    void aRangeOutsideTheValuesHoldsAboutNothing() {
        assertEquals(1, part.rangeRows(new ColumnRange("p_retailprice", 10L, 20L)));
        assertEquals(PARTS, part.rangeRows(new ColumnRange("p_retailprice", 0L, Long.MAX_VALUE)));
    }
}
