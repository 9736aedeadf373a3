package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The quickstart's SQL part: a few queries through the real Hive JDBC driver against the
 * coordinator, as any JDBC client or beeline would send them, with their results and timings —
 * the selective joins under each join method, side by side.
 */
final class QuickstartSql {
    /** TPC-H Q6 as in docs/queries/tpch/q06.sql (embedded: the jar may run without the project beside it). */
    static final String Q6 = """
            select sum(l_extendedprice * l_discount) as revenue
            from lineitem
            where l_shipdate >= date '1994-01-01'
              and l_shipdate < date '1994-01-01' + interval '1' year
              and l_discount between 0.06 - 0.01 and 0.06 + 0.01
              and l_quantity < 24""";

    /** OL: orders in a price range joined with their lineitems; the range's width sets the selectivity. */
    static String ol(int low, int high) {
        return "select count(*) as line_items, sum(l_extendedprice) as value from orders join lineitem"
                + " on o_orderkey = l_orderkey where o_totalprice between " + low + " and " + high;
    }

    /** Q3': customers in a balance range, their orders, their lineitems. */
    static final String Q3_PRIME = "select count(*) as line_items, sum(l_extendedprice) as value from customer"
            + " join orders on c_custkey = o_custkey join lineitem on o_orderkey = l_orderkey"
            + " where c_acctbal between 1000 and 1100";

    /**
     * A query, and whether to time it under each join method ({@code ooo.join.method}): the
     * out-of-order index join on the nodes, and hash joins over full scans on the coordinator.
     */
    private record Query(String title, String sql, boolean compareJoinMethods) {
    }

    private static final List<Query> QUERIES = List.of(
            new Query("the tables", "show tables", false),
            new Query("TPC-H Q6 (a scan of lineitem on every node, summed on the coordinator)", Q6, false),
            new Query("OL, about 0.1% of orders", ol(100000, 100500), true),
            new Query("OL, about 2% of orders", ol(100000, 110000), true),
            new Query("Q3', customers with a balance between 1000 and 1100", Q3_PRIME, true));

    private static final int MAX_ROWS_SHOWN = 10;

    private QuickstartSql() {
    }

    /** Runs the queries at {@code url}; returns 0, or 1 after printing the first failure. */
    static int run(String url, PrintWriter out, PrintWriter err) throws Exception {
        return HiveJdbc.withLoader(() -> {
            try (Connection c = HiveJdbc.connect(url, System.getProperty("user.name", "ooo"), null);
                 Statement s = c.createStatement()) {
                for (Query q : QUERIES) {
                    out.printf("%n%s:%n  %s%n", q.title(), q.sql().replace("\n", "\n  "));
                    try {
                        if (q.compareJoinMethods()) {
                            compareJoinMethods(s, q.sql(), out);
                        } else {
                            List<String> lines = new ArrayList<>();
                            double seconds = time(s, q.sql(), lines);
                            lines.forEach(line -> out.println("  " + line));
                            out.printf(Locale.ROOT, "  (%.2f s)%n", seconds);
                        }
                    } catch (SQLException e) {
                        err.printf("error: %s failed: %s%n", q.title(), e.getMessage());
                        return 1;
                    }
                    out.flush();
                }
            }
            return 0;
        });
    }

    /** The result once, then the time under each join method and what the automatic choice is. */
    private static void compareJoinMethods(Statement s, String sql, PrintWriter out) throws SQLException {
        List<String> result = new ArrayList<>();
        for (String method : List.of("index", "hash")) {
            s.execute("set ooo.join.method=" + method);
            List<String> lines = new ArrayList<>();
            double seconds = time(s, sql, lines);
            if (result.isEmpty()) {
                result.addAll(lines);
                result.forEach(line -> out.println("  " + line));
            }
            out.printf(Locale.ROOT, "  %-44s %8.2f s%n",
                    method.equals("index") ? "out-of-order index join on the nodes:" : "hash joins over full scans:", seconds);
        }
        s.execute("set ooo.join.method=auto");
        boolean indexJoin = false;
        try (ResultSet rs = s.executeQuery("explain " + sql)) {
            while (rs.next()) {
                indexJoin |= rs.getString(1).contains("IndexJoin");
            }
        }
        out.printf("  the engine's own choice (ooo.join.method=auto): %s%n", indexJoin ? "the index join" : "hash joins");
    }

    private static double time(Statement s, String sql, List<String> lines) throws SQLException {
        long start = System.nanoTime();
        try (ResultSet rs = s.executeQuery(sql)) {
            lines.addAll(format(rs));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** The header and up to {@link #MAX_ROWS_SHOWN} rows, values separated by " | ". */
    private static List<String> format(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> lines = new ArrayList<>();
        List<String> header = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            header.add(meta.getColumnLabel(i));
        }
        lines.add(String.join(" | ", header));
        int rows = 0;
        while (rs.next()) {
            if (++rows <= MAX_ROWS_SHOWN) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    values.add(String.valueOf(rs.getString(i)));
                }
                lines.add(String.join(" | ", values));
            }
        }
        if (rows > MAX_ROWS_SHOWN) {
            lines.add("... " + (rows - MAX_ROWS_SHOWN) + " more rows");
        }
        return lines;
    }
}
