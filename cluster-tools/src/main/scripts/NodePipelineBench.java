import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries whose work moved to the nodes — TPC-H Q1 and Q6 (a filter and an aggregate over
 * lineitem) and a range of lineitem's clustered key — through the SQL endpoint; prints JSON: each
 * query's median and every run's wall time in seconds, and its first row (runs must agree).
 * Usage: java -cp <ooo classpath> NodePipelineBench.java JDBC-URL TPCH-QUERY-DIR [RUNS]
 */
public class NodePipelineBench {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        Path queries = Path.of(args[1]);
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Map<String, String> sql = new LinkedHashMap<>();
        sql.put("q01", text(queries.resolve("q01.sql")));
        sql.put("q06", text(queries.resolve("q06.sql")));
        sql.put("orderkey_below_1000", "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey < 1000");
        sql.put("count_all", "SELECT count(*), sum(l_quantity) FROM lineitem");
        Class.forName("org.apache.hive.jdbc.HiveDriver");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            StringBuilder json = new StringBuilder("{\"runs\": " + runs);
            for (Map.Entry<String, String> q : sql.entrySet()) {
                List<Double> times = new ArrayList<>();
                String result = run(s, q.getValue()); // warm-up
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    result = run(s, q.getValue());
                    times.add((System.nanoTime() - t0) / 1e9);
                }
                List<Double> sorted = new ArrayList<>(times);
                Collections.sort(sorted);
                json.append(String.format(", \"%s\": {\"median_s\": %.3f, \"runs_s\": %s, \"first_row\": \"%s\"}",
                        q.getKey(), sorted.get(runs / 2), times.stream().map(t -> String.format("%.3f", t)).toList(), result));
            }
            System.out.println(json.append("}"));
        }
    }

    private static String text(Path file) throws Exception {
        return Files.readString(file).strip().replaceAll(";$", "");
    }

    private static String run(Statement s, String sql) throws Exception {
        try (ResultSet r = s.executeQuery(sql)) {
            StringBuilder first = new StringBuilder();
            if (r.next()) {
                for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                    first.append(i > 1 ? "|" : "").append(r.getString(i));
                }
            }
            while (r.next()) {
                // read every row, as a client does
            }
            return first.toString();
        }
    }
}
