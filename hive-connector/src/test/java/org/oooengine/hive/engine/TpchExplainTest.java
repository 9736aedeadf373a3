package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * EXPLAIN of the 22 TPC-H queries of docs/queries/tpch reads as SQL: columns by name (never by
 * position), literals as written (no scaled decimals, dates as dates), the query's output columns
 * named, and estimated rows from the tables the nodes hold. With joins broadcast and shuffled.
 */
class TpchExplainTest {
    /** A column by position, {@code #3}; broadcast and shuffle numbers ({@code broadcast #0}) are not columns. */
    private static final Pattern POSITION = Pattern.compile("(?<!(?:broadcast|Broadcast|shuffle|Shuffle|Shared) )#\\d+");

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-explain-test", 3);

    static Stream<Arguments> queries() {
        List<Arguments> out = new ArrayList<>();
        for (String broadcastMaxBytes : List.of("8388608", "0")) { // the default, then every join shuffled or co-located
            for (int i = 1; i <= 22; i++) {
                out.add(Arguments.of(String.format(Locale.ROOT, "q%02d", i), broadcastMaxBytes));
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void explainNamesColumnsAndWritesLiteralsAsSql(String q, String broadcastMaxBytes) throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
        String plan = explain(Map.of("ooo.join.broadcast-max-bytes", broadcastMaxBytes), sql);
        Matcher position = POSITION.matcher(plan.replaceAll("'(?:[^'\\n]|'')*'", "''")); // not 'Brand#45', a literal on one line
        assertFalse(position.find(), () -> q + " names a column by position: " + position.group() + "\n" + plan);
        for (String column : outputColumns(sql)) {
            assertTrue(Pattern.compile("\\b" + column + "\\b").matcher(plan).find(), q + " names no " + column + "\n" + plan);
        }
        assertTrue(plan.contains("rows)"), q + " estimates rows\n" + plan);
        switch (q) {
            case "q01" -> assertTrue(plan.contains("l_shipdate <= DATE '1998-09-02'"), plan); // 1998-12-01 - 90 days
            case "q03" -> assertTrue(plan.contains("revenue := sum(l_extendedprice * (1 - l_discount))")
                    && plan.contains("c_mktsegment = 'BUILDING'") && plan.contains("o_orderdate < DATE '1995-03-15'"), plan);
            case "q06" -> assertTrue(plan.contains("l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24"), plan);
            // the quarter's orders meet their returned lines where both are, and each node sums them per customer
            // before they meet customer and nation (FactsJoinedLast)
            case "q10" -> assertTrue(Pattern.compile("\\[each node\\] (Partial)?Aggregate keys \\[o_custkey\\] aggs "
                    + "\\[(partial sum\\(l_extendedprice \\* \\(1 - l_discount\\)\\) := )?sum\\(l_extendedprice").matcher(plan).find(), plan);
            // each customer's orders counted on the node that holds them, before they meet customer (EagerAggregation)
            case "q13" -> assertTrue(plan.contains("c_count := coalesce(sum(partial count(o_orderkey)), 0)")
                    && Pattern.compile("\\[each node\\] (Partial)?Aggregate keys \\[o_custkey\\]").matcher(plan).find(), plan);
            // with the supplier's nation sent to every node, the late lines' pipeline runs once on each, as the
            // kept rows, not again to reduce l2 and l3 (SemiJoinReduction.unreduced)
            case "q21" -> assertTrue(broadcastMaxBytes.equals("0")
                    || Pattern.compile("Scan \\S*lineitem").matcher(plan).results().count() == 3, plan);
            case "q22" -> assertTrue(plan.contains("c_acctbal > 0.00"), plan);
            default -> {
            }
        }
    }

    /** The range of an index join is kept as the nodes store it: a decimal range shows as decimals, not scaled. */
    @Test
    void anIndexJoinShowsItsRangeAsWritten() throws Exception {
        String sql = "SELECT c_custkey, o_orderkey, l_quantity FROM customer JOIN orders ON c_custkey = o_custkey "
                + "JOIN lineitem ON o_orderkey = l_orderkey WHERE c_acctbal BETWEEN 1000 AND 1010";
        String plan = explain(Map.of("ooo.join.method", "index"), sql);
        assertTrue(plan.contains("customer WHERE c_acctbal BETWEEN 1000.00 AND 1010.00"), plan);
        assertFalse(plan.contains("100000"), plan);
        assertTrue(plan.contains("[each node] Filter c_acctbal BETWEEN 1000 AND 1010"), plan);
    }

    /**
     * EXPLAIN ANALYZE names how an index join looked its keys up: probes answered where the probing
     * row lives, requests to other nodes and their frames, pages read; its rows are those hash joins make.
     */
    @Test
    void explainAnalyzeOfAnIndexJoinNamesItsKeyLookups() throws Exception {
        String sql = "SELECT c_custkey, o_orderkey, l_quantity FROM customer JOIN orders ON c_custkey = o_custkey "
                + "JOIN lineitem ON o_orderkey = l_orderkey WHERE c_acctbal BETWEEN 1000 AND 2000";
        String plan = explain(Map.of("ooo.join.method", "index"), "ANALYZE " + sql);
        // the index join and the steps after it run on the nodes as one pipeline, shown as its gather
        Matcher m = Pattern.compile("\\[actual rows ([\\d,]+), [\\d.]+ s; key lookups: ([\\d,]+) on the probing row's node, "
                + "([\\d,]+) requests to other nodes in ([\\d,]+) frames, ([\\d,]+) pages read\\]").matcher(plan);
        assertTrue(m.find(), plan);
        long hashed;
        try (SqlSession s = cluster.session(Map.of("ooo.join.method", "hash"))) {
            hashed = ((Number) s.execute("SELECT count(*) FROM (" + sql + ") t", new Cancellation()).rows().next()[0])
                    .longValue();
        }
        assertEquals(hashed, count(m.group(1)), "the rows hash joins make: " + plan);
        assertTrue(count(m.group(2)) + count(m.group(3)) > 0, "the keys were looked up: " + plan);
        assertTrue(count(m.group(4)) <= count(m.group(3)), "requests travel several to a frame: " + plan);
    }

    private static long count(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    /** Strings with quotes, NOT IN, NOT LIKE, IS NOT NULL, CASE and CAST read as they are written. */
    @Test
    void expressionsReadAsSql() throws Exception {
        String plan = explain(Map.of(), "SELECT n_name, CAST(n_nationkey AS DOUBLE) AS k, "
                + "CASE WHEN n_name = 'O''Brien' THEN 'x' ELSE 'y' END AS c FROM nation "
                + "WHERE n_name NOT IN ('A', 'B') AND n_comment NOT LIKE '%a%' AND n_regionkey IS NOT NULL");
        assertTrue(plan.contains("Project [n_name, k := CAST(n_nationkey AS DOUBLE), "
                + "c := CASE WHEN n_name = 'O''Brien' THEN 'x' ELSE 'y' END]"), plan);
        assertTrue(plan.contains("Filter n_name NOT IN ('A', 'B') AND n_comment NOT LIKE '%a%' AND n_regionkey IS NOT NULL"),
                plan);
    }

    /** The names of the outermost SELECT's columns that the query gives with AS. */
    private static List<String> outputColumns(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        int select = lower.indexOf("select");
        String list = lower.substring(select, lower.indexOf("from", select));
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("\\bas\\s+(\\w+)").matcher(list);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String explain(Map<String, String> settings, String sql) throws Exception {
        try (SqlSession s = cluster.session(settings)) {
            List<Object[]> rows = new ArrayList<>();
            s.execute("EXPLAIN " + sql, new Cancellation()).rows().forEachRemaining(rows::add);
            return String.join("\n", rows.stream().map(r -> (String) r[0]).toList());
        }
    }
}
