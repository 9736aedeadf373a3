package org.oooengine.hive.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.snapshot.ClusterSnapshot;
import org.oooengine.optimizer.snapshot.ClusterSnapshots;

/**
 * The tables loaded into a cluster, all in database {@code default}, as the nodes' store
 * manifests list them in the statement's {@link ClusterSnapshot} (every node asked at once). While some
 * nodes do not answer, the tables come from those that do and a table's row count says which
 * node it lacks; when no node answers, listing fails naming them all rather than showing none.
 */
public final class ClusterCatalog implements Catalog {
    public static final String DEFAULT_DATABASE = "default";
    /** The table property holding its row count, summed over the nodes. */
    private static final String ROWS_PROPERTY = "rows";

    private final ClusterSnapshots snapshots;

    public ClusterCatalog(ClusterSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public List<String> databases() {
        return List.of(DEFAULT_DATABASE);
    }

    @Override
    public List<TableInfo> tables(String database) {
        if (!DEFAULT_DATABASE.equals(database)) {
            return List.of();
        }
        ClusterManifest m = answered();
        List<TableInfo> out = new ArrayList<>();
        for (String name : m.tableNames()) {
            out.add(info(table(m, name)));
        }
        return out;
    }

    /**
     * @throws SqlException when the table is on none of the nodes that answered while as many did
     *                      not as hold each partition: they may hold it, so "not found" would be a guess
     */
    @Override
    public Optional<TableInfo> table(String database, String name) {
        if (!DEFAULT_DATABASE.equals(database)) {
            return Optional.empty();
        }
        ClusterManifest m = answered();
        if (!m.tableNames().contains(name)) {
            if (m.mayMissTables()) {
                throw new SqlException(SqlException.NODE_FAILURE, "cannot tell whether table " + database + "." + name
                        + " exists: it is on none of the nodes that answered; "
                        + ClusterManifest.describe(m.unanswered()));
            }
            return Optional.empty();
        }
        return Optional.of(info(table(m, name)));
    }

    /** The nodes' manifests; fails naming the nodes when none answered. */
    private ClusterManifest answered() {
        ClusterSnapshot snapshot = snapshots.current();
        ClusterManifest m = snapshot.manifest();
        if (m.noneAnswered()) {
            throw new SqlException(SqlException.NODE_FAILURE, "cannot list the tables of cluster "
                    + snapshot.spec().name() + ": no node answered; " + ClusterManifest.describe(m.unanswered()));
        }
        return m;
    }

    private static ClusterManifest.Table table(ClusterManifest m, String name) {
        try {
            return m.table(name).orElseThrow();
        } catch (ClusterException e) {
            throw new SqlException(SqlException.GENERAL, e.getMessage(), e);
        }
    }

    private static TableInfo info(ClusterManifest.Table table) {
        StoreManifest.TableMeta t = table.meta();
        List<ResultColumn> columns = new ArrayList<>();
        for (StoreManifest.ColumnMeta c : t.columns()) {
            columns.add(new ResultColumn(c.name().toLowerCase(Locale.ROOT), SqlType.of(DataType.parse(c.type()))));
        }
        List<String> indexed = t.indexes() == null ? List.of()
                : t.indexes().stream().map(ix -> ix.columns().get(0)).distinct().toList();
        // A partial sum would pass for the table's count: say which node it lacks instead.
        String rows = table.complete() ? Long.toString(t.rows())
                : "unknown: " + ClusterManifest.describe(table.missing());
        return new TableInfo(DEFAULT_DATABASE, t.name(), columns, t.primaryKey(), indexed, t.name(),
                Map.of(ROWS_PROPERTY, rows), "");
    }
}
