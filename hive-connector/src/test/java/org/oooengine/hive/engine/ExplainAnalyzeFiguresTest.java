package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.units.Sizes;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * EXPLAIN ANALYZE reports what operators held and spilled, on the coordinator and on each node,
 * and the bytes the nodes sent: a query run with little memory shows what it spilled, one with
 * room shows nothing spilled, and the rows it reports are DuckDB's.
 */
class ExplainAnalyzeFiguresTest {
    /** The figures of a pipeline of the nodes, as EXPLAIN ANALYZE prints them. */
    private static final Pattern NODES = Pattern.compile("\\[actual rows ([\\d,]+), [\\d.]+ s; nodes read ([\\d,]+) rows, "
            + "slowest n\\d [\\d.]+ s, peak memory ([\\d.]+ \\w+), spilled ([\\d.]+ \\w+)(?: \\(([\\d,]+) rows\\))?, "
            + "sent ([\\d.]+ \\w+)\\]");
    /** An operator's figures on the coordinator: rows, time, peak memory and spill. */
    private static final Pattern HELD = Pattern.compile("\\[actual rows ([\\d,]+), [\\d.]+ s, peak memory ([\\d.]+ \\w+), "
            + "spilled ([\\d.]+ \\w+)\\]");
    private static final String GROUPS = "SELECT l_orderkey, sum(l_extendedprice), max(l_comment) FROM lineitem GROUP BY l_orderkey";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-explain-figures-test", 2,
            TpchTable.LINE_ITEM, TpchTable.NATION);

    private static List<String> analyzed(String sql, Map<String, String> settings) {
        List<String> lines = new ArrayList<>();
        try (SqlSession s = cluster.session(settings)) {
            s.execute("EXPLAIN ANALYZE " + sql, new Cancellation()).rows().forEachRemaining(r -> lines.add((String) r[0]));
        }
        return lines;
    }

    private static long bytes(String readable) {
        return Sizes.parse(readable, Sizes.BYTE);
    }

    private static long count(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    @Test
    void nodesThatRunOutOfMemorySpillAndSaySo() throws Exception {
        // each node holds the groups of its share of lineitem's orders: 300,000 bytes do not hold them
        List<String> plan = analyzed(GROUPS, Map.of("ooo.query.max-memory-per-node", "300000"));
        Matcher m = plan.stream().map(NODES::matcher).filter(Matcher::find).findFirst().orElseThrow(
                () -> new AssertionError(String.join("\n", plan)));
        assertEquals(cluster.oracle().rows(GROUPS).size(), count(m.group(1)), String.join("\n", plan));
        assertEquals(((Number) cluster.oracle().rows("SELECT count(*) FROM lineitem").get(0)[0]).longValue(), count(m.group(2)));
        assertTrue(bytes(m.group(3)) > 0, "a peak memory: " + m.group());
        assertTrue(bytes(m.group(4)) > 0 && count(m.group(5)) > 0, "bytes and rows spilled: " + m.group());
        assertTrue(bytes(m.group(6)) > 0, "the rows sent to the coordinator: " + m.group());
    }

    @Test
    void theCoordinatorSaysWhatItsAggregationHeldAndSpilled() throws Exception {
        String sql = "SELECT l_suppkey, l_partkey, count(*), sum(l_quantity) FROM lineitem GROUP BY l_suppkey, l_partkey";
        List<String> plan = analyzed(sql, Map.of("ooo.query.max-memory", "1000000", "ooo.aggregate.merge-on-nodes", "false"));
        String merged = plan.stream().filter(l -> l.stripLeading().startsWith("FinalAggregate")).findFirst()
                .orElseThrow(() -> new AssertionError(String.join("\n", plan)));
        Matcher m = HELD.matcher(merged);
        assertTrue(m.find(), merged);
        assertEquals(cluster.oracle().rows(sql).size(), count(m.group(1)), merged);
        assertTrue(bytes(m.group(2)) > 0, merged);
        assertTrue(bytes(m.group(3)) > 0, "it spilled on the coordinator: " + merged);
    }

    @Test
    void aQueryWithRoomSpillsNothing() throws Exception {
        String sql = "SELECT n_regionkey, count(*) FROM nation GROUP BY n_regionkey ORDER BY n_regionkey";
        List<String> plan = analyzed(sql, Map.of());
        String text = String.join("\n", plan);
        Matcher sort = HELD.matcher(plan.get(0));
        assertTrue(plan.get(0).startsWith("Sort") && sort.find(), text);
        assertEquals(cluster.oracle().rows(sql).size(), count(sort.group(1)), text);
        assertEquals(0, bytes(sort.group(3)), text);
        Matcher nodes = NODES.matcher(text);
        assertTrue(nodes.find(), text);
        assertEquals(25, count(nodes.group(2)), text);
        assertEquals(0, bytes(nodes.group(4)), text);
        assertNull(nodes.group(5), "no rows spilled: " + text);
        assertFalse(Pattern.compile("spilled [1-9]").matcher(text).find(), text);
    }
}
