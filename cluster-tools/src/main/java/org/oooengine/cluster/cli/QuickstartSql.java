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
 * coordinator, as any JDBC client or beeline would send them, with their results and timings.
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

    /** A selective join: a narrow price range of orders, probed into lineitem by key. */
    static final String SELECTIVE_JOIN = "select count(*) from orders join lineitem on o_orderkey = l_orderkey "
            + "where o_totalprice between 100000 and 100500";

    private record Query(String title, String sql) {
    }

    private static final List<Query> QUERIES = List.of(
            new Query("the tables", "show tables"),
            new Query("TPC-H Q6 (a scan of lineitem on every node, summed on the coordinator)", Q6),
            new Query("a selective join (orders in a narrow price range, their lineitems)", SELECTIVE_JOIN));

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
                    long start = System.nanoTime();
                    try (ResultSet rs = s.executeQuery(q.sql())) {
                        List<String> lines = format(rs);
                        double seconds = (System.nanoTime() - start) / 1e9;
                        lines.forEach(line -> out.println("  " + line));
                        out.printf(Locale.ROOT, "  (%.2f s)%n", seconds);
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
