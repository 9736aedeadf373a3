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
 * and per key range (1, 2, ...) from its first key on.
 */
public final class SystemCatalog implements Catalog {
    public static final String DATABASE = "sys";
    public static final String TREE_HEALTH = "tree_health";

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
        return DATABASE.equals(database) ? List.of(treeHealth().info()) : tables.tables(database);
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
        return DATABASE.equals(database) && TREE_HEALTH.equals(name) ? Optional.of(treeHealth()) : Optional.empty();
    }

    @Override
    public void checkWritable(String database, String name) {
        if (DATABASE.equals(database)) {
            throw new org.oooengine.core.sql.SqlException(org.oooengine.core.sql.SqlException.NOT_SUPPORTED,
                    database + "." + name + " is a system table: it is read-only");
        }
        tables.checkWritable(database, name);
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
