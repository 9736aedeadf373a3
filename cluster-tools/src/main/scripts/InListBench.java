import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A 10,000-item IN list on lineitem against the BETWEEN that selects the same rows, through the
 * SQL endpoint; prints JSON: each query's median and every run's wall time in seconds, and the
 * rows each returned (they must agree). Usage: java -cp <ooo classpath> InListBench.java JDBC-URL [RUNS]
 */
public class InListBench {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        String items = IntStream.rangeClosed(1, 10_000).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        String in = "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey IN (" + items + ")";
        String between = "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey BETWEEN 1 AND 10000";
        Class.forName("org.apache.hive.jdbc.HiveDriver");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            StringBuilder json = new StringBuilder("{\"runs\": " + runs);
            for (String[] q : new String[][] {{"between", between}, {"in_10000", in}}) {
                List<Double> times = new ArrayList<>();
                String result = "";
                run(s, q[1]); // warm-up
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    result = run(s, q[1]);
                    times.add((System.nanoTime() - t0) / 1e9);
                }
                List<Double> sorted = new ArrayList<>(times);
                Collections.sort(sorted);
                json.append(String.format(", \"%s\": {\"median_s\": %.3f, \"runs_s\": %s, \"result\": \"%s\"}",
                        q[0], sorted.get(runs / 2), times.stream().map(t -> String.format("%.3f", t)).toList(), result));
            }
            System.out.println(json.append("}"));
        }
    }

    private static String run(Statement s, String sql) throws Exception {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1) + " rows, sum " + r.getString(2);
        }
    }
}
