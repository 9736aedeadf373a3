package org.oooengine.cluster.bench.tpcds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The 99 TPC-DS queries of {@code docs/queries/tpcds} in Hive SQL, packaged in the jar (resources
 * {@code queries/tpcds/qNN.sql}), and the one change DuckDB needs to run the same text.
 */
public final class TpcdsQueries {
    public static final int COUNT = 99;
    private static final Pattern BACKQUOTED = Pattern.compile("`([^`]*)`");

    private TpcdsQueries() {
    }

    public static List<Integer> all() {
        return IntStream.rangeClosed(1, COUNT).boxed().toList();
    }

    /** {@code q01} to {@code q99}. */
    public static String name(int number) {
        check(number);
        return String.format(Locale.ROOT, "q%02d", number);
    }

    /** The number of a query given as {@code 5}, {@code q5} or {@code q05}. */
    public static int number(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            int n = Integer.parseInt(t.startsWith("q") ? t.substring(1) : t);
            check(n);
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a TPC-DS query (q1 to q" + COUNT + ")");
        }
    }

    /** The Hive SQL text of query {@code number}, without the trailing semicolon. */
    public static String text(int number) {
        String resource = "/queries/tpcds/" + name(number) + ".sql";
        try (InputStream in = TpcdsQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource + "; rebuild it");
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * The text for DuckDB: Hive quotes identifiers in backquotes, DuckDB in double quotes (the
     * queries have no string containing a backquote).
     */
    public static String forDuckDb(String hiveSql) {
        return BACKQUOTED.matcher(hiveSql).replaceAll(m -> Matcher.quoteReplacement("\"" + m.group(1) + "\""));
    }

    /**
     * Whether the outermost statement orders its rows (an ORDER BY outside every parenthesis, so not
     * a window's): the rows are then compared in order. Comments and strings are skipped.
     */
    public static boolean ordered(String sql) {
        String s = sql.toLowerCase(Locale.ROOT);
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-' && s.startsWith("--", i)) {
                int eol = s.indexOf('\n', i);
                i = eol < 0 ? s.length() : eol;
            } else if (c == '\'') {
                int close = s.indexOf('\'', i + 1);
                i = close < 0 ? s.length() : close;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && s.startsWith("order", i) && s.substring(i + 5).stripLeading().startsWith("by")
                    && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)) && s.charAt(i - 1) != '_')) {
                return true;
            }
        }
        return false;
    }

    public static void check(int number) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("TPC-DS queries are numbered 1 to " + COUNT + ", got " + number);
        }
    }
}
