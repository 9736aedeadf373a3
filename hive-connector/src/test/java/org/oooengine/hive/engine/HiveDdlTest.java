package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * Hive's constraints (PRIMARY KEY and FOREIGN KEY ... DISABLE NOVALIDATE, named or not) kept in the
 * catalog across coordinators and shown by DESCRIBE FORMATTED; SHOW CREATE TABLE of tables and
 * views run again recreates them as they were; ALTER TABLE ... RENAME TO carries the foreign keys
 * that reference the table; ALTER TABLE ... ADD and DROP CONSTRAINT; ALTER VIEW ... RENAME TO.
 */
class HiveDdlTest {

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-hive-ddl-test", 2, TpchTable.NATION, TpchTable.REGION)
            .keepingCatalog(Map.of());

    private static final String ZONES = "CREATE TABLE zones (z INT, name STRING, "
            + "CONSTRAINT pk_zone PRIMARY KEY (z) DISABLE NOVALIDATE RELY)";
    private static final String CITIES = "CREATE TABLE cities ("
            + "id INT PRIMARY KEY DISABLE NOVALIDATE COMMENT 'the city\\'s number', "
            + "name STRING COMMENT 'a \\\\ and a \\' in a comment', zone INT, nation INT, "
            + "pop DECIMAL(12,2), founded DATE, code CHAR(3), alias VARCHAR(20), area BIGINT, lat DOUBLE, "
            + "capital BOOLEAN, "
            + "CONSTRAINT fk_zone FOREIGN KEY (zone) REFERENCES zones(z) DISABLE NOVALIDATE, "
            + "FOREIGN KEY (nation) REFERENCES default.nation(n_nationkey) DISABLE NOVALIDATE RELY) "
            + "COMMENT 'cities we know' ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE "
            + "TBLPROPERTIES ('ooo.indexes'='name', 'owner'='geo')";

    @Test
    void constraintsAreKeptDescribedAndWrittenBack() throws Exception {
        try (SqlSession s = session()) {
            run(s, "DROP TABLE IF EXISTS cities");
            run(s, "DROP TABLE IF EXISTS zones");
            run(s, ZONES);
            run(s, CITIES);
            run(s, "INSERT INTO cities VALUES (1, 'Lyon', 7, 6, 516092.00, DATE '0043-10-01', 'LYS', 'Lugdunum', 48, 45.76, false)");
            String described = text(run(s, "DESCRIBE FORMATTED cities"));
            assertTrue(described.contains("# Primary Key\nTable: default.cities\nConstraint Name:\nColumn Name: id"),
                    described);
            assertTrue(described.contains("# Foreign Keys\nTable: default.cities\nConstraint Name: fk_zone\n"
                    + "Parent Column Name: default.zones.z Column Name: zone, Key Sequence: 1\nRely: false"), described);
            assertTrue(described.contains("Parent Column Name: default.nation.n_nationkey Column Name: nation, "
                    + "Key Sequence: 1\nRely: true"), described);
            assertTrue(text(run(s, "DESCRIBE FORMATTED zones")).contains("Constraint Name: pk_zone\nColumn Name: z\nRely: true"));

            String created = lines(run(s, "SHOW CREATE TABLE cities"));
            assertEquals(String.join("\n",
                    "CREATE TABLE `default`.`cities` (",
                    "  `id` int COMMENT 'the city\\'s number',",
                    "  `name` string COMMENT 'a \\\\ and a \\' in a comment',",
                    "  `zone` int,",
                    "  `nation` int,",
                    "  `pop` decimal(12,2),",
                    "  `founded` date,",
                    "  `code` char(3),",
                    "  `alias` varchar(20),",
                    "  `area` bigint,",
                    "  `lat` double,",
                    "  `capital` boolean,",
                    "  PRIMARY KEY (`id`) DISABLE NOVALIDATE,",
                    "  CONSTRAINT `fk_zone` FOREIGN KEY (`zone`) REFERENCES `default`.`zones` (`z`) DISABLE NOVALIDATE,",
                    "  FOREIGN KEY (`nation`) REFERENCES `default`.`nation` (`n_nationkey`) DISABLE NOVALIDATE RELY",
                    ")",
                    "COMMENT 'cities we know'",
                    "ROW FORMAT DELIMITED FIELDS TERMINATED BY '|'",
                    "STORED AS TEXTFILE",
                    "TBLPROPERTIES (",
                    "  'ooo.indexes'='name',",
                    "  'owner'='geo'",
                    ")"), created);
            List<String> columns = render(run(s, "DESCRIBE cities"));
            run(s, "DROP TABLE cities");
            run(s, created);
            assertEquals(created, lines(run(s, "SHOW CREATE TABLE cities")));
            assertEquals(columns, render(run(s, "DESCRIBE cities")));
            assertEquals(tableInformation(described), tableInformation(text(run(s, "DESCRIBE FORMATTED cities"))));
            // the recreated table works as the first did: keyed, indexed, with the same types
            run(s, "INSERT INTO cities VALUES (1, 'Lyon', 7, 6, 516092.00, DATE '0043-10-01', 'LYS', 'Lugdunum', 48, 45.76, false)");
            SqlException repeated = assertThrows(SqlException.class,
                    () -> run(s, "INSERT INTO cities VALUES (1, 'Vienne', 7, 6, 1.00, NULL, NULL, NULL, NULL, NULL, NULL)"));
            assertEquals(SqlException.CONSTRAINT, repeated.sqlState());
            assertEquals(List.of("[Lyon, FRANCE]"), render(run(s,
                    "SELECT c.name, n_name FROM cities c JOIN nation ON c.nation = n_nationkey WHERE c.name = 'Lyon'")));
        }
        // a coordinator started anew reads the constraints from the catalog file
        try (ClusterSqlEngine again = new ClusterSqlEngine(cluster.tpch().session, cluster.tpch().cluster.dir,
                cluster.catalogFile(), Map.of());
             SqlSession s = again.openSession("test", "default", Map.of())) {
            String created = lines(run(s, "SHOW CREATE TABLE cities"));
            assertTrue(created.contains("CONSTRAINT `fk_zone` FOREIGN KEY (`zone`) REFERENCES `default`.`zones` (`z`)"),
                    created);
            assertTrue(lines(run(s, "SHOW CREATE TABLE zones")).contains(
                    "  CONSTRAINT `pk_zone` PRIMARY KEY (`z`) DISABLE NOVALIDATE RELY"));
        }
    }

    @Test
    void foreignKeysHiveWouldRefuseAreRefused() {
        try (SqlSession s = session()) {
            run(s, "CREATE TABLE IF NOT EXISTS parents (p INT, PRIMARY KEY (p) DISABLE NOVALIDATE)");
            SqlException enforced = assertThrows(SqlException.class, () -> run(s,
                    "CREATE TABLE kids (k INT, p INT, FOREIGN KEY (p) REFERENCES parents(p))"));
            assertEquals(SqlException.NOT_SUPPORTED, enforced.sqlState());
            assertTrue(enforced.getMessage().startsWith("not supported yet: an enforced FOREIGN KEY"), enforced.getMessage());
            SqlException enabled = assertThrows(SqlException.class, () -> run(s,
                    "CREATE TABLE kids (k INT, p INT REFERENCES parents(p) ENABLE)"));
            assertEquals(SqlException.NOT_SUPPORTED, enabled.sqlState());
            SqlException notKey = assertThrows(SqlException.class, () -> run(s,
                    "CREATE TABLE kids (k INT, r STRING, FOREIGN KEY (r) REFERENCES nation(n_name) DISABLE NOVALIDATE)"));
            assertTrue(notKey.getMessage().contains("which is not its primary key (n_nationkey)"), notKey.getMessage());
            SqlException missing = assertThrows(SqlException.class, () -> run(s,
                    "CREATE TABLE kids (k INT, p INT, FOREIGN KEY (p) REFERENCES nobody(p) DISABLE NOVALIDATE)"));
            assertEquals(SqlException.UNKNOWN_TABLE, missing.sqlState());
            SqlException column = assertThrows(SqlException.class, () -> run(s,
                    "CREATE TABLE kids (k INT, FOREIGN KEY (q) REFERENCES parents(p) DISABLE NOVALIDATE)"));
            assertEquals(SqlException.UNKNOWN_COLUMN, column.sqlState());
            SqlException unique = assertThrows(SqlException.class, () -> run(s,
                    "CREATE TABLE kids (k INT, UNIQUE (k) DISABLE NOVALIDATE)"));
            assertEquals(SqlException.NOT_SUPPORTED, unique.sqlState());
            // a table may reference itself
            run(s, "CREATE TABLE staff (id INT, boss INT, PRIMARY KEY (id) DISABLE NOVALIDATE, "
                    + "FOREIGN KEY (boss) REFERENCES staff(id) DISABLE NOVALIDATE)");
            assertTrue(lines(run(s, "SHOW CREATE TABLE staff")).contains(
                    "FOREIGN KEY (`boss`) REFERENCES `default`.`staff` (`id`) DISABLE NOVALIDATE"));
            run(s, "DROP TABLE staff");
        }
    }

    @Test
    void foreignKeysAreAddedAndDroppedByAlterTable() {
        try (SqlSession s = session()) {
            run(s, "CREATE TABLE IF NOT EXISTS owners (o INT, CONSTRAINT pk_owner PRIMARY KEY (o) DISABLE NOVALIDATE)");
            run(s, "CREATE TABLE IF NOT EXISTS dogs (d INT, o INT, r INT)");
            run(s, "ALTER TABLE dogs ADD CONSTRAINT fk_owner FOREIGN KEY (o) REFERENCES owners(o) DISABLE NOVALIDATE");
            run(s, "ALTER TABLE dogs ADD CONSTRAINT fk_region FOREIGN KEY (r) REFERENCES region(r_regionkey) "
                    + "DISABLE NOVALIDATE RELY");
            String created = lines(run(s, "SHOW CREATE TABLE dogs"));
            assertTrue(created.contains("  CONSTRAINT `fk_owner` FOREIGN KEY (`o`) REFERENCES `default`.`owners` (`o`) "
                    + "DISABLE NOVALIDATE,\n  CONSTRAINT `fk_region` FOREIGN KEY (`r`) REFERENCES `default`.`region` "
                    + "(`r_regionkey`) DISABLE NOVALIDATE RELY\n)"), created);
            SqlException twice = assertThrows(SqlException.class, () -> run(s,
                    "ALTER TABLE dogs ADD CONSTRAINT fk_owner FOREIGN KEY (o) REFERENCES owners(o) DISABLE NOVALIDATE"));
            assertEquals(SqlException.ALREADY_EXISTS, twice.sqlState());
            SqlException enforced = assertThrows(SqlException.class, () -> run(s,
                    "ALTER TABLE dogs ADD CONSTRAINT fk_x FOREIGN KEY (o) REFERENCES owners(o)"));
            assertEquals(SqlException.NOT_SUPPORTED, enforced.sqlState());
            SqlException key = assertThrows(SqlException.class, () -> run(s,
                    "ALTER TABLE dogs ADD CONSTRAINT pk_dog PRIMARY KEY (d) DISABLE NOVALIDATE"));
            assertTrue(key.getMessage().contains("the primary key is fixed when the table is created"), key.getMessage());
            run(s, "ALTER TABLE dogs DROP CONSTRAINT fk_owner");
            created = lines(run(s, "SHOW CREATE TABLE dogs"));
            assertTrue(!created.contains("fk_owner") && created.contains("fk_region"), created);
            SqlException gone = assertThrows(SqlException.class, () -> run(s, "ALTER TABLE dogs DROP CONSTRAINT fk_owner"));
            assertTrue(gone.getMessage().contains("has no constraint fk_owner"), gone.getMessage());
            SqlException primary = assertThrows(SqlException.class,
                    () -> run(s, "ALTER TABLE owners DROP CONSTRAINT pk_owner"));
            assertEquals(SqlException.NOT_SUPPORTED, primary.sqlState());
            run(s, "DROP TABLE dogs");
            run(s, "DROP TABLE owners");
        }
    }

    @Test
    void renamingATableCarriesTheKeysThatReferenceIt() {
        try (SqlSession s = session()) {
            run(s, "CREATE DATABASE IF NOT EXISTS shop");
            run(s, "CREATE TABLE shop.makers (m INT, PRIMARY KEY (m) DISABLE NOVALIDATE)");
            run(s, "CREATE TABLE shop.goods (g INT, m INT, FOREIGN KEY (m) REFERENCES shop.makers(m) DISABLE NOVALIDATE)");
            run(s, "INSERT INTO shop.makers VALUES (1), (2)");
            run(s, "ALTER TABLE shop.makers RENAME TO default.brands");
            assertEquals(List.of("[2]"), render(run(s, "SELECT count(*) FROM brands")));
            assertTrue(lines(run(s, "SHOW CREATE TABLE shop.goods")).contains(
                    "REFERENCES `default`.`brands` (`m`) DISABLE NOVALIDATE"));
            SqlException keyed = assertThrows(SqlException.class, () -> run(s, "ALTER TABLE brands CHANGE m maker INT"));
            assertEquals(SqlException.NOT_SUPPORTED, keyed.sqlState());
            SqlException referenced = assertThrows(SqlException.class,
                    () -> run(s, "ALTER TABLE shop.goods CHANGE m maker INT"));
            assertTrue(referenced.getMessage().contains("which is in a foreign key"), referenced.getMessage());
            run(s, "DROP DATABASE shop CASCADE");
            run(s, "DROP TABLE brands");
        }
    }

    @Test
    void showCreateOfAViewRecreatesIt() {
        try (SqlSession s = session()) {
            run(s, "CREATE VIEW IF NOT EXISTS big_nations (id COMMENT 'its key', name) COMMENT 'as (big) as AS' AS "
                    + "SELECT n_nationkey, n_name FROM nation WHERE n_regionkey IN (SELECT r_regionkey FROM region "
                    + "WHERE r_name <> 'ASIA')");
            run(s, "ALTER VIEW big_nations AS SELECT n_nationkey AS k, n_name AS v FROM nation WHERE n_nationkey > 20");
            List<String> before = render(run(s, "SELECT * FROM big_nations ORDER BY 1"));
            assertEquals(4, before.size());
            String created = lines(run(s, "SHOW CREATE TABLE big_nations"));
            assertEquals("CREATE VIEW `default`.`big_nations` (\n  `k`,\n  `v`\n)\nAS SELECT n_nationkey AS k, n_name AS v "
                    + "FROM nation WHERE n_nationkey > 20", created);
            run(s, "DROP VIEW big_nations");
            run(s, created);
            assertEquals(before, render(run(s, "SELECT * FROM big_nations ORDER BY 1")));
            run(s, "ALTER VIEW big_nations RENAME TO last_nations");
            assertEquals(before, render(run(s, "SELECT * FROM last_nations ORDER BY 1")));
            assertTrue(lines(run(s, "SHOW CREATE TABLE last_nations")).startsWith("CREATE VIEW `default`.`last_nations`"));
            SqlException asTable = assertThrows(SqlException.class, () -> run(s, "ALTER TABLE last_nations RENAME TO x"));
            assertTrue(asTable.getMessage().contains("is a view: ALTER VIEW changes it"), asTable.getMessage());
            run(s, "DROP VIEW last_nations");
        }
    }

    private static String lines(List<Object[]> rows) {
        return String.join("\n", rows.stream().map(r -> (String) r[0]).toList());
    }

    /** DESCRIBE FORMATTED without the trees' health, which their rows change. */
    private static String tableInformation(String described) {
        int health = described.indexOf("# B+tree Health");
        return health < 0 ? described : described.substring(0, health);
    }

    private static String text(List<Object[]> rows) {
        return String.join("\n", rows.stream().map(r -> (r[0] + " " + (r[1] == null ? "" : r[1])
                + (r[2] == null ? "" : " " + r[2])).strip()).toList());
    }

    private static List<String> render(List<Object[]> rows) {
        return rows.stream().map(Arrays::toString).toList();
    }

    private static SqlSession session() {
        return cluster.session();
    }

    private static List<Object[]> run(SqlSession s, String sql) {
        return SqlCluster.rows(s, sql);
    }
}
