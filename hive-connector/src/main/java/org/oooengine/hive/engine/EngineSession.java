package org.oooengine.hive.engine;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.FileOutput;
import org.oooengine.core.cluster.LostNodes;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.hive.catalog.SystemCatalog;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.security.AccessControl;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.settings.Settings;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SessionUser;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;
import org.oooengine.hive.sql.analyze.StatementClock;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.hive.sql.exec.Executor;
import org.oooengine.hive.sql.exec.OperatorFigures;
import org.oooengine.hive.sql.parse.HiveSqlParser;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.PlanPrinter;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.snapshot.ClusterSnapshots;

/**
 * One client's session: parses a statement with Hive's parser, then runs it — queries through
 * the analyzer and the executor; SHOW, DESCRIBE (of tables and functions), USE, SET and EXPLAIN here. {@code SET} is not
 * Hive grammar (Hive's own CLI handles it before parsing), so it is recognised here too.
 * Statements that change tables and every {@code SET} are first put to the access rules.
 */
final class EngineSession implements SqlSession {
    private static final Logger LOG = LogManager.getLogger(EngineSession.class);
    private static final Pattern SET = Pattern.compile("(?is)\\s*set\\s*(?:([^=\\s]+)\\s*(?:=\\s*(.*?))?)?\\s*;?\\s*");

    private final SessionUser user;
    private final Catalog catalog;
    private final ExecutionModes modes;
    private final DataDefinition ddl;
    private final MetastoreChanges metastoreChanges;
    private final AccessControl access;
    private final SessionLimits limits;
    private final ClusterSnapshots snapshots;
    private final LostNodes lostNodes;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private String database;

    /**
     * @param settings as the client gave them when it opened the session: each one is checked as {@code SET} would
     * @param ddl      runs DDL and DML; null on a catalog this engine does not change (a Hive metastore's)
     * @param metastoreChanges runs CREATE, DROP, INSERT, ADD PARTITION and MSCK where there is no {@code ddl}
     * @param limits   the operator's caps on the settings that are resource limits
     * @param snapshots what each statement is analysed and planned from
     * @param lostNodes asks the nodes a failed statement lost the connection to what ended them
     */
    EngineSession(SessionUser user, String database, Map<String, String> settings, Catalog catalog,
                  ExecutionModes modes, DataDefinition ddl, MetastoreChanges metastoreChanges, AccessControl access,
                  SessionLimits limits, ClusterSnapshots snapshots, LostNodes lostNodes) {
        this.user = user;
        this.lostNodes = lostNodes;
        this.snapshots = snapshots;
        this.limits = limits;
        this.ddl = ddl;
        this.metastoreChanges = metastoreChanges;
        this.catalog = catalog;
        this.modes = modes;
        this.access = access;
        settings.forEach((key, value) -> checkSetting(key, value == null ? null : value.strip()));
        this.settings.putAll(settings);
        this.database = database == null ? "default" : useable(database.toLowerCase(Locale.ROOT));
    }

    @Override
    public String user() {
        return user.name();
    }

    @Override
    public String currentDatabase() {
        return database;
    }

    @Override
    public Map<String, String> settings() {
        return Map.copyOf(settings);
    }

    @Override
    public Catalog catalog() {
        return catalog;
    }

    @Override
    public StatementResult execute(String sql, Cancellation cancel) {
        Matcher set = SET.matcher(sql);
        if (set.matches()) {
            return set(set.group(1), set.group(2));
        }
        long t0 = System.nanoTime();
        ASTNode tree = HiveSqlParser.parse(sql);
        // One view of the cluster for the whole statement: its analysis and plan ask the nodes nothing more.
        try (ClusterSnapshots.Pin pinned = snapshots.pin()) {
            StatementResult r = StatementClock.during(() -> run(tree, sql, cancel));
            LOG.debug("{}: planned in {} ms", user.name(), (System.nanoTime() - t0) / 1_000_000);
            return r;
        } catch (RuntimeException e) {
            throw withLostNodesHeard(e, t0, cancel);
        }
    }

    /**
     * A failure that lost the connection to a node, once the node, started again by its supervisor,
     * said how its previous run ended (out of memory while the statement ran: 53200), or did not
     * answer within the coordinator's wait; any other failure as it is.
     */
    private RuntimeException withLostNodesHeard(RuntimeException failure, long startedNanos, Cancellation cancel) {
        RuntimeException heard = lostNodes.explain(failure, startedNanos, cancel::isCancelled);
        if (heard == failure) {
            return failure;
        }
        LOG.info("{}: {}", user.name(), heard.getMessage());
        return Faults.of("", heard);
    }

    private StatementResult run(ASTNode tree, String sql, Cancellation cancel) {
        return switch (tree.getType()) {
            case TOK_QUERY -> DdlAnalyzer.isInsert(tree) ? change(tree, sql, cancel) : query(tree, cancel);
            case TOK_CREATEDATABASE, TOK_DROPDATABASE, TOK_CREATETABLE, TOK_DROPTABLE, TOK_LOAD, TOK_UPDATE_TABLE,
                 TOK_DELETE_FROM, TOK_MERGE, TOK_CREATEVIEW, TOK_DROPVIEW, TOK_ALTERVIEW, TOK_ALTERTABLE, TOK_MSCK ->
                    change(tree, sql, cancel);
            case TOK_SHOWVIEWS -> single("tab_name", catalog.views(database).stream().map(CatalogView::name).toList());
            case TOK_EXPLAIN -> explain(tree, cancel);
            case TOK_ANALYZE -> analyze(tree, sql, cancel);
            case TOK_SHOWDATABASES -> single("database_name", catalog.databases());
            case TOK_SHOWTABLES -> single("tab_name", tablesAndViews());
            case TOK_DESCTABLE -> describe(tree);
            case TOK_SHOW_CREATETABLE -> showCreate(tree);
            case TOK_SHOWFUNCTIONS -> FunctionStatements.show(tree);
            case TOK_DESCFUNCTION -> FunctionStatements.describe(tree);
            case TOK_SWITCHDATABASE -> use(tree);
            default -> throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: statement "
                    + tree.getText() + " at line " + tree.getLine() + ":" + tree.getCharPositionInLine());
        };
    }

    /**
     * A query, in a transaction of its own on the transactional tables it reads: its rows are
     * returned once its reads validate (the whole result is ready before the client's first row).
     */
    /**
     * The most runs of a query that lose a node: a node killed and started again by its supervisor
     * may take connections and drop them again while it starts, so one more run is not always enough.
     */
    static final int RUNS_LOSING_NODES = 3;
    /** How long a query that lost a node waits before its next run, times the runs so far. */
    private static final long RERUN_PAUSE_MILLIS = 100;

    private StatementResult query(ASTNode tree, Cancellation cancel) {
        Map<String, String> settings = running();
        RelNode plan = modes.forSettings(settings).plan(catalog, database, tree);
        return StatementResult.rows(columns(plan), rows(plan, settings, cancel));
    }

    /**
     * The query's rows. Where partitions are replicated, a query that lost a node midway runs again
     * from the start (at most {@link #RUNS_LOSING_NODES} runs in all), the nodes that do not answer
     * passed over: the holders of their partitions' replicas serve them, and the transactional
     * tables it would read from analytical copies (each node's of its own rows) are read in its
     * transaction instead.
     * A query's rows are all spooled before the client sees one, so nothing is returned twice.
     */
    private Executor.Rows rows(RelNode plan, Map<String, String> settings, Cancellation cancel) {
        boolean copiesMayServe = true;
        for (int run = 1; ; run++) {
            try {
                return rowsOnce(plan, settings, cancel, copiesMayServe);
            } catch (RuntimeException e) {
                String lost = Faults.lostNode(e);
                if (lost == null || modes.peers().spec().replication() == 1 || cancel.isCancelled()
                        || run == RUNS_LOSING_NODES) {
                    throw e;
                }
                LOG.warn("query lost a node ({}); running it again, the nodes that do not answer passed over{}",
                        e.getMessage(), StatementTransaction.readsCopies(settings)
                                ? ", the transactional tables read in its transaction rather than from analytical copies" : "");
                copiesMayServe = false; // each node's copies hold its own rows alone
                // a connection to a node killed a moment ago may still look open here: give its close
                // time to arrive, or the next run is sent to the same node (three runs in 2 ms)
                pauseBeforeRun(run, cancel);
                // the node a failure names may only have relayed it (its shuffle to the lost node failed): ask them all
                modes.serving().probeAgain();
            }
        }
    }

    /** {@link #RERUN_PAUSE_MILLIS} times the runs so far, or less where the statement is cancelled meanwhile. */
    private static void pauseBeforeRun(int runs, Cancellation cancel) {
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(RERUN_PAUSE_MILLIS * runs);
        try {
            while (System.nanoTime() < until && !cancel.isCancelled()) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Executor.Rows rowsOnce(RelNode plan, Map<String, String> settings, Cancellation cancel,
                                   boolean copiesMayServe) {
        return StatementTransaction.run(modes.peers(), "query", StatementTransaction.attempts(settings),
                new StatementTransaction.Attempt<>() {
            @Override
            public Executor.Rows run(StatementTransaction tx) {
                tx.readCopiesIfAsked(settings, copiesMayServe);
                return modes.forSettings(settings, tx).executor(cancel).run(plan);
            }

            @Override
            public void discard(Executor.Rows result) {
                result.close();
            }
        });
    }

    /**
     * ANALYZE TABLE: a table on the nodes has its statistics collected anew there; one held in
     * files is counted by a query on the nodes ({@link TableAnalysis}), what it counts kept in the
     * catalog with the table. Who may alter the table may analyze it.
     */
    private StatementResult analyze(ASTNode tree, String sql, Cancellation cancel) {
        var s = (DdlStatement.AnalyzeTable) new DdlAnalyzer(catalog, database, sql).analyze(tree);
        TableInfo target = s.target();
        try {
            access.checkCanCreateTable(user, target.database(), target.name());
        } catch (AccessDeniedException e) {
            throw logged(e);
        }
        if (!s.scan()) {
            return StatementResult.update(0); // NOSCAN: the planner reads the files' sizes itself
        }
        if (!FileTableReader.holds(target)) {
            snapshots.analyze(target.storage());
            return StatementResult.update(0);
        }
        Map<String, String> settings = running();
        long bytes = modes.fileBytes(target);
        RelNode plan = modes.forSettings(settings).plan(catalog, database, HiveSqlParser.parse(TableAnalysis.query(s)));
        Object[] counts;
        try (Executor.Rows rows = rows(plan, settings, cancel)) {
            counts = rows.next();
        }
        catalog.recordStatistics(target.database(), target.name(), TableAnalysis.statistics(s, counts, bytes));
        LOG.info("{}: analyzed {}.{}: {} rows, {} columns", user.name(), target.database(), target.name(), counts[0],
                s.columns().size());
        return StatementResult.update(0);
    }

    /** SHOW TABLES: the tables and the views of the current database, by name, as Hive lists them. */
    private List<String> tablesAndViews() {
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        catalog.tables(database).forEach(t -> names.add(t.name()));
        catalog.views(database).forEach(v -> names.add(v.name()));
        return List.copyOf(names);
    }

    /** DDL and DML: they change the catalog or a table's rows; {@code sql}: the statement as written. */
    private StatementResult change(ASTNode tree, String sql, Cancellation cancel) {
        // what a metastore's catalog lets through: tables in files made and dropped, their files written
        boolean metastoreChange = tree.getType() == TOK_QUERY && DdlAnalyzer.isInsert(tree) || tree.getType() == TOK_MSCK
                || tree.getType() == TOK_CREATETABLE || tree.getType() == TOK_DROPTABLE
                || tree.getType() == TOK_CREATEDATABASE || tree.getType() == TOK_DROPDATABASE
                || tree.getType() == TOK_ALTERTABLE && (tree.getChild(1).getType() == TOK_ALTERTABLE_ADDPARTS
                        || tree.getChild(1).getType() == TOK_ALTERTABLE_DROPPARTS);
        if (ddl == null && !metastoreChange) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: " + tree.getText().replace("TOK_", "")
                    + " with a Hive metastore catalog (ooo.catalog=hms), in which this engine creates and drops "
                    + "databases and tables in files, INSERT writes their files and MSCK REPAIR TABLE, ADD and DROP "
                    + "PARTITION add partitions to or drop them; change the catalog through Hive");
        }
        Map<String, String> settings = running();
        modes.check(settings); // an unknown execution mode is refused before anything changes
        var statement = new DdlAnalyzer(catalog, database, sql).analyze(tree);
        try {
            checkAccess(statement);
            DataDefinition.PlanRunner plans = new DataDefinition.PlanRunner() {
                @Override
                public List<Object[]> rows(RelNode plan, StatementTransaction tx) {
                    return modes.forSettings(settings, tx).run(plan, cancel);
                }

                @Override
                public Optional<List<Object[]>> writtenOnNodes(RelNode plan, FileOutput output, StatementTransaction tx) {
                    return modes.forSettings(settings, tx).writeOnNodes(plan, output, cancel);
                }
            };
            if (ddl == null) {
                return metastoreChanges.run(statement, settings, plans.eachInATransaction(modes.peers(), settings),
                        cancel::isCancelled);
            }
            return ddl.run(statement, settings, plans, cancel::isCancelled);
        } catch (AccessDeniedException e) {
            throw logged(e);
        }
    }

    /** Refusals are logged, so the operator sees who tried what. */
    private AccessDeniedException logged(AccessDeniedException e) {
        LOG.info("refused for {} ({} login): {}", user.name(), user.login(), e.getMessage());
        return e;
    }

    private void checkAccess(DdlStatement statement) {
        if (statement instanceof DdlStatement.CreateDatabase s) {
            access.checkCanCreateDatabase(user, s.name());
        } else if (statement instanceof DdlStatement.DropDatabase s) {
            access.checkCanDropDatabase(user, s.name());
        } else if (statement instanceof DdlStatement.CreateTable s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.CreateExternalTable s) {
            // its rows are files the engine reads: who may create one may load those files
            access.checkCanCreateTable(user, s.database(), s.name());
            access.checkCanLoad(user, s.database(), s.name(), s.location());
        } else if (statement instanceof DdlStatement.DropTable s) {
            access.checkCanDropTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.CreateView s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.DropView s) {
            access.checkCanDropTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.Rename s) {
            access.checkCanDropTable(user, s.database(), s.name());
            access.checkCanCreateTable(user, s.newDatabase(), s.newName());
        } else if (statement instanceof DdlStatement.AlterProperties s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.ChangeColumn s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.AddColumns s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.AddForeignKey s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.DropConstraint s) {
            access.checkCanCreateTable(user, s.database(), s.name());
        } else if (statement instanceof DdlStatement.AddPartitions s) {
            access.checkCanCreateTable(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.RepairTable s) {
            access.checkCanCreateTable(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.DropPartitions s) {
            access.checkCanDelete(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.Insert s) {
            access.checkCanInsert(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.MultiInsert s) {
            s.inserts().forEach(i -> access.checkCanInsert(user, i.target().database(), i.target().name()));
        } else if (statement instanceof DdlStatement.Update s) {
            access.checkCanUpdate(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.Delete s) {
            access.checkCanDelete(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.Merge s) {
            access.checkCanInsert(user, s.target().database(), s.target().name());
            access.checkCanUpdate(user, s.target().database(), s.target().name());
            access.checkCanDelete(user, s.target().database(), s.target().name());
        } else if (statement instanceof DdlStatement.LoadData s) {
            access.checkCanLoad(user, s.target().database(), s.target().name(), s.path());
        } else {
            throw new IllegalArgumentException("no access check for " + statement);
        }
    }

    static List<ResultColumn> columns(RelNode plan) {
        List<ResultColumn> out = new ArrayList<>();
        for (Field f : plan.fields()) {
            out.add(new ResultColumn(f.name(), f.type()));
        }
        return out;
    }

    /**
     * EXPLAIN prints the plan, with the jobs each operator runs in MapReduce mode; EXPLAIN ANALYZE
     * runs it and adds each operator's rows and time (its inputs' included), memory, spill and
     * bytes sent ({@link MeasuredText}).
     */
    private StatementResult explain(ASTNode tree, Cancellation cancel) {
        ASTNode statement = (ASTNode) tree.getChild(0);
        if (statement.getType() != TOK_QUERY) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: EXPLAIN of " + statement.getText());
        }
        Map<String, String> settings = running();
        boolean analyze = false;
        for (int i = 1; i < tree.getChildCount(); i++) {
            analyze |= tree.getChild(i).getType() == KW_ANALYZE;
        }
        Execution execution = modes.forSettings(settings);
        Execution.Explained explained = execution.explained(catalog, database, statement);
        RelNode plan = explained.plan();
        // a transactional table's scan says where its rows are read: the nodes' analytical copies or the table itself
        boolean copies = StatementTransaction.readsCopies(settings);
        java.util.function.Function<RelNode, String> where = n -> n instanceof RelNode.Scan scan
                && !StatementTransaction.readPlace(scan.table(), copies).isEmpty()
                ? "  [" + StatementTransaction.readPlace(scan.table(), copies) + "]" : "";
        if (!analyze) {
            return single("Explain", PlanPrinter.lines(plan, explained.context(), notes(execution, n -> where.apply(n))));
        }
        // run as the query would be: transactional tables read on the nodes within a transaction of its own
        Executor[] ran = new Executor[1];
        Map<RelNode, OperatorFigures> measured = StatementTransaction.run(modes.peers(), "EXPLAIN ANALYZE",
                StatementTransaction.attempts(settings), tx -> {
                    tx.readCopiesIfAsked(settings);
                    ran[0] = modes.forSettings(settings, tx).executor(cancel);
                    return ran[0].profile(plan);
                });
        // each subplan computed once is printed in full where it was computed, which its figures measure
        return single("Explain", MeasuredText.lines(PlanPrinter.lines(plan, explained.context().with(ran[0].sharedSubplans()),
                notes(execution, n -> where.apply(n) + MeasuredText.of(measured.get(n))))));
    }

    /** The execution's notes of each operator, then {@code more} of it. */
    private static PlanPrinter.Notes notes(Execution execution, java.util.function.Function<RelNode, String> more) {
        return new PlanPrinter.Notes() {
            @Override
            public String of(RelNode node) {
                return execution.notes().of(node, false) + more.apply(node);
            }

            @Override
            public String ofScanReadWhereAssigned(RelNode.Scan scan) {
                return execution.notes().of(scan, true) + more.apply(scan);
            }
        };
    }

    private StatementResult describe(ASTNode tree) {
        ASTNode tab = (ASTNode) tree.getChild(0).getChild(0);
        String db = tab.getChildCount() > 1 ? tab.getChild(0).getText().toLowerCase(Locale.ROOT) : database;
        String name = tab.getChild(tab.getChildCount() - 1).getText().toLowerCase(Locale.ROOT);
        // Hive's wording, with the name as written: SQLAlchemy's Hive dialect (PyHive) tells a missing
        // table from a failure by matching it, and Superset's has_table relies on that.
        String written = tab.getChildCount() > 1 ? db + "." + name : name;
        boolean formatted = tree.getChildCount() > 1
                && (tree.getChild(1).getType() == KW_FORMATTED || tree.getChild(1).getType() == KW_EXTENDED);
        java.util.Optional<CatalogView> view = catalog.view(db, name);
        if (view.isPresent()) {
            return describeView(view.get(), formatted);
        }
        TableInfo t = catalog.table(db, name).orElseThrow(() -> new SqlException(SqlException.UNKNOWN_TABLE,
                "SemanticException [Error 10001]: Table not found " + written));
        List<Object[]> rows = new ArrayList<>();
        for (ResultColumn c : t.columns()) {
            rows.add(new Object[] {c.name(), c.type().toString(), c.comment()});
        }
        if (formatted) {
            // Hive's layout: a blank row, then sections of name/value rows
            rows.add(new Object[] {"", null, null});
            rows.add(new Object[] {"# Detailed Table Information", null, null});
            rows.add(new Object[] {"Database:", t.database(), null});
            rows.add(new Object[] {"Table:", t.name(), null});
            rows.add(new Object[] {"Table Type:", "MANAGED_TABLE", null});
            boolean transactional = DdlAnalyzer.transactional(t);
            rows.add(new Object[] {"Storage:", FileTableReader.holds(t) ? "files at " + t.storage()
                    : transactional ? "OoO Engine transactional table " + t.storage() + " (the nodes' transactional stores)"
                    : "OoO Engine cluster table " + t.storage(), null});
            rows.add(new Object[] {"Primary Key:", String.join(", ", t.primaryKey()), null});
            rows.add(new Object[] {"Indexed Columns:", String.join(", ", t.indexedColumns()), null});
            t.properties().forEach((k, v) -> rows.add(new Object[] {"Table Parameters:", k, v}));
            if (!t.comment().isEmpty()) {
                rows.add(new Object[] {"Table Parameters:", "comment", t.comment()});
            }
            constraintRows(t, catalog.constraints(db, name), rows);
            if (catalog instanceof SystemCatalog system && !FileTableReader.holds(t) && !transactional
                    && !SystemCatalog.DATABASE.equals(db)) {
                rows.add(new Object[] {"", null, null});
                rows.add(new Object[] {"# B+tree Health", null, null});
                system.summary(t.storage()).forEach(line -> {
                    int colon = line.indexOf(':');
                    rows.add(new Object[] {line.substring(0, colon + 1), line.substring(colon + 2), null});
                });
            }
        }
        return StatementResult.rows(List.of(new ResultColumn("col_name", SqlType.STRING),
                new ResultColumn("data_type", SqlType.STRING), new ResultColumn("comment", SqlType.STRING)), rows.iterator());
    }

    /** SHOW CREATE TABLE of a table or a view: the statement that makes it again, a line a row. */
    private StatementResult showCreate(ASTNode tree) {
        ASTNode tab = (ASTNode) tree.getChild(0);
        String db = tab.getChildCount() > 1 ? tab.getChild(0).getText().toLowerCase(Locale.ROOT) : database;
        String name = tab.getChild(tab.getChildCount() - 1).getText().toLowerCase(Locale.ROOT);
        db = db.replace("`", "");
        name = name.replace("`", "");
        java.util.Optional<CatalogView> view = catalog.view(db, name);
        if (view.isPresent()) {
            return single("createtab_stmt", ShowCreateTable.view(view.get()));
        }
        String written = db + "." + name;
        TableInfo t = catalog.table(db, name).orElseThrow(() -> new SqlException(SqlException.UNKNOWN_TABLE,
                "SemanticException [Error 10001]: Table not found " + written));
        return single("createtab_stmt", ShowCreateTable.table(t, catalog.constraints(db, name)));
    }

    /** Hive's constraints section of DESCRIBE FORMATTED: the primary key and each foreign key. */
    private static void constraintRows(TableInfo t, TableConstraints c, List<Object[]> rows) {
        List<String> key = c.declaredKey(t.primaryKey());
        if (key.isEmpty() && c.foreignKeys().isEmpty()) {
            return;
        }
        String table = t.database() + "." + t.name();
        rows.add(new Object[] {"", null, null});
        rows.add(new Object[] {"# Constraints", null, null});
        if (!key.isEmpty()) {
            rows.add(new Object[] {"", null, null});
            rows.add(new Object[] {"# Primary Key", null, null});
            rows.add(new Object[] {"Table:", table, null});
            rows.add(new Object[] {"Constraint Name:", c.primaryKeyName(), null});
            rows.add(new Object[] {"Column Name:", String.join(", ", key), null});
            rows.add(new Object[] {"Rely:", Boolean.toString(c.primaryKeyRely()), null});
        }
        if (!c.foreignKeys().isEmpty()) {
            rows.add(new Object[] {"", null, null});
            rows.add(new Object[] {"# Foreign Keys", null, null});
            for (TableConstraints.ForeignKey fk : c.foreignKeys()) {
                rows.add(new Object[] {"Table:", table, null});
                rows.add(new Object[] {"Constraint Name:", fk.name(), null});
                for (int i = 0; i < fk.columns().size(); i++) {
                    rows.add(new Object[] {"Parent Column Name:", fk.database() + "." + fk.table() + "." + fk.referenced().get(i),
                            "Column Name: " + fk.columns().get(i) + ", Key Sequence: " + (i + 1)});
                }
                rows.add(new Object[] {"Rely:", Boolean.toString(fk.rely()), null});
            }
        }
    }

    /** DESCRIBE of a view: its columns; FORMATTED adds Hive's view section, the statement that made it. */
    private static StatementResult describeView(CatalogView v, boolean formatted) {
        List<Object[]> rows = new ArrayList<>();
        v.columns().forEach(c -> rows.add(new Object[] {c.name(), c.type(), c.comment()}));
        if (formatted) {
            rows.add(new Object[] {"", null, null});
            rows.add(new Object[] {"# Detailed Table Information", null, null});
            rows.add(new Object[] {"Database:", v.database(), null});
            rows.add(new Object[] {"Table:", v.name(), null});
            rows.add(new Object[] {"Table Type:", "VIRTUAL_VIEW", null});
            rows.add(new Object[] {"Comment:", v.comment(), null});
            rows.add(new Object[] {"", null, null});
            rows.add(new Object[] {"# View Information", null, null});
            rows.add(new Object[] {"View Original Text:", v.statement(), null});
        }
        return StatementResult.rows(List.of(new ResultColumn("col_name", SqlType.STRING),
                new ResultColumn("data_type", SqlType.STRING), new ResultColumn("comment", SqlType.STRING)), rows.iterator());
    }

    private StatementResult use(ASTNode tree) {
        database = useable(tree.getChild(0).getText().toLowerCase(Locale.ROOT));
        return StatementResult.update(0);
    }

    private String useable(String db) {
        if (!catalog.databases().contains(db)) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + db);
        }
        return db;
    }

    /** {@code SET} lists the settings, {@code SET k} shows one, {@code SET k=v} changes one. */
    private StatementResult set(String key, String value) {
        if (key == null) {
            return single("set", settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        }
        if (value == null) {
            String v = settings.get(key);
            return single("set", List.of(key + "=" + (v == null ? "<undefined>" : v)));
        }
        String v = value.strip();
        checkSetting(key, v);
        if (SessionSettings.EXECUTION_MODE.names(key) || SessionSettings.JOIN_METHOD.names(key)
                || SessionSettings.FILES_SKEW.names(key)) {
            Map<String, String> changed = new LinkedHashMap<>(settings);
            changed.put(key, v);
            // refuses a mode, method or skew it cannot run, now rather than at the next query
            modes.check(limits.effective(changed));
        }
        settings.put(key, v);
        return StatementResult.update(0);
    }

    /**
     * The settings a statement runs with: the session's, and the operator's values of the limits
     * it leaves to them.
     */
    private Map<String, String> running() {
        return limits.effective(settings);
    }

    /**
     * The settings registry's rules (an engine key is a registered session setting, its value of
     * the setting's type), the engine's rules for Hadoop settings and the operator's caps on limits
     * hold for every user (caps bind admins too unless the operator says otherwise); the access
     * rules may refuse more.
     */
    private void checkSetting(String key, String value) {
        try {
            try {
                Settings.checkSession(key, value);
            } catch (IllegalArgumentException e) {
                throw new AccessDeniedException(e.getMessage());
            }
            HadoopSettings.checkSessionSetting(key, value);
            limits.check(key, value, access.isAdmin(user));
            access.checkCanSetSetting(user, key, value);
        } catch (AccessDeniedException e) {
            throw logged(e);
        }
    }

    private static StatementResult single(String column, List<String> values) {
        Iterator<Object[]> rows = values.stream().map(v -> new Object[] {v}).iterator();
        return StatementResult.rows(List.of(new ResultColumn(column, SqlType.STRING)), rows);
    }

    @Override
    public void close() {
        LOG.debug("session of {} closed", user.name());
    }
}
