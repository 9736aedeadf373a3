package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.cluster.NodeService;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * Nodes that run one statement at a time: statements sent at once wait their turn on each node
 * and all answer as DuckDB does, those whose parts wait for each other's rows (shuffles, merges on
 * the nodes) included: a part that takes shuffled rows never queues behind its producers.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NodeAdmissionTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-admission-test", 3,
            TpchTable.CUSTOMER, TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.NATION)
            .caps(NodeService.Caps.DEFAULTS.withStatements(0, 1, Duration.ofSeconds(50)));

    @Test
    void statementsSentAtOnceWaitTheirTurnAndAllAnswer() throws Exception {
        List<String> statements = List.of(
                // a side shuffled to the nodes that own its key in customer
                "SELECT c_mktsegment, count(*), sum(o_totalprice) FROM customer JOIN orders ON o_custkey = c_custkey "
                        + "GROUP BY c_mktsegment",
                // both sides shuffled by key
                "SELECT count(*), sum(l_quantity) FROM orders JOIN lineitem ON o_custkey = l_suppkey",
                // groups merged on the nodes they hash to
                "SELECT l_returnflag, l_linestatus, count(*), sum(l_extendedprice) FROM lineitem GROUP BY l_returnflag, "
                        + "l_linestatus",
                "SELECT n_name, sum(l_extendedprice) FROM lineitem, orders, customer, nation WHERE l_orderkey = o_orderkey "
                        + "AND o_custkey = c_custkey AND c_nationkey = n_nationkey AND l_returnflag = 'R' GROUP BY n_name",
                "SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority");
        List<CompletableFuture<List<Object[]>>> answers = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            for (String sql : statements) {
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try (SqlSession s = cluster.engine().openSession("test", "default",
                            Map.of("ooo.join.broadcast-max-bytes", "10000"))) {
                        List<Object[]> rows = new ArrayList<>();
                        s.execute(sql, new Cancellation()).rows().forEachRemaining(rows::add);
                        return rows;
                    }
                }));
            }
        }
        for (int i = 0; i < answers.size(); i++) {
            String sql = statements.get(i % statements.size());
            assertNull(OracleComparison.difference(answers.get(i).get(50, TimeUnit.SECONDS), cluster.oracle().rows(sql), false),
                    sql);
        }
        // a node ends its part of a statement just after its last answer: soon none runs, waits or holds anything
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!idle()) {
            assertTrue(System.nanoTime() < deadline, cluster.tpch().session.stats().toString());
            Thread.sleep(100);
        }
    }

    private static boolean idle() {
        for (var stats : cluster.tpch().session.stats().values()) {
            if (stats.get("statementsRunning").asInt() != 0 || stats.get("statementsWaiting").asInt() != 0
                    || stats.get("statementMemoryBytes").asLong() != 0) {
                return false;
            }
        }
        return true;
    }
}
