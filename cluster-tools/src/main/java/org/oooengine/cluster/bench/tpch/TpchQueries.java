package org.oooengine.cluster.bench.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H queries of {@code docs/queries/tpch} in Hive SQL, packaged in the jar (resources
 * {@code queries/tpch/qNN.sql}) so the benchmark runs without the project beside it.
 */
public final class TpchQueries {
    public static final int COUNT = 22;

    private TpchQueries() {
    }

    /** Every query number, 1 to 22. */
    public static List<Integer> all() {
        return IntStream.rangeClosed(1, COUNT).boxed().toList();
    }

    /** The file name of query {@code number} without its extension: {@code q01} to {@code q22}. */
    public static String name(int number) {
        check(number);
        return String.format(Locale.ROOT, "q%02d", number);
    }

    /** The SQL text of query {@code number}, without the trailing semicolon. */
    public static String text(int number) {
        String resource = "/queries/tpch/" + name(number) + ".sql";
        try (InputStream in = TpchQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource + "; rebuild it");
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The queries {@code numbers} names, each checked; every query when null. */
    public static List<Integer> chosen(List<Integer> numbers) {
        if (numbers == null) {
            return all();
        }
        numbers.forEach(TpchQueries::check);
        return List.copyOf(numbers);
    }

    /** The scale factor the cluster {@code sql} reaches was loaded at: TPC-H has 10,000 suppliers per unit. */
    public static double scaleFactor(org.oooengine.hive.sql.SqlSession sql) {
        Object[] row = sql.execute("SELECT count(*) FROM supplier", new org.oooengine.hive.sql.Cancellation()).rows().next();
        return ((Number) row[0]).longValue() / 10_000.0;
    }

    public static void check(int number) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("TPC-H queries are numbered 1 to " + COUNT + ", got " + number);
        }
    }
}
