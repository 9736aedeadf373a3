package org.oooengine.hive.slt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code .test} file in the style of DuckDB's sqllogictest: records separated by blank lines,
 * {@code #} comments between them. A record is {@code statement ok}, {@code statement error
 * [fragment]} (the fragment, or DuckDB's lines after {@code ----}, must be in the error message or be
 * its SQLSTATE), or {@code query <types> [rowsort|nosort]}, its SQL, {@code ----} and the expected
 * rows, values separated by tabs. The format is in docs/testing.md.
 */
record SqlTestFile(String name, List<Record> records) {
    /** One record; {@code line} is where its directive is, for messages. */
    sealed interface Record permits Statement, Query {
        int line();

        String sql();
    }

    /** A statement that must succeed ({@code errorFragment} null) or fail with the fragment in its message. */
    record Statement(int line, String sql, String errorFragment) implements Record {
        boolean expectsError() {
            return errorFragment != null;
        }
    }

    /** A query: one type letter per column (I integer, R real or decimal, T text), the sort mode, the rows. */
    record Query(int line, String sql, String types, boolean rowSort, List<String> expected) implements Record {
    }

    static SqlTestFile read(Path file) throws IOException {
        return parse(file.getFileName().toString(), Files.readAllLines(file));
    }

    static SqlTestFile parse(String name, List<String> lines) {
        List<Record> records = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                i++;
                continue;
            }
            int at = i + 1;
            String[] words = line.split("\\s+");
            i++;
            List<String> sql = new ArrayList<>();
            while (i < lines.size() && !lines.get(i).isBlank() && !lines.get(i).strip().equals("----")) {
                sql.add(lines.get(i++));
            }
            if (sql.isEmpty()) {
                throw new IllegalArgumentException(name + ":" + at + ": '" + line + "' has no SQL after it");
            }
            boolean separator = i < lines.size() && lines.get(i).strip().equals("----");
            List<String> after = new ArrayList<>();
            if (separator) {
                i++;
                while (i < lines.size() && !lines.get(i).isBlank()) {
                    after.add(lines.get(i++));
                }
            }
            String text = String.join("\n", sql);
            switch (words[0].toLowerCase(Locale.ROOT)) {
                case "statement" -> records.add(statement(name, at, words, line, text, separator, after));
                case "query" -> records.add(query(name, at, words, text, separator, after));
                default -> throw new IllegalArgumentException(name + ":" + at + ": unknown record '" + line
                        + "' (statement ok, statement error, query)");
            }
        }
        return new SqlTestFile(name, List.copyOf(records));
    }

    private static Statement statement(String name, int at, String[] words, String line, String sql, boolean separator,
                                       List<String> after) {
        if (words.length == 2 && words[1].equalsIgnoreCase("ok") && !separator) {
            return new Statement(at, sql, null);
        }
        if (words.length >= 2 && words[1].equalsIgnoreCase("error")) {
            String fragment = line.substring(line.toLowerCase(Locale.ROOT).indexOf("error") + "error".length()).strip();
            if (separator) {
                fragment = (fragment + "\n" + String.join("\n", after)).strip();
            }
            return new Statement(at, sql, fragment);
        }
        throw new IllegalArgumentException(name + ":" + at + ": expected 'statement ok' or 'statement error [fragment]', got '"
                + line + "'");
    }

    private static Query query(String name, int at, String[] words, String sql, boolean separator, List<String> after) {
        if (words.length < 2 || !words[1].matches("[IRT]+")) {
            throw new IllegalArgumentException(name + ":" + at + ": 'query' needs its column types, e.g. 'query ITR'");
        }
        if (!separator) {
            throw new IllegalArgumentException(name + ":" + at + ": a query needs '----' and its rows after its SQL");
        }
        boolean rowSort = false;
        if (words.length > 2) {
            switch (words[2].toLowerCase(Locale.ROOT)) {
                case "rowsort" -> rowSort = true;
                case "nosort" -> rowSort = false;
                default -> throw new IllegalArgumentException(name + ":" + at + ": unknown sort mode '" + words[2]
                        + "' (rowsort, nosort)");
            }
        }
        return new Query(at, sql, words[1], rowSort, List.copyOf(after));
    }
}
