import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import org.oooengine.cluster.bench.tpcds.TpcdsDuckDb;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.core.tpcds.TpcdsSchema;

/**
 * The TPC-DS tables exactly as 'ooo load tpcds' loads them (same generator, same column types),
 * written as Parquet files other engines read: OUT/<table>.parquet, one per table. The rows go
 * first into the DuckDB file 'ooo bench tpcds' checks the engine against (made here unless it
 * already holds this scale factor), then each table is copied from it, so the benchmark's three
 * readers see the same rows. Usage: java -cp <ooo classpath> TpcdsData.java SF DUCKDB_FILE OUT
 */
public class TpcdsData {
    public static void main(String[] args) throws Exception {
        double sf = Double.parseDouble(args[0]);
        Path duckdb = Path.of(args[1]).toAbsolutePath();
        Path out = Files.createDirectories(Path.of(args[2]));
        long[] started = {System.nanoTime()};
        // The loader reports 0 rows when it starts a table and done == expected when it ends it.
        TpcdsDuckDb.inFile(duckdb, new TpcdsGenerator(sf), (table, done, expected) -> {
            if (done == 0) {
                started[0] = System.nanoTime();
            } else if (done == expected) {
                System.err.printf("%-30s %,11d rows  %.1f s%n", table, done, (System.nanoTime() - started[0]) / 1e9);
            }
        }).close();
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:" + duckdb, readOnly);
             Statement st = conn.createStatement()) {
            for (String table : TpcdsSchema.tableNames()) {
                Path target = out.resolve(table + ".parquet");
                if (Files.exists(target)) {
                    continue;
                }
                Path tmp = out.resolve(table + ".parquet.tmp");
                st.execute("COPY " + table + " TO '" + tmp + "' (FORMAT parquet)");
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                System.err.printf("%-30s Parquet %,d KiB%n", table, Files.size(target) / 1024);
            }
        }
    }
}
