package org.oooengine.hive.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.oooengine.hive.engine.SqlCluster.rows;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.net.WireCompression;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.engine.SqlCluster;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * Every {@code .test} file under {@code src/test/resources/sql} (the format: docs/testing.md),
 * run under each join method ({@code ooo.join.method} auto, index, hash) with joins broadcast as
 * the engine chooses and with none broadcast ({@code ooo.join.broadcast-max-bytes=0}): one file
 * checks all six plans. Two nodes hold TPC-H at SF 0.01 in {@code default}; each run of a file has
 * a database of its own, current for its statements, so the tables it creates start empty. The
 * members LZ4-compress the frames they send one another, so every file also checks that what is
 * shuffled, broadcast and gathered compressed arrives whole.
 */
class SqlLogicTest {
    private static final List<Map<String, String>> SETTINGS = settings();
    private static final AtomicInteger RUNS = new AtomicInteger();

    private static List<Map<String, String>> settings() {
        List<Map<String, String>> out = new ArrayList<>();
        for (String method : List.of("auto", "index", "hash")) {
            for (boolean broadcast : List.of(true, false)) {
                Map<String, String> s = new LinkedHashMap<>();
                s.put("ooo.join.method", method);
                if (!broadcast) {
                    s.put("ooo.join.broadcast-max-bytes", "0");
                }
                out.add(Map.copyOf(s));
            }
        }
        return out;
    }

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-slt", 2).wireCompression(WireCompression.LZ4);

    @TestFactory
    Stream<DynamicContainer> everyFileUnderEveryJoinSetting() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(directory())) {
            // -Dslt.only=name runs the files whose name holds it, while working on one
            String only = System.getProperty("slt.only", "");
            files = s.filter(p -> p.toString().endsWith(".test") && p.getFileName().toString().contains(only)).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no .test files in " + directory());
        List<DynamicContainer> out = new ArrayList<>();
        for (Path f : files) {
            SqlTestFile file = SqlTestFile.read(f);
            out.add(DynamicContainer.dynamicContainer(file.name(), SETTINGS.stream().map(s ->
                    DynamicTest.dynamicTest(label(s), () -> run(file, s)))));
        }
        return out.stream();
    }

    private static Path directory() throws URISyntaxException {
        return Path.of(SqlLogicTest.class.getResource("/sql").toURI());
    }

    private static String label(Map<String, String> settings) {
        return "method=" + settings.get("ooo.join.method") + ", broadcast-max-bytes="
                + settings.getOrDefault("ooo.join.broadcast-max-bytes", "default");
    }

    private static void run(SqlTestFile file, Map<String, String> settings) {
        String database = "slt" + RUNS.incrementAndGet();
        try (SqlSession admin = cluster.session()) {
            admin.execute("CREATE DATABASE " + database, new Cancellation());
        }
        try (SqlSession session = cluster.engine().openSession("test", database, settings)) {
            for (SqlTestFile.Record r : file.records()) {
                String where = file.name() + ":" + r.line() + " [" + label(settings) + "]";
                if (r instanceof SqlTestFile.Statement st) {
                    statement(session, st, where);
                } else {
                    query(session, (SqlTestFile.Query) r, where);
                }
            }
        }
        // each run's tables go with it, so that the next runs' loads do not carry every earlier run's tables over
        try (SqlSession admin = cluster.session()) {
            admin.execute("DROP DATABASE " + database + " CASCADE", new Cancellation());
        }
    }

    private static void statement(SqlSession session, SqlTestFile.Statement st, String where) {
        try {
            rows(session, st.sql());
        } catch (SqlException e) {
            if (!st.expectsError()) {
                fail(where + ": failed: " + e.sqlState() + " " + e.getMessage() + "\n" + st.sql(), e);
            }
            String fragment = st.errorFragment();
            assertTrue(fragment.isEmpty() || e.getMessage().contains(fragment) || fragment.equals(e.sqlState()),
                    where + ": the error '" + e.sqlState() + " " + e.getMessage() + "' does not hold '" + fragment + "'");
            return;
        }
        if (st.expectsError()) {
            fail(where + ": succeeded, expected an error" + (st.errorFragment().isEmpty() ? "" : " with '"
                    + st.errorFragment() + "'") + "\n" + st.sql());
        }
    }

    private static void query(SqlSession session, SqlTestFile.Query q, String where) {
        List<Object[]> result;
        try {
            result = rows(session, q.sql());
        } catch (SqlException e) {
            throw new AssertionError(where + ": failed: " + e.sqlState() + " " + e.getMessage() + "\n" + q.sql(), e);
        }
        List<List<String>> actual = new ArrayList<>();
        for (Object[] row : result) {
            assertEquals(q.types().length(), row.length, where + ": columns, as 'query " + q.types() + "' says");
            actual.add(SqlTestValues.render(row, q.types()));
        }
        List<List<String>> expected = q.expected().stream().map(l -> List.of(l.split("\t", -1))).toList();
        if (q.rowSort()) {
            actual.sort((a, b) -> String.join("\t", a).compareTo(String.join("\t", b)));
            List<List<String>> sorted = new ArrayList<>(expected);
            sorted.sort((a, b) -> String.join("\t", a).compareTo(String.join("\t", b)));
            expected = sorted;
        }
        String got = render(actual);
        assertEquals(expected.size(), actual.size(), where + ": rows; got\n" + got);
        for (int i = 0; i < actual.size(); i++) {
            List<String> e = expected.get(i);
            List<String> a = actual.get(i);
            boolean same = e.size() == a.size();
            for (int c = 0; same && c < a.size(); c++) {
                same = SqlTestValues.matches(a.get(c), e.get(c), q.types().charAt(c));
            }
            if (!same) {
                fail(where + ": row " + (i + 1) + " is " + String.join("\t", a) + ", expected " + String.join("\t", e)
                        + "; got\n" + got);
            }
        }
    }

    private static String render(List<List<String>> rows) {
        StringBuilder b = new StringBuilder();
        rows.forEach(r -> b.append(String.join("\t", r)).append('\n'));
        return b.toString();
    }
}
