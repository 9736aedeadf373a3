package org.oooengine.cluster.bench.chbench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * CH-benCHmark's 22 analytical queries over TPC-C's tables and supplier, nation and region, in
 * Hive SQL that DuckDB runs unchanged ({@code docs/queries/chbench}, packaged as resources
 * {@code queries/chbench/qNN.sql}).
 */
public final class ChQueries {
    public static final int COUNT = 22;
    /** The queries the seed's figures are measured with. */
    public static final List<Integer> SEED_QUERIES = List.of(1, 6, 19);

    private ChQueries() {
    }

    /** {@code q01} to {@code q22}. */
    public static String name(int number) {
        check(number);
        return String.format(Locale.ROOT, "q%02d", number);
    }

    /** The query numbers {@code spec} names: {@code all}, {@code seed} (1, 6, 19) or a comma-separated list such as {@code 1,6,q19}. */
    public static List<Integer> parse(String spec) {
        String s = spec.strip().toLowerCase(Locale.ROOT);
        if (s.equals("all")) {
            List<Integer> all = new ArrayList<>();
            for (int q = 1; q <= COUNT; q++) {
                all.add(q);
            }
            return all;
        }
        if (s.equals("seed")) {
            return SEED_QUERIES;
        }
        List<Integer> out = new ArrayList<>();
        for (String part : s.split(",")) {
            String p = part.strip();
            try {
                int q = Integer.parseInt(p.startsWith("q") ? p.substring(1) : p);
                check(q);
                out.add(q);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part + "' is not a CH-benCHmark query (1 to " + COUNT + ")");
            }
        }
        return out;
    }

    /** The Hive SQL text of query {@code number}. */
    public static String text(int number) {
        String resource = "/queries/chbench/" + name(number) + ".sql";
        try (InputStream in = ChQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource + "; rebuild it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static void check(int number) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("CH-benCHmark has queries 1 to " + COUNT + ", not " + number);
        }
    }
}
