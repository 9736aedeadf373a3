package org.oooengine.hive.server;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.hive.sql.SqlEngine;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.sql.StatementResult;

/** An engine that answers a fixed set of statements, for protocol tests of the endpoint. */
final class ScriptedSqlEngine implements SqlEngine {
    static final List<ResultColumn> ALL_TYPES = List.of(
            new ResultColumn("b", SqlType.BOOLEAN), new ResultColumn("i", SqlType.INT),
            new ResultColumn("l", SqlType.BIGINT), new ResultColumn("d", SqlType.DOUBLE),
            new ResultColumn("dec", SqlType.decimal(10, 2)), new ResultColumn("dt", SqlType.DATE),
            new ResultColumn("s", SqlType.STRING), new ResultColumn("vc", SqlType.varchar(20)),
            new ResultColumn("c", SqlType.fixedChar(5)));
    static final Object[] ALL_TYPES_ROW = {true, -7, 9_000_000_000L, 2.5, new BigDecimal("12345.60"),
        LocalDate.of(1995, 3, 15), "hello", "varchar value", "ab   "};

    final List<Session> sessions = new CopyOnWriteArrayList<>();
    final CountDownLatch blockingStatementStarted = new CountDownLatch(1);
    volatile Cancellation blockingStatementCancellation;

    private final Catalog catalog = new ScriptedCatalog();

    @Override
    public SqlSession openSession(String user, String database, Map<String, String> settings) {
        String db = database == null ? "default" : database;
        if (!catalog.databases().contains(db)) {
            throw new SqlException(SqlException.SYNTAX, "Database does not exist: " + db);
        }
        Session session = new Session(user, db, Map.copyOf(settings));
        sessions.add(session);
        return session;
    }

    @Override
    public String productVersion() {
        return "0.1.0";
    }

    @Override
    public void close() {
    }

    /** Sessions ever opened for {@code user}. */
    long sessionsOf(String user) {
        return sessions.stream().filter(s -> s.user.equals(user)).count();
    }

    Session lastSessionOf(String user) {
        for (int i = sessions.size() - 1; i >= 0; i--) {
            if (sessions.get(i).user.equals(user)) {
                return sessions.get(i);
            }
        }
        throw new AssertionError("no session for " + user);
    }

    final class Session implements SqlSession {
        final String user;
        final String database;
        final Map<String, String> settings;
        volatile boolean closed;

        Session(String user, String database, Map<String, String> settings) {
            this.user = user;
            this.database = database;
            this.settings = settings;
        }

        @Override
        public String user() {
            return user;
        }

        @Override
        public String currentDatabase() {
            return database;
        }

        @Override
        public Map<String, String> settings() {
            return settings;
        }

        @Override
        public Catalog catalog() {
            return catalog;
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public StatementResult execute(String sql, Cancellation cancel) {
            String s = sql.strip().toLowerCase();
            if (s.equals("select * from all_types")) {
                return StatementResult.rows(ALL_TYPES, List.of(ALL_TYPES_ROW, new Object[ALL_TYPES.size()]).iterator());
            }
            if (s.startsWith("select range ")) {
                return StatementResult.rows(List.of(new ResultColumn("n", SqlType.INT), new ResultColumn("label", SqlType.STRING)),
                        range(Integer.parseInt(s.substring("select range ".length())), cancel));
            }
            if (s.equals("select current_database()")) {
                return single("_c0", database);
            }
            if (s.equals("select current_user()")) {
                return single("_c0", user);
            }
            if (s.startsWith("select setting ")) {
                return single("value", settings.get(sql.strip().substring("select setting ".length())));
            }
            if (s.startsWith("update ")) {
                return StatementResult.update(42);
            }
            if (s.equals("select * from missing")) {
                throw new SqlException(SqlException.UNKNOWN_TABLE, "Table not found: missing (line 1:14)");
            }
            if (s.equals("select block_until_cancelled()")) {
                blockingStatementCancellation = cancel;
                blockingStatementStarted.countDown();
                while (true) {
                    cancel.check();
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        throw new SqlException(SqlException.GENERAL, "interrupted");
                    }
                }
            }
            throw new SqlException(SqlException.SYNTAX, "cannot parse: " + sql);
        }
    }

    private static StatementResult single(String column, String value) {
        return StatementResult.rows(List.of(new ResultColumn(column, SqlType.STRING)), List.<Object[]>of(new Object[] {value}).iterator());
    }

    /** Rows made as they are read, like the engine's lazy results. */
    private static Iterator<Object[]> range(int count, Cancellation cancel) {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                cancel.check();
                int n = next++;
                return new Object[] {n, "row-" + n};
            }
        };
    }

    private static final class ScriptedCatalog implements Catalog {
        private final List<TableInfo> tables = List.of(
                table("default", "nation", List.of("n_nationkey"), "nations of the world",
                        new ResultColumn("n_nationkey", SqlType.INT), new ResultColumn("n_name", SqlType.varchar(25), "nation name"),
                        new ResultColumn("n_comment", SqlType.STRING)),
                table("sales", "orders", List.of("o_orderkey"), "",
                        new ResultColumn("o_orderkey", SqlType.BIGINT), new ResultColumn("o_totalprice", SqlType.decimal(15, 2)),
                        new ResultColumn("o_orderdate", SqlType.DATE), new ResultColumn("o_status", SqlType.fixedChar(1))),
                table("sales", "order_items", List.of(), "",
                        new ResultColumn("oi_orderkey", SqlType.BIGINT), new ResultColumn("oi_quantity", SqlType.INT)));

        private static TableInfo table(String db, String name, List<String> key, String comment, ResultColumn... columns) {
            return new TableInfo(db, name, List.of(columns), key, db + "." + name, Map.of(), comment);
        }

        @Override
        public List<String> databases() {
            return List.of("default", "sales");
        }

        @Override
        public List<TableInfo> tables(String database) {
            return tables.stream().filter(t -> t.database().equals(database)).toList();
        }

        @Override
        public Optional<TableInfo> table(String database, String name) {
            return tables(database).stream().filter(t -> t.name().equals(name)).findFirst();
        }

        /** order_items as a table in files would be: its key declared, not its own. */
        @Override
        public TableConstraints constraints(String database, String name) {
            return name.equals("order_items")
                    ? new TableConstraints("items_pk", true, List.of(), List.of("oi_orderkey"))
                    : TableConstraints.NONE;
        }
    }
}
