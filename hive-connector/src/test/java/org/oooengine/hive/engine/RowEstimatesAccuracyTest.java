package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * How close EXPLAIN's estimated rows come to the rows each operator of the 22 TPC-H queries
 * produces (EXPLAIN ANALYZE): the share of operators estimated within 2x of what they made.
 */
class RowEstimatesAccuracyTest {
    private static final Logger LOG = LogManager.getLogger(RowEstimatesAccuracyTest.class);
    /**
     * The share this engine reaches at SF 0.01 on three nodes, less a margin: 0.37 with a quarter
     * per filter and GROUP BY, 0.47 with the statistics' distinct values, 0.51 with them narrowed
     * through filters and joins, 0.63 with a join thinning its table's other columns, ranges narrowing
     * values, a sort under LIMIT and aggregates' own values, 0.70 (one-row estimates now counted) with
     * semi and anti joins over the keys' domain, counts' few values and a LIKE's pieces of text, 0.77
     * with a LIKE tried on a sample of the column's values, 0.79 with expressions of a sampled column
     * tried on the sample, a subquery's aggregate taken at its mean and kept rows rounded to the
     * nearest; the goal is 0.9 (0.94 at SF 1 on four nodes: ooo bench estimates).
     */
    static final double FLOOR = 0.72;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-row-estimates-test", 3);

    @Test
    void mostOperatorsAreEstimatedWithinTwiceTheirRows() throws Exception {
        List<EstimatedRows> all = new ArrayList<>();
        List<String> off = new ArrayList<>();
        for (int i = 1; i <= 22; i++) {
            String q = String.format(Locale.ROOT, "q%02d", i);
            for (EstimatedRows o : EstimatedRows.of(explainAnalyze(TpchQueriesTest.text("queries/tpch/" + q + ".sql")))) {
                all.add(o);
                if (!o.within(2)) {
                    off.add(String.format(Locale.ROOT, "%s %.0fx (est %,d, actual %,d): %s", q, o.ratio(), o.estimated(),
                            o.actual(), o.operator()));
                }
            }
        }
        double share = EstimatedRows.shareWithin(all, 2);
        LOG.info("{} of {} operators estimated within 2x ({}); off by more:\n{}", all.size() - off.size(), all.size(),
                String.format(Locale.ROOT, "%.0f%%", 100 * share), String.join("\n", off));
        assertTrue(all.size() > 100, "operators with both figures: " + all.size());
        assertTrue(share >= FLOOR, share + " of operators within 2x; off by more:\n" + String.join("\n", off));
    }

    private static List<String> explainAnalyze(String sql) {
        try (SqlSession s = cluster.session()) {
            List<String> lines = new ArrayList<>();
            s.execute("EXPLAIN ANALYZE " + sql, new Cancellation()).rows().forEachRemaining(r -> lines.add((String) r[0]));
            return lines;
        }
    }
}
