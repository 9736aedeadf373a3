package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * The accident: a disk flips bytes in node n2's files of lineitem. A full scan and an index join
 * that meet the damage both fail with the same SQLSTATE, data corruption (XX001, not 08S01 which
 * would make a connection pool drop a healthy connection), with a message naming the node once,
 * the file and the page (or the columnar copy's offset). Tables the damage does not touch still read.
 */
class CorruptPageTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-corrupt-page", 3)
            .engine(tpch -> new ClusterSqlEngine(tpch.session, SqlCluster.catalogFile(tpch)));

    @BeforeAll
    static void start() throws Exception {
        List<Path> damaged = damage(cluster.tpch().dir.resolve("cluster"), "n2", "lineitem");
        assertTrue(!damaged.isEmpty(), "no file of lineitem found on n2");
    }

    @Test
    void theScanAndTheIndexJoinReportTheSameCorruptionNamingNodeFileAndPage() throws Exception {
        SqlException scan = fail(Map.of(), "SELECT count(*), sum(l_quantity) FROM lineitem");
        String ol = TpchQueriesTest.text("queries/joins/ol.sql").replace("${lo}", "1").replace("${hi}", "600000");
        SqlException join = fail(Map.of("ooo.join.method", "index"), ol);
        for (SqlException e : List.of(scan, join)) {
            assertEquals(SqlException.DATA_CORRUPTED, e.sqlState(), e.getMessage());
            // the scan reads the columnar copy, the index join the tree's pages
            assertTrue(e.getMessage().contains(e == scan ? "corrupt columnar copy" : "corrupt page"), e.getMessage());
            assertTrue(e.getMessage().contains("lineitem"), e.getMessage());
            assertEquals(1, occurrences(e.getMessage(), "node n2"), e.getMessage());
        }
        try (SqlSession s = cluster.session()) {
            Object[] row = s.execute("SELECT count(*) FROM nation", new Cancellation()).rows().next();
            assertEquals(25L, ((Number) row[0]).longValue());
        }
    }

    private static SqlException fail(Map<String, String> settings, String sql) {
        try (SqlSession s = cluster.session(settings)) {
            return assertThrows(SqlException.class, () -> s.execute(sql, new Cancellation()).rows().forEachRemaining(r -> { }));
        }
    }

    /** Flips a byte in every 4 KiB past the first 64 KiB (the tree's meta page stays whole). */
    private static List<Path> damage(Path cluster, String node, String table) throws Exception {
        List<Path> files = new ArrayList<>();
        Path store = cluster.resolve("nodes").resolve(node).resolve("store");
        org.oooengine.core.store.StoreManifest.TableMeta meta = org.oooengine.core.store.StoreManifest.read(store).table(table);
        Stream.concat(Stream.of(meta.file(), meta.columnsFile()), meta.indexes().stream().map(ix -> ix.file()))
                .map(store::resolve)
                .filter(p -> p.toFile().length() > (1 << 17))
                .forEach(files::add);
        for (Path f : files) {
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                for (long at = 1 << 16; at < raf.length(); at += 4096) {
                    raf.seek(at + 100);
                    int b = raf.read();
                    raf.seek(at + 100);
                    raf.write(b ^ 0xff);
                }
            }
        }
        return files;
    }

    private static int occurrences(String text, String word) {
        Matcher m = Pattern.compile(Pattern.quote(word) + "\\b").matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
