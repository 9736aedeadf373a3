package org.oooengine.hive.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.store.TreeReport;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A catalog with the engine's system tables beside another's tables, in database {@value #DATABASE}:
 * read-only tables whose rows the coordinator gathers from the nodes when a query reads them.
 * {@code sys.tree_health}: per node, table and B+tree (its clustered tree, {@code data}, or an
 * index), how its leaves have deteriorated against a fresh bulk load — whole ({@code key_range} 0)
 * and per key range (1, 2, ...) from its first key on. {@code sys.htap_freshness}: per node and
 * transactional table with analytical copies, how fresh the copy queries read there is.
 * {@code sys.nodes}: each node as the coordinator's heartbeats tell — up, slow or down, its round
 * trip and the load it reported.
 */
public final class SystemCatalog implements Catalog {
    public static final String DATABASE = "sys";
    public static final String TREE_HEALTH = "tree_health";
    public static final String HTAP_FRESHNESS = "htap_freshness";
    public static final String NODES = "nodes";
    /** How long a read of sys.nodes waits for the heartbeats' first answers. */
    private static final java.time.Duration HEARD_WITHIN = java.time.Duration.ofSeconds(2);

    /** A system table: its columns and, when read, its rows (SQL values). */
    public record SystemTable(TableInfo info, Supplier<List<Object[]>> rows) {
    }

    private static final List<ResultColumn> TREE_HEALTH_COLUMNS = List.of(
            new ResultColumn("node", SqlType.STRING), new ResultColumn("table_name", SqlType.STRING),
            new ResultColumn("tree", SqlType.STRING, "data (the table's clustered tree) or an index"),
            new ResultColumn("key_range", SqlType.INT, "0: the whole tree; 1, 2, ...: runs of leaves in key order"),
            new ResultColumn("first_key", SqlType.STRING, "the range's first key"),
            new ResultColumn("leaves", SqlType.BIGINT),
            new ResultColumn("fresh_leaves", SqlType.BIGINT, "leaves a bulk load of the same entries would take"),
            new ResultColumn("entries", SqlType.BIGINT),
            new ResultColumn("fill", SqlType.DOUBLE, "bytes of entries over the leaves' room"),
            new ResultColumn("deterioration", SqlType.DOUBLE, "leaves over fresh leaves"),
            new ResultColumn("pages_per_row", SqlType.DOUBLE, "leaves a scan reads per entry"));

    private static final List<ResultColumn> HTAP_FRESHNESS_COLUMNS = List.of(
            new ResultColumn("node", SqlType.STRING),
            new ResultColumn("table_name", SqlType.STRING, "database.table, or the name on the nodes of a table the "
                    + "catalog no longer lists"),
            new ResultColumn("copy_rows", SqlType.BIGINT, "rows in the copy queries read"),
            new ResultColumn("stale_rows", SqlType.BIGINT, "rows with a committed change that copy does not show yet"),
            new ResultColumn("freshness", SqlType.DOUBLE, "1 - stale_rows / copy_rows: the share of rows up to date"),
            new ResultColumn("lag_seconds", SqlType.DOUBLE, "how long ago the oldest change it does not show committed"),
            new ResultColumn("switches", SqlType.BIGINT, "times the node's two copies switched roles"),
            new ResultColumn("commits_applied", SqlType.BIGINT, "commits applied to the node's copies"),
            new ResultColumn("rebuilds", SqlType.BIGINT, "times the copies were built again after falling behind"),
            new ResultColumn("copy_reads", SqlType.BIGINT, "scans that read the node's copies"),
            new ResultColumn("owed_commits", SqlType.BIGINT, "commits the node's applying copy has yet to write"),
            new ResultColumn("delta_keys", SqlType.BIGINT, "keys changed since the last switch, merged into every scan "
                    + "of the node's read copy"));

    private static final List<ResultColumn> NODES_COLUMNS = List.of(
            new ResultColumn("node", SqlType.STRING), new ResultColumn("address", SqlType.STRING),
            new ResultColumn("rack", SqlType.STRING),
            new ResultColumn("state", SqlType.STRING, "UP, SLOW (round trip over 4x a typical node's and 5 ms) or DOWN "
                    + "(no heartbeat answered for 3 s)"),
            new ResultColumn("round_trip_ms", SqlType.DOUBLE, "median heartbeat round trip lately; null before a few"),
            new ResultColumn("last_heard_ms", SqlType.BIGINT, "since the node last answered a heartbeat; null: never"),
            new ResultColumn("statements_running", SqlType.INT), new ResultColumn("statements_waiting", SqlType.INT),
            new ResultColumn("pipelines_running", SqlType.INT));

    private final Catalog tables;
    private final ClusterSession cluster;

    public SystemCatalog(Catalog tables, ClusterSession cluster) {
        this.tables = tables;
        this.cluster = cluster;
    }

    @Override
    public List<String> databases() {
        List<String> all = new ArrayList<>(tables.databases());
        all.add(DATABASE);
        return all;
    }

    @Override
    public List<TableInfo> tables(String database) {
        return DATABASE.equals(database) ? List.of(treeHealth().info(), htapFreshness().info(), nodes().info())
                : tables.tables(database);
    }

    @Override
    public Optional<TableInfo> table(String database, String name) {
        return DATABASE.equals(database) ? systemTable(database, name).map(SystemTable::info) : tables.table(database, name);
    }

    @Override
    public TableConstraints constraints(String database, String name) {
        return tables.constraints(database, name);
    }

    @Override
    public Optional<CatalogView> view(String database, String name) {
        return tables.view(database, name);
    }

    @Override
    public List<CatalogView> views(String database) {
        return tables.views(database);
    }

    @Override
    public Optional<SystemTable> systemTable(String database, String name) {
        if (!DATABASE.equals(database)) {
            return Optional.empty();
        }
        return switch (name) {
            case TREE_HEALTH -> Optional.of(treeHealth());
            case HTAP_FRESHNESS -> Optional.of(htapFreshness());
            case NODES -> Optional.of(nodes());
            default -> Optional.empty();
        };
    }

    @Override
    public void checkWritable(String database, String name) {
        if (DATABASE.equals(database)) {
            throw new org.oooengine.core.sql.SqlException(org.oooengine.core.sql.SqlException.NOT_SUPPORTED,
                    database + "." + name + " is a system table: it is read-only");
        }
        tables.checkWritable(database, name);
    }

    @Override
    public void recordStatistics(String database, String name, Map<String, String> statistics) {
        tables.recordStatistics(database, name, statistics);
    }

    /** The catalog beside which the system tables are. */
    public Catalog tables() {
        return tables;
    }

    private SystemTable treeHealth() {
        TableInfo info = new TableInfo(DATABASE, TREE_HEALTH, TREE_HEALTH_COLUMNS, List.of(), DATABASE + "." + TREE_HEALTH,
                Map.of(), "how the B+trees of the nodes' partitions have deteriorated");
        return new SystemTable(info, () -> rows(cluster.treeHealth(Optional.empty(), false)));
    }

    private SystemTable htapFreshness() {
        TableInfo info = new TableInfo(DATABASE, HTAP_FRESHNESS, HTAP_FRESHNESS_COLUMNS, List.of(),
                DATABASE + "." + HTAP_FRESHNESS, Map.of(), "how fresh the nodes' analytical copies are (HTAP)");
        return new SystemTable(info, this::freshnessRows);
    }

    private SystemTable nodes() {
        TableInfo info = new TableInfo(DATABASE, NODES, NODES_COLUMNS, List.of(), DATABASE + "." + NODES, Map.of(),
                "the nodes as the coordinator's heartbeats tell");
        return new SystemTable(info, this::nodeRows);
    }

    private List<Object[]> nodeRows() {
        org.oooengine.core.cluster.NodeHealth health = cluster.serving().health().orElseThrow(
                () -> new IllegalStateException("the coordinator's session is closed"));
        health.awaitHeard(HEARD_WITHIN);
        List<Object[]> rows = new ArrayList<>();
        for (org.oooengine.core.cluster.NodeHealth.Node n : health.nodes()) {
            var spec = cluster.spec().node(n.node());
            rows.add(new Object[] {n.node(), spec.host() + ":" + spec.port(),
                org.oooengine.core.cluster.ClusterSpec.rackOf(spec), n.state().name(),
                n.medianRoundTripMicros() < 0 ? null : n.medianRoundTripMicros() / 1000.0,
                n.lastAnswerMillisAgo() < 0 ? null : n.lastAnswerMillisAgo(), n.statementsRunning(),
                n.statementsWaiting(), n.pipelinesRunning()});
        }
        return rows;
    }

    private List<Object[]> freshnessRows() {
        Map<String, String> names = new java.util.HashMap<>();
        for (String db : tables.databases()) {
            for (TableInfo t : tables.tables(db)) {
                names.put(t.storage(), t.database() + "." + t.name());
            }
        }
        List<Object[]> rows = new ArrayList<>();
        for (org.oooengine.core.cluster.TransactionalTables.CopyStatus node
                : org.oooengine.core.cluster.TransactionalTables.copyStatus(cluster.peers())) {
            for (org.oooengine.core.htap.Freshness f : node.tables()) {
                rows.add(new Object[] {node.node(), names.getOrDefault(f.table(), f.table()), f.rows(), f.staleRows(),
                    f.rate(), f.lagSeconds(), node.switches(), node.applied(), node.rebuilds(), node.reads(), node.owedCommits(),
                    node.deltaKeys()});
            }
        }
        return rows;
    }

    /**
     * The health of the trees of the table stored as {@code storage}, summed over the nodes, a
     * line per tree (for DESCRIBE FORMATTED); empty when the nodes hold no such table, one line
     * naming the node when one does not answer.
     */
    public List<String> summary(String storage) {
        try {
            return TreeReport.summed(cluster.treeHealth(Optional.of(storage), false).values()).stream()
                    .map(t -> t.tree() + ": " + t.describe(TreeReport.DETERIORATED)).toList();
        } catch (RuntimeException e) { // a node down: the rest of the description stands
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            return List.of("all: unknown: " + cause.getMessage());
        }
    }

    private static List<Object[]> rows(Map<String, List<TreeReport>> byNode) {
        List<Object[]> rows = new ArrayList<>();
        byNode.forEach((node, reports) -> {
            for (TreeReport t : reports) {
                rows.add(new Object[] {node, t.table(), t.tree(), 0, "", t.leaves(), t.freshLeaves(), t.entries(), t.fill(),
                    t.deterioration(), perEntry(t.leaves(), t.entries())});
                for (int i = 0; i < t.ranges().size(); i++) {
                    TreeReport.Range r = t.ranges().get(i);
                    rows.add(new Object[] {node, t.table(), t.tree(), i + 1, r.firstKey(), r.leaves(), r.freshLeaves(),
                        r.entries(), r.fill(), r.deterioration(), perEntry(r.leaves(), r.entries())});
                }
            }
        });
        return rows;
    }

    private static double perEntry(long leaves, long entries) {
        return entries == 0 ? 0 : (double) leaves / entries;
    }
}
