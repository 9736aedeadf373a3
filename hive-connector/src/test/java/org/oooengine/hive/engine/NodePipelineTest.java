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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * Where the work of a query runs: filters, projections and partial aggregates on the nodes, so
 * that only the rows that survive (or only groups) reach the coordinator. Each query's answer is
 * checked against DuckDB; EXPLAIN shows the pipeline each node runs, EXPLAIN ANALYZE how few rows
 * were gathered.
 */
class NodePipelineTest {
    private static final int NODES = 3;
    private static SqlSession session;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-pipeline-test", NODES,
            TpchTable.LINE_ITEM, TpchTable.ORDERS, TpchTable.NATION);

    @BeforeAll
    static void start() throws Exception {
        session = cluster.session();
    }

    @Test
    void aGroupByIsAggregatedOnTheNodesAndOnlyGroupsAreGathered() throws Exception {
        String sql = "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice * (1 - l_discount)) AS revenue, "
                + "avg(l_discount) AS avg_disc, count(*) AS n, min(l_shipdate) AS first_ship, max(l_tax) AS max_tax "
                + "FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus";
        assertMatchesDuckDb(sql);
        // each group's partial rows go to the node its key hashes to, which merges them: four rows come back
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("\n  FinalAggregate keys [l_returnflag, l_linestatus] aggs [sum(l_quantity), "
                + "sum(l_extendedprice * (1 - l_discount)), avg(l_discount), count(*), min(l_shipdate), max(l_tax)] "
                + "on the nodes, each group where its key hashes  (est. "), plan);
        assertTrue(plan.contains("\n    Shuffle partial aggregates by [l_returnflag, l_linestatus] to the nodes that merge them"),
                plan);
        assertTrue(plan.contains("[each node] Filter l_shipdate <= DATE '1998-09-02'"), plan);
        assertTrue(plan.contains("[each node] PartialAggregate keys"), plan);
        assertTrue(plan.contains("[each node] Filter"), plan);
        assertTrue(plan.contains("[each node] Scan default.lineitem"), plan);
        String analyzed = explain("EXPLAIN ANALYZE " + sql);
        assertTrue(Pattern.compile("to the nodes that merge them[^\n]*\\[actual rows 4,").matcher(analyzed).find(), analyzed);
        // the setting takes true or false, nothing else
        SqlException bad = org.junit.jupiter.api.Assertions.assertThrows(SqlException.class,
                () -> session.execute("SET ooo.aggregate.merge-on-nodes=maybe", new Cancellation()));
        assertTrue(bad.getMessage().contains("ooo.aggregate.merge-on-nodes is 'maybe'; expected true or false"), bad.getMessage());
        // merged on the coordinator instead: four groups from each node, twelve rows gathered out of sixty thousand scanned
        try (SqlSession s = cluster.session(Map.of("ooo.aggregate.merge-on-nodes", "false"))) {
            List<Object[]> ours = new ArrayList<>();
            s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), false), sql);
            List<Object[]> lines = new ArrayList<>();
            s.execute("EXPLAIN ANALYZE " + sql, new Cancellation()).rows().forEachRemaining(lines::add);
            String coordinator = lines.stream().map(r -> (String) r[0]).reduce("", (a, b) -> a + b + "\n");
            Matcher m = Pattern.compile("\n    Gather partial aggregates keys \\[l_returnflag, l_linestatus\\][^\n]*\\[actual rows ([\\d,]+),").matcher(coordinator);
            assertTrue(m.find(), coordinator);
            assertTrue(Long.parseLong(m.group(1).replace(",", "")) <= 4 * NODES, coordinator);
        }
    }

    @Test
    void anAggregateWithoutGroupsGathersOneRowPerNode() throws Exception {
        String sql = "SELECT sum(l_extendedprice * l_discount) AS revenue, count(*) FROM lineitem "
                + "WHERE l_shipdate >= DATE '1994-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24";
        assertMatchesDuckDb(sql);
        assertEquals(NODES, gathered("EXPLAIN ANALYZE " + sql));
        // no row qualifies anywhere: still one row, a null sum and a zero count
        assertMatchesDuckDb("SELECT sum(l_quantity), count(*), avg(l_tax) FROM lineitem WHERE l_quantity < 0");
    }

    /**
     * A GROUP BY over a UNION ALL of work the nodes do alone (through nested unions and the
     * projections between), and INTERSECT and EXCEPT, which are such GROUP BYs: every branch's
     * pipeline ends in the partial aggregate, so the coordinator gathers groups, not rows.
     */
    @Test
    void aGroupByOverAUnionAllIsAggregatedOnTheNodesOfEveryBranch() throws Exception {
        String avg = "SELECT avg(x), count(*), sum(x) FROM (SELECT l_quantity * 2 x FROM lineitem WHERE l_shipdate < DATE '1995-01-01' "
                + "UNION ALL SELECT o_totalprice x FROM orders UNION ALL SELECT l_quantity x FROM lineitem WHERE l_tax > 0.05) u";
        assertMatchesDuckDb(avg);
        assertEquals(3 * NODES, gatheredInAll("EXPLAIN ANALYZE " + avg));
        String grouped = "SELECT k, count(*), max(v) FROM (SELECT l_linenumber k, l_quantity v FROM lineitem "
                + "UNION ALL SELECT o_shippriority + 1 k, o_totalprice v FROM orders) u GROUP BY k";
        assertMatchesDuckDb(grouped);
        assertTrue(gatheredInAll("EXPLAIN ANALYZE " + grouped) <= 2 * 7 * NODES);
        String intersect = "SELECT l_suppkey FROM lineitem WHERE l_shipmode = 'AIR' "
                + "INTERSECT SELECT l_suppkey FROM lineitem WHERE l_shipmode = 'RAIL'";
        assertMatchesDuckDb(intersect);
        assertTrue(explain("EXPLAIN " + intersect).contains("Gather partial aggregates keys [l_suppkey]"));
        assertMatchesDuckDb("SELECT o_custkey FROM orders EXCEPT SELECT l_suppkey FROM lineitem WHERE l_quantity > 45");
        // an empty branch or all: one row still, a zero count
        assertMatchesDuckDb("SELECT count(*), sum(x) FROM (SELECT l_quantity x FROM lineitem WHERE l_quantity < 0 "
                + "UNION ALL SELECT o_totalprice x FROM orders WHERE o_totalprice < 0) u");
    }

    /**
     * A GROUP BY over a join whose aggregates read lineitem alone groups lineitem by its join key
     * first (and by the keys it holds), then joins and merges: sums, extremes and counts (summed)
     * as DuckDB gives them, also where the other side repeats a key (orders per customer).
     */
    @Test
    void aGroupByOverAJoinGroupsTheFactsByTheirJoinKeyFirst() throws Exception {
        try (SqlSession noBroadcast = cluster.session()) {
            // orders would otherwise be sent to every node and joined where lineitem is
            noBroadcast.execute("SET ooo.join.broadcast-max-bytes=0", new Cancellation());
            groupsTheFactsFirst(noBroadcast);
        }
    }

    private static void groupsTheFactsFirst(SqlSession session) throws Exception {
        String perPriority = "SELECT o_orderpriority, l_orderkey % 3 m, count(*), sum(l_quantity), min(l_discount), "
                + "max(l_shipdate), count(l_comment) FROM orders JOIN lineitem ON o_orderkey = l_orderkey "
                + "GROUP BY o_orderpriority, l_orderkey % 3";
        assertMatchesDuckDb(session, perPriority);
        String plan = explain(session, "EXPLAIN " + perPriority);
        assertTrue(plan.contains("Aggregate keys [l_orderkey] aggs [count(*), sum(l_quantity), min(l_discount), "
                + "max(l_shipdate), count(l_comment)]") && plan.contains("aggs [sum(count(*)), sum(sum(l_quantity))"), plan);
        assertMatchesDuckDb(session, "SELECT o_orderpriority, count(*), sum(l_extendedprice), max(l_tax) FROM lineitem JOIN orders "
                + "ON l_suppkey = o_custkey GROUP BY o_orderpriority");
        // the join on the coordinator, in a scalar subquery whose row is sent to the nodes: the table it
        // scans there reads the columns the join needs (TPC-DS Q23's max_store_sales)
        String inBroadcast = "SELECT count(*) FROM orders WHERE o_totalprice > 0 * (SELECT max(t) FROM (SELECT o_orderpriority, "
                + "sum(l_extendedprice) t FROM lineitem JOIN orders ON l_suppkey = o_custkey GROUP BY o_orderpriority) x)";
        assertMatchesDuckDb(session, inBroadcast);
        assertTrue(explain(session, "EXPLAIN " + inBroadcast).contains("Broadcast #0 to every node"), explain(session, "EXPLAIN " + inBroadcast));
    }

    /**
     * Distinct values counted per group (TPC-H Q16's suppliers per kind of part) are made distinct
     * per group and counted on the nodes: the partial groups of the values go by the group's keys
     * alone where they have groups enough, else (four here) by all the keys, each node counting its
     * share. NULLs counted by none; the answer is DuckDB's.
     */
    @Test
    void distinctValuesPerGroupAreCountedOnTheNodes() throws Exception {
        String sql = "SELECT l_returnflag, l_linestatus, count(DISTINCT CASE WHEN l_suppkey % 5 = 0 THEN NULL ELSE l_suppkey END) s "
                + "FROM lineitem WHERE l_quantity < 40 GROUP BY l_returnflag, l_linestatus";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        // four groups: the distinct values spread over every node by all the keys, each node counting its share
        assertTrue(plan.contains("[each node] PartialAggregate keys [l_returnflag, l_linestatus] aggs [count(")
                && plan.contains("Shuffle rows by [l_returnflag, l_linestatus, CASE"), plan);
        assertTrue(gathered("EXPLAIN ANALYZE " + sql) <= 4L * NODES, "a partial row per group and node");
    }

    /**
     * A DISTINCT over a join (TPC-DS Q38's customers and days of a year's sales) has each node drop
     * the repeats of what the join and the DISTINCT read before the join, or before its rows are
     * shuffled to meet the other side: the answer is DuckDB's, and the rows joined or shuffled are
     * the few distinct ones. Under a GROUP BY that counts, nothing is dropped.
     */
    @Test
    void aDistinctOverAJoinDropsRepeatsBeforeTheJoin() throws Exception {
        String sql = "SELECT DISTINCT n_name, l_shipmode FROM lineitem JOIN nation ON l_suppkey = n_nationkey";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("HashJoin INNER [l_suppkey = n_nationkey], build: broadcast #0")
                && plan.contains("[each node] DropRepeats of [l_suppkey, l_shipmode]"), plan);
        String counted = "SELECT n_name, l_shipmode, count(*) FROM lineitem JOIN nation ON l_suppkey = n_nationkey "
                + "GROUP BY n_name, l_shipmode";
        assertMatchesDuckDb(counted);
        assertTrue(!explain("EXPLAIN " + counted).contains("DropRepeats"));
        // lineitem's own rows, its primary key read, only anti joined before: none repeats (TPC-H Q16's partsupp)
        String unique = "SELECT DISTINCT o_orderpriority, l_linenumber FROM lineitem JOIN orders ON l_orderkey = o_orderkey "
                + "WHERE l_suppkey NOT IN (SELECT n_nationkey FROM nation WHERE n_regionkey = 1)";
        assertMatchesDuckDb(unique);
        String uniquePlan = explain("EXPLAIN " + unique);
        assertTrue(uniquePlan.contains("HashJoin ANTI_NULL_AWARE") && !uniquePlan.contains("DropRepeats"), uniquePlan);
        try (SqlSession noBroadcast = cluster.session()) {
            noBroadcast.execute("SET ooo.join.broadcast-max-bytes=0", new Cancellation());
            assertMatchesDuckDb(noBroadcast, sql);
            String analyzed = explain(noBroadcast, "EXPLAIN ANALYZE " + sql);
            // lineitem's rows are shuffled to nation's nodes: at most each node's 100 suppliers x 7 modes
            Matcher shuffled = Pattern.compile("\n *Gather [^\n]*\\[actual rows ([\\d,]+),[^\n]*shuffled[^\n]*\n"
                    + "[^\n]*\\[each node\\] DropRepeats of").matcher(analyzed);
            assertTrue(shuffled.find(), analyzed);
            assertTrue(Long.parseLong(shuffled.group(1).replace(",", "")) <= 100 * 7 * NODES, analyzed);
        }
    }

    /**
     * A DISTINCT aggregate is two GROUP BYs, the second over the first's groups merged on the
     * nodes. With groups enough, its rows are shuffled by its own keys and each node aggregates
     * whole groups; with few (three return flags would keep three nodes busy and leave one idle),
     * by all of the first's keys, each node partially aggregating the groups it merged, and the
     * coordinator merges a partial row per group and node.
     */
    @Test
    void distinctAggregatesOverFewGroupsAreSpreadOverEveryNode() throws Exception {
        String few = "SELECT l_returnflag, count(DISTINCT l_partkey), count(*) FROM (SELECT DISTINCT l_returnflag, l_partkey, "
                + "l_suppkey FROM lineitem) d GROUP BY l_returnflag";
        for (String sql : List.of(few, "SELECT l_returnflag, count(DISTINCT l_partkey) FROM lineitem GROUP BY l_returnflag",
                "SELECT l_shipmode, l_linestatus, count(DISTINCT l_suppkey) FROM lineitem WHERE l_quantity > 10 "
                        + "GROUP BY l_shipmode, l_linestatus")) {
            assertMatchesDuckDb(sql);
        }
        String plan = explain("EXPLAIN SELECT l_returnflag, count(DISTINCT l_partkey) FROM lineitem GROUP BY l_returnflag");
        assertTrue(plan.contains("Shuffle rows by [l_returnflag, l_partkey]")
                && plan.contains("[each node] PartialAggregate keys [l_returnflag] aggs [count(l_partkey)]"), plan);
        assertTrue(gathered("EXPLAIN ANALYZE SELECT l_returnflag, count(DISTINCT l_partkey) FROM lineitem GROUP BY l_returnflag")
                <= 3L * NODES, "a partial row per flag and node");
        String many = "SELECT l_suppkey, count(DISTINCT l_partkey) FROM lineitem GROUP BY l_suppkey";
        assertMatchesDuckDb(many);
        assertTrue(explain("EXPLAIN " + many).contains("(each group on one node)"), many);
    }

    /**
     * Two GROUP BYs joined on all of their keys (TPC-DS Q97's FULL OUTER JOIN of the year's store
     * and catalog customers and items) are joined on the nodes: each side's partial groups go to
     * the node their keys hash to, which merges them and joins them there, and the aggregate over
     * the join is split there too. The answers are DuckDB's, for FULL, LEFT and inner joins, keys
     * joined in another order than grouped, null keys, and sums, counts and extremes merged.
     */
    @Test
    void twoGroupBysJoinedOnTheirKeysAreMergedAndJoinedOnTheNodes() throws Exception {
        String air = "SELECT l_suppkey k, l_linenumber n, count(*) c, sum(l_quantity) q FROM lineitem WHERE l_shipmode = 'AIR' "
                + "GROUP BY l_suppkey, l_linenumber";
        String rail = "SELECT l_linenumber n, CASE WHEN l_suppkey % 7 = 0 THEN NULL ELSE l_suppkey END k, max(l_tax) t "
                + "FROM lineitem WHERE l_shipmode = 'RAIL' GROUP BY l_linenumber, CASE WHEN l_suppkey % 7 = 0 THEN NULL ELSE l_suppkey END";
        String counts = "SELECT sum(CASE WHEN a.k IS NOT NULL AND b.k IS NULL THEN 1 ELSE 0 END) air_only, "
                + "sum(CASE WHEN a.k IS NULL AND b.k IS NOT NULL THEN 1 ELSE 0 END) rail_only, "
                + "sum(CASE WHEN a.k IS NOT NULL AND b.k IS NOT NULL THEN 1 ELSE 0 END) both_, count(*), sum(a.q), max(b.t) "
                + "FROM (" + air + ") a FULL OUTER JOIN (" + rail + ") b ON a.k = b.k AND a.n = b.n";
        assertMatchesDuckDb(counts);
        String plan = explain("EXPLAIN " + counts);
        assertTrue(Pattern.compile("\\[each node\\] HashJoin FULL \\[[^\n]*\\], build: both sides shuffled by key").matcher(plan).find()
                && plan.contains("[each node] FinalAggregate keys [l_suppkey, l_linenumber] calls [count(*), sum(l_quantity)] "
                + "(each group's partial rows merged on one node)")
                && plan.contains("[each node] FinalAggregate keys [l_linenumber, CASE WHEN l_suppkey % 7 = 0 THEN NULL "
                + "ELSE l_suppkey END] calls [max(l_tax)]"), plan);
        assertEquals(NODES, gathered("EXPLAIN ANALYZE " + counts)); // one partial row of the sums per node
        for (String kind : List.of("LEFT", "")) {
            assertMatchesDuckDb("SELECT a.k, a.n, a.c, a.q, b.t FROM (" + air + ") a " + kind + " JOIN (" + rail + ") b "
                    + "ON a.n = b.n AND a.k = b.k");
        }
        // then LEFT JOINed to a third on the same keys (TPC-DS Q78's store, web and catalog sales): joined there too
        String ship = "SELECT l_linenumber n, l_suppkey k, min(l_discount) d, count(*) c FROM lineitem WHERE l_shipmode = 'SHIP' "
                + "GROUP BY l_suppkey, l_linenumber";
        String three = "SELECT a.k, a.n, a.q, b.t, s.d, s.c FROM (" + air + ") a LEFT JOIN (" + rail + ") b "
                + "ON a.k = b.k AND a.n = b.n LEFT JOIN (" + ship + ") s ON a.n = s.n AND a.k = s.k WHERE s.c > 1 OR b.t IS NULL";
        assertMatchesDuckDb(three);
        String threePlan = explain("EXPLAIN " + three);
        assertTrue(threePlan.contains("build: shuffle #0") && threePlan.contains("Shuffle #0 by [l_suppkey, l_linenumber]")
                && threePlan.contains("[each node] FinalAggregate keys [l_suppkey, l_linenumber] calls [min(l_discount), count(*)]"),
                threePlan);
        // on some of the grouping keys (TPC-DS Q74's totals per customer and year, joined by customer)
        String bySupplier = "SELECT a.k, a.n, b.n, a.q, b.t FROM (" + air + ") a RIGHT JOIN (" + rail + ") b ON a.k = b.k";
        assertMatchesDuckDb(bySupplier);
        assertTrue(explain("EXPLAIN " + bySupplier).contains("build: both sides shuffled by key"));
    }

    @Test
    void aGroupByThePartitionColumnRunsWholeOnEachNodeAndWhatFollowsItToo() throws Exception {
        String heavy = "SELECT l_orderkey, sum(l_quantity) AS q, count(DISTINCT l_suppkey) AS s FROM lineitem "
                + "GROUP BY l_orderkey HAVING sum(l_quantity) > 200";
        assertMatchesDuckDb(heavy);
        String plan = explain("EXPLAIN " + heavy);
        assertTrue(plan.contains("(each group on one node)"), plan);
        assertTrue(plan.contains("[each node] Filter"), plan);
        assertTrue(!plan.contains("FinalAggregate"), plan);
        // TPC-H Q18's shape: orders whose lineitems sum over a bound, the IN built on each node
        String q18 = "SELECT o_orderkey, o_totalprice FROM orders WHERE o_orderkey IN "
                + "(SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 250) ORDER BY o_orderkey";
        assertMatchesDuckDb(q18);
        String q18Plan = explain("EXPLAIN " + q18);
        assertTrue(q18Plan.contains("[each node] HashJoin SEMI [o_orderkey = l_orderkey], build: co-located"), q18Plan);
    }

    @Test
    void joinsAreOrderedSoThatTheLargestTableFlowsAndTheOthersBuildOnTheNodes() throws Exception {
        // written smallest first; lineitem (the largest) is scanned, orders builds on each node, nation is broadcast
        String sql = "SELECT n_name, count(*), sum(l_quantity) FROM nation, orders, lineitem "
                + "WHERE o_custkey % 25 = n_nationkey AND l_orderkey = o_orderkey AND o_orderdate < DATE '1993-01-01' "
                + "GROUP BY n_name";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("[each node] Scan default.lineitem"), plan);
        assertTrue(plan.contains("build: co-located (local partition of default.orders)"), plan);
        assertTrue(plan.contains("[each node] Filter o_orderdate < DATE '1993-01-01'"), plan);
        assertTrue(plan.contains("build: broadcast #0"), plan);
        assertTrue(plan.contains("[each node] PartialAggregate"), plan);
        // an IN subquery on orders' key is moved onto orders, where it filters before the join with lineitem
        String in = "SELECT n_name, sum(l_quantity) FROM nation, orders, lineitem WHERE o_custkey % 25 = n_nationkey "
                + "AND l_orderkey = o_orderkey AND o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey "
                + "HAVING sum(l_quantity) > 250) GROUP BY n_name";
        assertMatchesDuckDb(in);
        String inPlan = explain("EXPLAIN " + in);
        assertTrue(inPlan.contains("[each node] HashJoin SEMI [o_orderkey = l_orderkey], build: co-located"), inPlan);
        assertTrue(!inPlan.contains("Gather [l_orderkey]"), inPlan);
    }

    @Test
    void existsOverALargerSideBuildsFromTheKeptRowsAndScansTheOther() throws Exception {
        // TPC-H Q21's shape: few kept rows, EXISTS and NOT EXISTS over all of lineitem on the same key
        String sql = "SELECT n_name, count(*) FROM lineitem l1, orders, nation WHERE l1.l_orderkey = o_orderkey "
                + "AND o_orderstatus = 'F' AND o_custkey % 25 = n_nationkey AND n_name = 'PERU' "
                + "AND l1.l_receiptdate > l1.l_commitdate "
                + "AND EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey) "
                + "AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey "
                + "AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > l3.l_commitdate) GROUP BY n_name";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("[each node] HashJoin RIGHT_SEMI [l2.l_orderkey = l1.l_orderkey] AND l2.l_suppkey <> l1.l_suppkey"), plan);
        assertTrue(plan.contains("[each node] HashJoin RIGHT_ANTI [l3.l_orderkey = l1.l_orderkey] AND l3.l_suppkey <> l1.l_suppkey"), plan);
        assertTrue(plan.contains("[each node] PartialAggregate"), plan);
    }

    @Test
    void aGroupByJoinedToAFilteredTableOnAnExpressionAnswersRightly() throws Exception {
        // TPC-H Q17's shape: an aggregate per key, joined on that key to a table filtered to a few rows
        String sql = "SELECT n_name, count(*), sum(o_totalprice) FROM orders, nation, "
                + "(SELECT k, avg(p) AS a FROM (SELECT o_custkey % 25 AS k, o_totalprice AS p FROM orders) x GROUP BY k) s "
                + "WHERE s.k = n_nationkey AND n_name IN ('PERU', 'CHINA') AND o_custkey % 25 = n_nationkey "
                + "AND o_totalprice < s.a GROUP BY n_name";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        // orders meets nation by hash on o_custkey % 25; that join, its key computed below it, is a
        // group of its own, so the aggregate is not semi-joined with the nations any more
        assertTrue(plan.contains("[each node] HashJoin INNER [o_custkey % 25 = n_nationkey], build: broadcast #0"), plan);
        assertTrue(plan.contains("[each node] PartialAggregate keys [o_custkey % 25] aggs [avg(o_totalprice)]"), plan);
    }

    @Test
    void broadcastRowsBeyondAFrameAreSentAheadInChunks() throws Exception {
        // five conjuncts are taken to keep a thousandth of lineitem, so it is broadcast; all of it passes:
        // about 10 MiB of rows per node (each with a string of a few hundred characters, unlike any other),
        // sent ahead of the pipeline in chunks
        String sql = "SELECT count(*), sum(length(b.text)), sum(b.l_extendedprice) "
                + "FROM orders o JOIN (SELECT l_partkey, l_extendedprice, concat(l_comment, l_shipinstruct, l_comment, "
                + "l_shipmode, l_comment, cast(l_orderkey AS STRING), l_comment) AS text FROM lineitem "
                + "WHERE l_quantity > 0 AND l_discount >= 0 AND l_tax >= 0 "
                + "AND l_linenumber > 0 AND l_comment <> 'x') b ON o.o_custkey = b.l_partkey";
        long before = chunksStaged();
        assertMatchesDuckDb(sql);
        assertTrue(chunksStaged() - before >= 2 * NODES, "every node got its rows ahead, in more than one chunk");
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("build: broadcast #0"), plan);
    }

    private static long bytesSpilled() {
        return cluster.tpch().session.stats().values().stream().mapToLong(n -> n.get("bytesSpilled").asLong()).sum();
    }

    private static long chunksStaged() {
        return cluster.tpch().session.stats().values().stream().mapToLong(n -> n.get("chunksStaged").asLong()).sum();
    }

    @Test
    void aCoLocatedBuildJoinsItsBroadcastsOnEachNode() throws Exception {
        // lineitem joined with the nations whose name starts with C (nation broadcast; l_suppkey stands in for a
        // nation key) is estimated smaller than orders: each node builds from it, not from orders
        String sql = "SELECT o_orderpriority, count(*), sum(l_quantity) FROM orders JOIN lineitem ON l_orderkey = o_orderkey "
                + "JOIN nation ON n_nationkey = l_suppkey WHERE n_name LIKE 'C%' GROUP BY o_orderpriority";
        String plan = explain("EXPLAIN " + sql);
        assertTrue(Pattern.compile("build: co-located \\(local partition of default\\.lineitem\\)[^\n]*\n +"
                + "\\[each node\\] HashJoin INNER \\[l_suppkey = n_nationkey\\], build: broadcast #0[^\n]*\n +"
                + "\\[each node\\] Scan default\\.lineitem [^\n]*\n +\\[each node\\] Scan default\\.orders").matcher(plan).find(),
                plan);
        assertMatchesDuckDb(sql);
    }

    @Test
    void orderByWithALimitKeepsOnlyTheFirstRowsOnEachNode() throws Exception {
        // a whole GROUP BY on the nodes, then ORDER BY ... LIMIT: each node sends its first 15 groups
        String sql = "SELECT l_orderkey, sum(l_extendedprice) AS revenue FROM lineitem GROUP BY l_orderkey "
                + "ORDER BY revenue DESC, l_orderkey LIMIT 10 OFFSET 5";
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("[each node] TopN 15 [revenue DESC, l_orderkey ASC]"), plan);
        assertMatchesDuckDb(sql);
        assertEquals(15L * NODES, gathered("EXPLAIN ANALYZE " + sql), "rows gathered");
        // rows of a scan, nulls among the keys
        String scan = "SELECT o_orderkey, o_comment FROM orders WHERE o_orderkey % 7 = 0 "
                + "ORDER BY CASE WHEN o_orderkey % 3 = 0 THEN NULL ELSE o_totalprice END NULLS FIRST, o_orderkey LIMIT 20";
        assertMatchesDuckDb(scan);
    }

    @Test
    void orderByWithoutALimitIsSortedOnEachNodeAndMerged() throws Exception {
        String sql = "SELECT o_orderkey, o_orderdate, o_totalprice FROM orders WHERE o_orderkey % 5 <> 0 "
                + "ORDER BY o_orderdate DESC, CASE WHEN o_orderkey % 3 = 0 THEN NULL ELSE o_totalprice END NULLS FIRST, o_orderkey";
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("[each node] Sort [o_orderdate DESC, "), plan);
        assertMatchesDuckDb(sql);
        // with little memory on the nodes and the coordinator both spill: sorted runs on the nodes, each node's rows here
        long coordinatorSpilled = org.oooengine.core.fragment.QueryMemory.spilledInProcess();
        long nodesSpilled = bytesSpilled();
        List<Object[]> ours = new ArrayList<>();
        try (SqlSession s = cluster.session(Map.of("ooo.query.max-memory-per-node", "100000",
                "ooo.query.max-memory", "100000"))) {
            s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
        }
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), true), sql);
        assertTrue(bytesSpilled() > nodesSpilled, "the nodes spilled sorted runs");
        assertTrue(org.oooengine.core.fragment.QueryMemory.spilledInProcess() > coordinatorSpilled, "the coordinator spilled");
    }

    @Test
    void joinsOnKeysNeitherTableIsPartitionedOnShuffleBothSidesAndAnswerAsDuckDb() throws Exception {
        // nothing broadcast: orders and lineitem joined on columns neither is partitioned on move both
        List<String> queries = List.of(
                "SELECT o_orderpriority, count(*), sum(l_quantity) FROM orders JOIN lineitem ON o_custkey = l_suppkey "
                        + "WHERE l_shipmode = 'AIR' GROUP BY o_orderpriority",
                "SELECT o_orderkey, l_orderkey, l_linenumber FROM orders LEFT JOIN lineitem ON o_custkey = l_suppkey "
                        + "AND l_quantity > 45 WHERE o_orderkey < 3000",
                "SELECT count(o_orderkey), count(l_orderkey), sum(l_quantity) FROM orders FULL JOIN lineitem "
                        + "ON o_custkey = l_partkey AND o_orderdate < l_shipdate",
                "SELECT count(*) FROM orders WHERE NOT EXISTS (SELECT * FROM lineitem WHERE l_suppkey = o_custkey)");
        Map<String, String> noBroadcast = Map.of("ooo.join.broadcast-max-bytes", "0");
        for (String sql : queries) {
            List<Object[]> ours = new ArrayList<>();
            try (SqlSession s = cluster.session(noBroadcast)) {
                String plan = explain(s, "EXPLAIN " + sql);
                assertTrue(plan.contains("Shuffle probe rows by ") && plan.contains("Shuffle build rows by "), plan);
                s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
            }
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), false), sql);
        }
        // its hash tables spill on the nodes like any
        long spilledBefore = bytesSpilled();
        String sql = queries.get(0);
        List<Object[]> ours = new ArrayList<>();
        try (SqlSession s = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "0",
                "ooo.query.max-memory-per-node", "100000"))) {
            String plan = explain(s, "EXPLAIN ANALYZE " + sql);
            assertTrue(Pattern.compile("Shuffle build rows by [^\\n]*\\n +Gather [^\\n]*shuffled [\\d.]+ \\w+").matcher(plan).find(),
                    plan);
            s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
        }
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), false), sql);
        assertTrue(bytesSpilled() > spilledBefore, "the nodes spilled their joins");
    }

    @Test
    void aLimitWithoutOrderStopsEachNodeOnceItSentEnoughRows() throws Exception {
        String sql = "SELECT l_orderkey, l_comment FROM lineitem WHERE l_quantity > 10 LIMIT 7 OFFSET 2";
        String plan = explain("EXPLAIN ANALYZE " + sql);
        assertTrue(plan.contains("[each node] Limit 9"), plan);
        Matcher read = Pattern.compile("nodes read ([\\d,]+) rows").matcher(plan);
        assertTrue(read.find(), plan);
        long total = (Long) cluster.oracle().rows("SELECT count(*) FROM lineitem").get(0)[0];
        assertTrue(Long.parseLong(read.group(1).replace(",", "")) < total / 4, plan);
        assertEquals(9L * NODES, gathered("EXPLAIN ANALYZE " + sql), "rows gathered");
        List<Object[]> rows = new ArrayList<>();
        session.execute(sql, new Cancellation()).rows().forEachRemaining(rows::add);
        assertEquals(7, rows.size());
        for (Object[] row : rows) { // any seven of the rows the query selects
            String selected = "SELECT count(*) FROM lineitem WHERE l_quantity > 10 AND l_orderkey = " + row[0]
                    + " AND l_comment = '" + ((String) row[1]).replace("'", "''") + "'";
            assertTrue(((Number) cluster.oracle().rows(selected).get(0)[0]).longValue() > 0, selected);
        }
    }

    @Test
    void anOperatorOverTheQuerysMemoryLimitFailsItByNameAndTheNodesServeOn() throws Exception {
        String join = "SELECT count(*), sum(l_extendedprice), max(o_orderdate) FROM orders JOIN lineitem ON l_orderkey = o_orderkey";
        // a node's hash join over its limit spills its build and probe rows and joins them a sixteenth at a time
        long spilledBefore = bytesSpilled();
        List<Object[]> ours = new ArrayList<>();
        try (SqlSession tight = cluster.session(Map.of("ooo.query.max-memory-per-node", "200000"))) {
            tight.execute(join, new Cancellation()).rows().forEachRemaining(ours::add);
        }
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(join), false), join);
        assertTrue(bytesSpilled() > spilledBefore, "the nodes spilled the join");
        // with room for no more than a few hundred build rows, partitions are split again and the join still answers
        SqlSession tighter = cluster.session(Map.of("ooo.query.max-memory-per-node", "20000"));
        ours.clear();
        tighter.execute(join, new Cancellation()).rows().forEachRemaining(ours::add);
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(join), false), join);
        // build rows of one key (three order statuses) cannot be split: the join fails by name (the
        // condition beside the key keeps every build row: of distinct keys alone it would hold three)
        String oneKey = "SELECT count(*) FROM lineitem WHERE EXISTS (SELECT 1 FROM orders WHERE o_orderstatus = l_linestatus"
                + " AND o_totalprice > l_extendedprice)";
        SqlException e = org.junit.jupiter.api.Assertions.assertThrows(SqlException.class,
                () -> tighter.execute(oneKey, new Cancellation()).rows().forEachRemaining(r -> { }));
        assertEquals(SqlException.OUT_OF_MEMORY, e.sqlState(), e.getMessage());
        assertTrue(Pattern.compile("hash join \\(partition \\d+ of 16 of a partition split 3 times of the build rows it "
                + "spilled\\) on node n\\d needs more than the query's memory limit").matcher(e.getMessage()).find(),
                e.getMessage());
        assertTrue(e.getMessage().contains("SET ooo.query.max-memory-per-node="), e.getMessage());
        // the coordinator's share: with a LIMIT it holds only the first rows; without one, the rows it
        // sorts and the result it keeps for the client go to disk past its limit and come back in order
        SqlSession small = cluster.session(Map.of("ooo.query.max-memory", "100000"));
        String firstFive = "SELECT l_orderkey, l_comment FROM lineitem ORDER BY l_comment, l_orderkey, l_linenumber LIMIT 5";
        List<Object[]> first = new ArrayList<>();
        small.execute(firstFive, new Cancellation()).rows().forEachRemaining(first::add);
        assertNull(OracleComparison.difference(first, cluster.oracle().rows(firstFive), true), firstFive);
        String sorted = "SELECT l_orderkey, l_comment FROM lineitem ORDER BY l_comment, l_orderkey, l_linenumber";
        long coordinatorSpilled = org.oooengine.core.fragment.QueryMemory.spilledInProcess();
        List<Object[]> all = new ArrayList<>();
        small.execute(sorted, new Cancellation()).rows().forEachRemaining(all::add);
        assertNull(OracleComparison.difference(all, cluster.oracle().rows(sorted), true), sorted);
        assertTrue(org.oooengine.core.fragment.QueryMemory.spilledInProcess() > coordinatorSpilled, "the coordinator spilled");
        // the same session with room, and every other session, are served as before
        tighter.execute("SET ooo.query.max-memory-per-node=0", new Cancellation());
        assertMatchesDuckDb(join);
        assertEquals(3, tighter.execute(join, new Cancellation()).rows().next().length);
    }

    @Test
    void aggregationsOverTheMemoryLimitSpillAndAnswerAsDuckDb() throws Exception {
        // a partial aggregate sends its groups early, a whole one (groups on one node) and the final
        // aggregation spill theirs to disk; a sixteenth of the groups must fit to merge them back
        long coordinatorSpilled = org.oooengine.core.fragment.QueryMemory.spilledInProcess();
        String partial = "SELECT l_suppkey, l_partkey, count(*), sum(l_quantity) FROM lineitem GROUP BY l_suppkey, l_partkey";
        String whole = "SELECT l_orderkey, sum(l_extendedprice), max(l_comment) FROM lineitem GROUP BY l_orderkey";
        // the whole aggregate's 15,000 result rows are gathered on the coordinator: they get its default room
        // the split one merged on the coordinator (which spills), then on the nodes (which spill the merge)
        for (String[] q : List.<String[]>of(new String[] {partial, "1000000", "false"}, new String[] {partial, "0", "true"},
                new String[] {whole, "0", "true"})) {
            List<Object[]> ours = new ArrayList<>();
            try (SqlSession s = cluster.session(Map.of("ooo.query.max-memory-per-node", "300000",
                    "ooo.query.max-memory", q[1], "ooo.aggregate.merge-on-nodes", q[2]))) {
                s.execute(q[0], new Cancellation()).rows().forEachRemaining(ours::add);
            }
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(q[0]), false), q[0]);
        }
        String plan;
        try (SqlSession s = cluster.session(Map.of("ooo.query.max-memory-per-node", "300000"))) {
            List<Object[]> lines = new ArrayList<>();
            s.execute("EXPLAIN ANALYZE " + whole, new Cancellation()).rows().forEachRemaining(lines::add);
            plan = lines.stream().map(r -> (String) r[0]).reduce("", (a, b) -> a + b + "\n");
        }
        assertTrue(Pattern.compile("nodes read [\\d,]+ rows, slowest n\\d [\\d.]+ s, peak memory [\\d.]+ \\w+, "
                + "spilled [\\d.]+ \\w+ \\([\\d,]+ rows\\)").matcher(plan).find(), plan);
        assertTrue(cluster.tpch().session.stats().values().stream().mapToLong(n -> n.get("bytesSpilled").asLong()).sum() > 0,
                "the nodes count what they spilled");
        assertTrue(org.oooengine.core.fragment.QueryMemory.spilledInProcess() > coordinatorSpilled,
                "the coordinator's final aggregation spilled");
    }

    @Test
    void joinsOnTheCoordinatorOverItsMemoryLimitSpillAndAnswerAsDuckDb() throws Exception {
        // nothing built on the nodes: both sides come to the coordinator, whose build spills (a grace hash join)
        Map<String, String> coordinatorOnly = Map.of("ooo.join.build-max-bytes", "0", "ooo.join.broadcast-max-bytes", "0",
                "ooo.query.max-memory", "300000");
        long coordinatorSpilled = org.oooengine.core.fragment.QueryMemory.spilledInProcess();
        for (String sql : List.of(
                "SELECT count(*), sum(l_extendedprice), max(o_orderdate) FROM orders JOIN lineitem ON l_orderkey = o_orderkey",
                "SELECT o_orderkey, count(l_orderkey) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey "
                        + "AND l_shipdate > '1995-06-01' GROUP BY o_orderkey",
                "SELECT o_orderkey, o_orderstatus FROM orders WHERE NOT EXISTS "
                        + "(SELECT * FROM lineitem WHERE l_orderkey = o_orderkey AND l_shipdate > '1995-01-01')")) {
            List<Object[]> ours = new ArrayList<>();
            try (SqlSession s = cluster.session(coordinatorOnly)) {
                String plan = explain(s, "EXPLAIN " + sql);
                assertTrue(!plan.contains("[each node] HashJoin"), plan);
                s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
            }
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), false), sql);
        }
        assertTrue(org.oooengine.core.fragment.QueryMemory.spilledInProcess() > coordinatorSpilled, "the coordinator spilled");
    }

    @Test
    void aggregatesOfOneDistinctArgumentBecomeTwoGroupBysThatSplitAndSpill() throws Exception {
        String grouped = "SELECT l_returnflag, count(DISTINCT l_partkey), sum(DISTINCT l_partkey) FROM lineitem "
                + "WHERE l_quantity > 5 GROUP BY l_returnflag";
        String global = "SELECT count(DISTINCT l_suppkey), avg(DISTINCT l_suppkey) FROM lineitem";
        String plan = explain("EXPLAIN " + grouped);
        assertTrue(!plan.contains("distinct=true") && plan.contains("PartialAggregate keys [l_returnflag, l_partkey] aggs []"), plan);
        // the distinct values merged and counted on the nodes, shuffled by all the keys (three flags are too few groups)
        assertTrue(plan.contains("[each node] PartialAggregate keys [l_returnflag] aggs [count(l_partkey), sum(l_partkey)]")
                && plan.contains("Shuffle rows by [l_returnflag, l_partkey]"), plan);
        assertMatchesDuckDb(grouped);
        assertMatchesDuckDb(global);
        // the distinct values per group spill where a set of them per group could not
        long spilledBefore = bytesSpilled();
        for (String sql : List.of(grouped, global)) {
            List<Object[]> ours = new ArrayList<>();
            try (SqlSession s = cluster.session(Map.of("ooo.query.max-memory-per-node", "100000",
                    "ooo.query.max-memory", "100000"))) {
                s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
            }
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), false), sql);
        }
        assertTrue(bytesSpilled() > spilledBefore, "the nodes spilled the distinct values");
    }

    @Test
    void aDistinctAggregateRunsOnTheCoordinatorOverTheColumnsItNeeds() throws Exception {
        String sql = "SELECT l_linestatus, count(DISTINCT l_suppkey), sum(l_quantity) FROM lineitem "
                + "WHERE l_returnflag = 'R' GROUP BY l_linestatus";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("\n  Aggregate keys"), plan);
        assertTrue(Pattern.compile("\\[each node\\] Project \\[[^\\n]*l_suppkey").matcher(plan).find(), plan);
    }

    @Test
    void aJoinWithASmallTableRunsOnTheNodesWithItsRowsBroadcast() throws Exception {
        String sql = "SELECT o_orderkey, o_totalprice * 2 AS twice, n_name FROM orders JOIN nation ON o_custkey % 25 = n_nationkey "
                + "WHERE o_orderdate < DATE '1992-03-01' AND n_name LIKE 'A%' ORDER BY o_orderkey LIMIT 20";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        assertTrue(plan.contains("[each node] HashJoin INNER [o_custkey % 25 = n_nationkey], build: broadcast #0"), plan);
        assertTrue(plan.contains("[each node] Scan default.orders"), plan);
        assertTrue(plan.contains("Broadcast #0 to every node\n"), plan);
        // the broadcast table is read filtered, on the nodes: only the nations starting with A travel,
        // in the columns the join reads
        Matcher m = Pattern.compile("Gather [^\\n]*\\[actual rows ([\\d,]+),[^\\n]*\\n"
                + "[^\\n]*\\[each node\\] Project \\[n_nationkey, n_name\\][^\\n]*\\n[^\\n]*\\[each node\\] Filter n_name LIKE 'A%'")
                .matcher(explain("EXPLAIN ANALYZE " + sql));
        assertTrue(m.find(), explain("EXPLAIN ANALYZE " + sql));
        assertEquals(2, Long.parseLong(m.group(1)), "ALGERIA and ARGENTINA");
        for (String join : List.of(
                "SELECT n_name, count(*) FROM orders LEFT JOIN nation ON o_custkey = n_nationkey GROUP BY n_name",
                "SELECT count(*), sum(o_totalprice) FROM orders WHERE o_custkey % 30 NOT IN (SELECT n_nationkey FROM nation)",
                "SELECT count(*) FROM orders WHERE o_custkey % 30 NOT IN "
                        + "(SELECT CASE WHEN n_nationkey = 3 THEN NULL ELSE n_nationkey END FROM nation)",
                "SELECT n_name, count(*) FROM nation RIGHT JOIN orders ON o_custkey = n_nationkey GROUP BY n_name",
                "SELECT count(*) FROM orders WHERE EXISTS (SELECT 1 FROM nation WHERE n_nationkey = o_custkey % 40)")) {
            assertAnswersAndShows(join, "build: broadcast #0");
        }
    }

    @Test
    void aBroadcastMeetingThePartitionColumnSendsEachRowToTheNodeThatOwnsItsKey() throws Exception {
        // keys made of nations' (one null): orders is partitioned on o_orderkey, so each row of the
        // small side need only go to the node that owns its key
        String keys = "(SELECT CASE WHEN n_nationkey = 3 THEN NULL ELSE CAST(n_nationkey AS BIGINT) * 1000 + 1 END AS k, "
                + "n_name AS tag FROM nation WHERE n_regionkey < 4)";
        for (String join : List.of(
                "SELECT o_orderkey, o_totalprice, tag FROM orders JOIN " + keys + " x ON o_orderkey = x.k",
                "SELECT tag, count(*), sum(o_totalprice) FROM orders LEFT JOIN " + keys + " x ON o_orderkey = x.k "
                        + "WHERE o_orderkey < 30000 GROUP BY tag",
                "SELECT tag, count(*), sum(o_totalprice) FROM " + keys + " x RIGHT JOIN orders ON o_orderkey = x.k "
                        + "WHERE o_orderkey < 30000 GROUP BY tag",
                "SELECT count(*), sum(o_totalprice) FROM orders WHERE o_orderkey IN (SELECT k FROM " + keys + " x)",
                "SELECT count(*), sum(o_totalprice) FROM orders WHERE NOT EXISTS (SELECT 1 FROM " + keys + " x "
                        + "WHERE x.k = o_orderkey)")) {
            assertAnswersAndShows(join, "build: broadcast #0 routed by key", "Broadcast #0, each row to the node that owns its k");
        }
        // NOT IN must see a null key wherever it probes: sent whole
        String notIn = "SELECT count(*) FROM orders WHERE o_orderkey NOT IN (SELECT k FROM " + keys + " x)";
        assertMatchesDuckDb(notIn);
        assertTrue(explain("EXPLAIN " + notIn).contains("Broadcast #0 to every node"), explain("EXPLAIN " + notIn));
    }

    @Test
    void rowsJoinedWhereTheyWereShuffledGoOnToTheirPartnersNodesRoutedByKey() throws Exception {
        // orders meet the lineitems of their part numbers, shuffled to them; what they make meets
        // lineitem again on a lineitem order key. Rows that came from a shuffle are not shuffled
        // again, and these are too many to send to every node: each goes, through the coordinator,
        // only to the node that owns its key, where lineitem is read (TPC-H Q10's customers' orders)
        String sql = "SELECT count(*), sum(l2.l_quantity), sum(x.o_totalprice) FROM lineitem l2 JOIN "
                + "(SELECT o_totalprice, l.l_orderkey AS lk FROM orders JOIN lineitem l ON l.l_partkey = o_orderkey "
                + "WHERE l.l_quantity > 45) x ON l2.l_orderkey = x.lk";
        try (SqlSession s = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "100000"))) {
            String plan = explain(s, "EXPLAIN " + sql);
            assertTrue(plan.contains("build: shuffle #0"), plan);
            assertTrue(plan.contains("build: broadcast #0 routed by key"), plan);
            assertTrue(plan.contains("[each node] Scan default.lineitem AS l2"), plan);
            assertMatchesDuckDb(s, sql);
        }
    }

    @Test
    void aColumnJoinedToThePartitionColumnKeepsLaterJoinsOnItOnEachNode() throws Exception {
        // TPC-H Q21's shape: lineitem l1 meets orders on the order key, and the order key kept is
        // l1's, not o_orderkey; the EXISTS and NOT EXISTS on it still find their partners on the
        // node, so no join runs on the coordinator
        String sql = "SELECT o_orderpriority, count(*) FROM lineitem l1 JOIN orders ON o_orderkey = l1.l_orderkey "
                + "WHERE o_orderstatus = 'F' AND l1.l_receiptdate > l1.l_commitdate AND l1.l_suppkey < 8 AND l1.l_quantity > 30 "
                + "AND EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey) "
                + "AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey "
                + "AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > l3.l_commitdate) GROUP BY o_orderpriority";
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        assertFalse(Pattern.compile("\\n *HashJoin").matcher(plan).find(), plan);
        assertFalse(plan.contains("Shuffle #"), plan);
        assertTrue(plan.contains("build: co-located (local partition of default.lineitem AS l3)")
                || plan.contains("build: co-located (local partition of default.lineitem AS l1)"), plan);
    }

    @Test
    void aLeftJoinsKeptRowsGoToTheNodesOfTheOtherSideAndAreBuiltFromThere() throws Exception {
        // a few lineitems (some with a null key) meet orders on a key orders is partitioned on:
        // they are shuffled to its owners, each node keeps every one it was sent, met or not
        String lines = "(SELECT l_orderkey, l_linenumber, CASE WHEN l_linenumber = 1 THEN NULL ELSE l_partkey END AS pk "
                + "FROM lineitem WHERE l_quantity > 45)";
        for (String join : List.of(
                "SELECT l_orderkey, l_linenumber, pk, o_orderstatus FROM " + lines + " l LEFT JOIN orders ON l.pk = o_orderkey",
                "SELECT o_orderstatus, count(*), count(pk), sum(l_orderkey) FROM " + lines + " l LEFT JOIN orders "
                        + "ON l.pk = o_orderkey AND o_totalprice > l_orderkey * 10 GROUP BY o_orderstatus",
                "SELECT o_orderkey IS NULL, count(*) FROM orders RIGHT JOIN " + lines + " l ON l.pk = o_orderkey "
                        + "GROUP BY o_orderkey IS NULL")) {
            assertAnswersAndShows(join, "[each node] HashJoin RIGHT [o_orderkey = pk", "build: shuffle #0",
                    "[each node] Scan default.orders");
        }
    }

    @Test
    void tablesPartitionedAlikeJoinOnEachNodeAlone() throws Exception {
        String q = "SELECT o_orderpriority, count(*), sum(l_extendedprice) FROM orders JOIN lineitem ON l_orderkey = o_orderkey "
                + "WHERE o_orderdate >= DATE '1995-01-01' AND l_shipmode = 'AIR' GROUP BY o_orderpriority";
        assertMatchesDuckDb(q);
        String plan = explain("EXPLAIN " + q);
        assertTrue(plan.contains("[each node] HashJoin INNER [l_orderkey = o_orderkey]"), plan);
        assertTrue(plan.contains("build: co-located"), plan);
        assertTrue(plan.contains("[each node] PartialAggregate"), plan);
        // joined with a subquery's few groups: those are sent to every node, where orders meets them
        // and then the lineitems kept, co-located, and the nodes aggregate what they joined
        String mixed = "SELECT o_orderpriority, count(*), sum(l_quantity) FROM orders JOIN lineitem ON l_orderkey = o_orderkey "
                + "JOIN (SELECT n_regionkey, count(*) AS c FROM nation GROUP BY n_regionkey) r ON o_custkey % 5 = r.n_regionkey "
                + "WHERE r.c = 5 AND l_quantity > 45 GROUP BY o_orderpriority";
        assertMatchesDuckDb(mixed);
        String mixedPlan = explain("EXPLAIN " + mixed);
        assertTrue(mixedPlan.contains("[each node] HashJoin INNER [o_custkey % 5 = n_regionkey], build: broadcast #0"),
                mixedPlan);
        assertTrue(mixedPlan.contains("build: co-located"), mixedPlan);
        assertTrue(mixedPlan.contains("[each node] PartialAggregate keys [o_orderpriority]"), mixedPlan);
        for (String join : List.of(
                "SELECT count(*) FROM orders o WHERE EXISTS (SELECT 1 FROM lineitem l WHERE l.l_orderkey = o.o_orderkey "
                        + "AND l.l_quantity > 49)",
                "SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM lineitem l WHERE l.l_orderkey = o.o_orderkey "
                        + "AND l.l_commitdate < l.l_receiptdate)",
                "SELECT count(*), count(l_orderkey) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey AND l_quantity > 49",
                "SELECT count(*), count(o_orderkey) FROM orders RIGHT JOIN lineitem ON l_orderkey = o_orderkey "
                        + "AND o_orderstatus = 'F'",
                "SELECT count(*), count(o_orderkey), count(l_orderkey) FROM (SELECT * FROM orders WHERE o_orderkey % 3 = 0) o "
                        + "FULL JOIN (SELECT * FROM lineitem WHERE l_linenumber = 1 AND l_orderkey % 2 = 0) l ON l_orderkey = o_orderkey")) {
            assertMatchesDuckDb(join);
        }
    }

    @Test
    void expressionsOfEveryKindEvaluateOnTheNodesAsOnTheCoordinator() throws Exception {
        assertMatchesDuckDb("SELECT l_shipmode, sum(CASE WHEN l_shipinstruct LIKE 'DELIVER%' THEN 1 ELSE 0 END) AS d, "
                + "max(substr(l_comment, 1, 5)), min(l_receiptdate), count(l_orderkey) "
                + "FROM lineitem WHERE l_shipmode IN ('MAIL', 'SHIP', 'AIR') AND NOT (l_linenumber = 1) "
                + "AND l_commitdate IS NOT NULL AND l_shipdate < DATE '1998-12-01' - INTERVAL '90' DAY AND (l_tax > 0.05 OR l_discount < 0.02) GROUP BY l_shipmode");
    }

    @Test
    void aRangeOnTheClusteredKeyReadsOnlyThatRange() throws Exception {
        String range = "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey < 1000";
        assertMatchesDuckDb(range);
        long rangePages = pagesRead(range);
        long allPages = pagesRead("SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_quantity < 1000");
        // the range lies in the first group of rows (column chunks) on each node
        assertTrue(rangePages * 5 < allPages, rangePages + " chunks for the range, " + allPages + " for all rows");
        // both ends, either side of the comparison, equality, a bound the key's type cannot hold, an empty range
        for (String where : List.of("l_orderkey BETWEEN 2000 AND 2100", "3000 >= l_orderkey AND l_orderkey > 2990",
                "l_orderkey = 32", "l_orderkey < 100.5", "l_orderkey > 1000000000", "l_orderkey > 50 AND l_orderkey < 40",
                "l_orderkey >= 5000 AND l_linenumber = 1 AND l_orderkey <= 5000")) {
            assertMatchesDuckDb("SELECT count(*), sum(l_quantity), min(l_orderkey), max(l_orderkey) FROM lineitem WHERE " + where);
        }
    }

    /** Pages the nodes read from disk while {@code sql} ran, with their caches emptied first. */
    private static long pagesRead(String sql) {
        cluster.tpch().session.dropCaches();
        long before = totalPageReads();
        session.execute(sql, new Cancellation()).rows().forEachRemaining(r -> { });
        return totalPageReads() - before;
    }

    private static long totalPageReads() {
        return cluster.tpch().session.stats().values().stream().mapToLong(s -> s.get("pageReads").asLong()).sum();
    }

    /** {@code sql} answers as DuckDB does, and its EXPLAIN shows each of {@code shown}. */
    private static void assertAnswersAndShows(String sql, String... shown) throws Exception {
        assertMatchesDuckDb(sql);
        String plan = explain("EXPLAIN " + sql);
        for (String part : shown) {
            assertTrue(plan.contains(part), plan);
        }
    }

    private static void assertMatchesDuckDb(String sql) throws Exception {
        assertMatchesDuckDb(session, sql);
    }

    private static void assertMatchesDuckDb(SqlSession session, String sql) throws Exception {
        List<Object[]> ours = new ArrayList<>();
        session.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), sql.contains("ORDER BY")), sql);
    }

    private static String explain(String sql) {
        return explain(session, sql);
    }

    private static String explain(SqlSession in, String sql) {
        List<Object[]> lines = new ArrayList<>();
        in.execute(sql, new Cancellation()).rows().forEachRemaining(lines::add);
        return lines.stream().map(r -> (String) r[0]).reduce("", (a, b) -> a + b + "\n");
    }

    /** The rows the coordinator gathered from the nodes in all, as EXPLAIN ANALYZE reports them. */
    private static long gatheredInAll(String explainAnalyze) {
        String plan = explain(explainAnalyze);
        Matcher m = Pattern.compile("Gather [^\\n]*\\[actual rows ([\\d,]+),").matcher(plan);
        long rows = 0;
        while (m.find()) {
            rows += Long.parseLong(m.group(1).replace(",", ""));
        }
        assertTrue(rows > 0, plan);
        return rows;
    }

    /** The rows the coordinator gathered from the nodes, as EXPLAIN ANALYZE reports them. */
    private static long gathered(String explainAnalyze) {
        String plan = explain(explainAnalyze);
        Matcher m = Pattern.compile("Gather [^\\n]*\\[actual rows ([\\d,]+),").matcher(plan);
        assertTrue(m.find(), plan);
        return Long.parseLong(m.group(1).replace(",", ""));
    }
}
