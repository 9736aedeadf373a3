package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * Table and database names are user text, never paths: the names an attacker used to overwrite
 * files outside the store, corrupt a node's table or make the nodes share one file are refused
 * by name, every name that is accepted (any script, up to 128 characters) stores its files under
 * an internal id inside each node's store, DROP removes every one of them, and a CREATE that fails
 * on one node leaves the table on none.
 */
class TableNamesTest {
    /** A file outside every store, where the attack aimed. */
    private static Path victim;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-names-test", 3)
            .keepingCatalog(Map.of());

    @BeforeAll
    static void start() throws Exception {
        victim = cluster.tpch().dir.resolve("probe-victim.data");
        Files.writeString(victim, "precious\n");
    }

    private static SqlSession session() {
        return cluster.session();
    }

    private static StatementResult run(SqlSession s, String sql) {
        return s.execute(sql, new Cancellation());
    }

    private static List<String> rows(SqlSession s, String sql) {
        List<String> out = new ArrayList<>();
        run(s, sql).rows().forEachRemaining(r -> out.add(Arrays.toString(r)));
        return out;
    }

    private static SqlException refused(SqlSession s, String sql) {
        return assertThrows(SqlException.class, () -> run(s, sql), sql);
    }

    @Test
    void namesThatWouldBePathsAreRefusedAndTouchNothing() throws Exception {
        SqlSession s = session();
        Set<String> before = storeFiles();
        String up = "../".repeat(cluster.tpch().dir.getNameCount() + 4);
        List<String> attacks = List.of(
                "CREATE TABLE `" + up + victim.toString().substring(1).replace(".data", "") + "` (id int, "
                        + "PRIMARY KEY (id) DISABLE NOVALIDATE)",
                "CREATE DATABASE `" + cluster.tpch().dir.resolve("probe-abs") + "`",
                "CREATE TABLE `../store/region` (r int)",
                "CREATE DATABASE `../../evil`",
                "CREATE TABLE `../../evil`.t1 (id int, v string)",
                "CREATE TABLE `a\\b` (x int)",
                "CREATE TABLE `sales.items` (x int)");
        for (String sql : attacks) {
            SqlException e = refused(s, sql);
            assertTrue(e.getMessage().contains("names may not hold") || e.getMessage().contains("database does not exist"),
                    sql + ": " + e.getMessage());
        }
        assertEquals("precious\n", Files.readString(victim));
        assertFalse(Files.exists(cluster.tpch().dir.resolve("probe-abs.t2.data")));
        assertEquals(before, storeFiles(), "no node's store changed");
        assertEquals(List.of("[5]"), rows(s, "SELECT count(*) FROM region"), "region is intact on every node");
        assertTrue(rows(s, "SHOW DATABASES").stream().noneMatch(d -> d.contains("evil") || d.contains("probe")));
    }

    @Test
    void overlongAndInvisibleNamesAreRefusedByName() {
        SqlSession s = session();
        SqlException longName = refused(s, "CREATE TABLE `" + "x".repeat(10_000) + "` (id int)");
        assertTrue(longName.getMessage().contains("has 10000 characters; names have at most 128"), longName.getMessage());
        assertEquals(SqlException.SYNTAX, longName.sqlState());
        SqlException longDb = refused(s, "CREATE DATABASE `" + "d".repeat(129) + "`");
        assertTrue(longDb.getMessage().contains("at most 128"), longDb.getMessage());
        SqlException control = refused(s, "CREATE TABLE `tab\u0001le` (id int)");
        assertTrue(control.getMessage().contains("U+0001"), control.getMessage());
        SqlException bidi = refused(s, "CREATE TABLE `abc\u202Etxt` (id int)");
        assertTrue(bidi.getMessage().contains("U+202E"), bidi.getMessage());
        SqlException column = refused(s, "CREATE TABLE fine (`c\u0000` int)");
        assertTrue(column.getMessage().contains("column name"), column.getMessage());
    }

    @Test
    void anyScriptAndTheLongestNameWorkAndDropRemovesEveryFile() throws Exception {
        SqlSession s = session();
        Set<String> before = storeFiles();
        String unicode = "ventes_été_東京_продажи";
        String longest = "l".repeat(128);
        run(s, "CREATE TABLE `" + unicode + "` (id int, name string, PRIMARY KEY (id) DISABLE NOVALIDATE) "
                + "TBLPROPERTIES ('ooo.indexes'='name')");
        run(s, "INSERT INTO `" + unicode + "` VALUES (1, 'un'), (2, 'deux'), (3, 'trois')");
        run(s, "CREATE TABLE `" + longest + "` AS SELECT n_nationkey, n_name FROM nation");
        assertEquals(List.of("[2, deux]"), rows(s, "SELECT id, name FROM `" + unicode + "` WHERE name = 'deux'"));
        assertEquals(List.of("[25]"), rows(s, "SELECT count(*) FROM `" + longest + "`"));
        assertTrue(rows(s, "SHOW TABLES").contains("[" + unicode + "]"));

        Set<String> created = storeFiles();
        created.removeAll(before);
        assertFalse(created.isEmpty());
        for (String f : created) {
            assertTrue(f.matches("n\\d/store/(ventes_t__|l{40})-[0-9a-f]{16}\\.(data|cols|\\d+\\.idx)"), "named by an id: " + f);
        }
        for (ClusterSpec.NodeSpec n : cluster.tpch().cluster.spec.nodes()) {
            StoreManifest m = StoreManifest.read(storeDir(n));
            assertTrue(m.tables().stream().anyMatch(t -> t.name().equals(unicode)), n.id() + " holds " + unicode);
        }

        run(s, "DROP TABLE `" + unicode + "`");
        run(s, "DROP TABLE `" + longest + "`");
        assertEquals(before, storeFiles(), "DROP removed every file the tables had");
    }

    @Test
    void aCreateThatFailsOnOneNodeLeavesTheTableOnNone() throws Exception {
        SqlSession s = session();
        Set<String> before = storeFiles();
        cluster.tpch().cluster.stop("n3");
        try {
            SqlException e = refused(s, "CREATE TABLE half (id int, PRIMARY KEY (id) DISABLE NOVALIDATE)");
            assertTrue(e.getMessage().contains("n3"), e.getMessage());
        } finally {
            cluster.tpch().cluster.restart("n3");
        }
        assertTrue(rows(s, "SHOW TABLES").stream().noneMatch(t -> t.equals("[half]")));
        assertEquals(before, storeFiles(), "no node keeps a part of the table");
        for (ClusterSpec.NodeSpec n : cluster.tpch().cluster.spec.nodes()) {
            assertTrue(StoreManifest.read(storeDir(n)).tables().stream().noneMatch(t -> t.name().equals("half")), n.id());
        }
        run(s, "CREATE TABLE half (id int, PRIMARY KEY (id) DISABLE NOVALIDATE)");
        run(s, "INSERT INTO half VALUES (1), (2), (3)");
        assertEquals(List.of("[3]"), rows(s, "SELECT count(*) FROM half"));
        run(s, "DROP TABLE half");
    }

    private static Path storeDir(ClusterSpec.NodeSpec n) {
        return cluster.tpch().cluster.spec.dataDir(cluster.tpch().cluster.dir, n).resolve("store");
    }

    /** The files of every node's store, as {@code node/store/file}. */
    private static Set<String> storeFiles() throws IOException {
        Set<String> files = new TreeSet<>();
        for (ClusterSpec.NodeSpec n : cluster.tpch().cluster.spec.nodes()) {
            Path dir = storeDir(n);
            try (Stream<Path> list = Files.list(dir)) {
                list.filter(f -> Files.isRegularFile(f) && !f.getFileName().toString().endsWith(".json"))
                        .forEach(f -> files.add(n.id() + "/store/" + f.getFileName()));
            }
        }
        return files;
    }
}
