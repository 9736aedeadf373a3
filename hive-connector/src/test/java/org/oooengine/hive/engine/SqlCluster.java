package org.oooengine.hive.engine;

import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.oooengine.core.cluster.NodeService;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * The fixture of the SQL tests: a {@link TpchCluster} started in this JVM before a test class's
 * tests, the SQL engine over it, both closed after them. A test states only what differs — its
 * nodes, the tables DuckDB holds as its oracle, the scale, the nodes' caps, how its engine opens:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SqlCluster cluster = SqlCluster.of("ooo-variance", 2, TpchTable.ORDERS, TpchTable.LINE_ITEM);
 * }</pre>
 *
 * A class's own {@code @BeforeAll} methods run after the cluster started.
 */
public final class SqlCluster implements BeforeAllCallback, AfterAllCallback {
    /** How a test opens its engine over the cluster (the default: over the cluster's session, catalog in memory). */
    @FunctionalInterface
    public interface EngineOpener {
        ClusterSqlEngine open(TpchCluster tpch) throws Exception;
    }

    private final String name;
    private final int nodes;
    private final List<TpchTable<?>> oracleTables;
    private double scaleFactor = 0.01;
    private NodeService.Caps caps = NodeService.Caps.DEFAULTS;
    private int replication = 1;
    private org.oooengine.core.net.WireCompression compression = org.oooengine.core.net.WireCompression.NONE;
    private EngineOpener opener = tpch -> new ClusterSqlEngine(tpch.session);
    private TpchCluster tpch;
    private ClusterSqlEngine engine;

    private SqlCluster(String name, int nodes, List<TpchTable<?>> oracleTables) {
        this.name = name;
        this.nodes = nodes;
        this.oracleTables = oracleTables;
    }

    /** TPC-H at scale factor 0.01 on {@code nodes} nodes, DuckDB holding {@code oracleTables}. */
    public static SqlCluster of(String name, int nodes, TpchTable<?>... oracleTables) {
        return of(name, nodes, List.of(oracleTables));
    }

    public static SqlCluster of(String name, int nodes, List<TpchTable<?>> oracleTables) {
        return new SqlCluster(name, nodes, oracleTables);
    }

    public SqlCluster scaleFactor(double scaleFactor) {
        this.scaleFactor = scaleFactor;
        return this;
    }

    /** Each partition on {@code copies} nodes. */
    public SqlCluster replication(int copies) {
        this.replication = copies;
        return this;
    }

    /** The members compress the frames they send one another as {@code c} says. */
    public SqlCluster wireCompression(org.oooengine.core.net.WireCompression c) {
        this.compression = c;
        return this;
    }

    /** Every node grants its queries no more than {@code caps}. */
    public SqlCluster caps(NodeService.Caps caps) {
        this.caps = caps;
        return this;
    }

    public SqlCluster engine(EngineOpener opener) {
        this.opener = opener;
        return this;
    }

    /** The engine keeps its catalog in {@link #catalogFile}, with these coordinator settings. */
    public SqlCluster keepingCatalog(Map<String, String> settings) {
        return engine(tpch -> new ClusterSqlEngine(tpch.session, tpch.cluster.dir, catalogFile(tpch), settings));
    }

    /** Where an engine over {@code tpch} that keeps its catalog in a file keeps it. */
    public static Path catalogFile(TpchCluster tpch) {
        return tpch.dir.resolve(EmbeddedCatalog.FILE_NAME);
    }

    public Path catalogFile() {
        return catalogFile(tpch);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        tpch = new TpchCluster(name, nodes, scaleFactor, oracleTables, caps, replication, compression);
        engine = opener.open(tpch);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try (AutoCloseable t = tpch; AutoCloseable e = engine) {
            // the engine, then the cluster
        } finally {
            tpch = null;
            engine = null;
        }
    }

    public TpchCluster tpch() {
        return tpch;
    }

    public ClusterSqlEngine engine() {
        return engine;
    }

    /** DuckDB holding the same rows: what the answers are checked against. */
    public DuckDbOracle oracle() {
        return tpch.oracle;
    }

    /** A session of user {@code test} in database {@code default}. */
    public SqlSession session() {
        return session(Map.of());
    }

    /** As above, with these session settings. */
    public SqlSession session(Map<String, String> settings) {
        return engine.openSession("test", "default", settings);
    }

    /** The rows of {@code sql}, run in a session of its own. */
    public List<Object[]> run(String sql) {
        return run(sql, Map.of());
    }

    /** As above, the session's {@code settings} set. */
    public List<Object[]> run(String sql, Map<String, String> settings) {
        try (SqlSession s = session(settings)) {
            return rows(s, sql);
        }
    }

    /** The rows of {@code sql} in session {@code s}; none for a statement that returns none. */
    public static List<Object[]> rows(SqlSession s, String sql) {
        StatementResult result = s.execute(sql, new Cancellation());
        List<Object[]> rows = new ArrayList<>();
        if (result.hasResultSet()) {
            result.rows().forEachRemaining(rows::add);
        }
        return rows;
    }
}
