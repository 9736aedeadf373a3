package org.oooengine.hive.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;
import org.oooengine.hive.sql.ResultColumn;
import org.oooengine.hive.sql.SqlType;

/**
 * The tables loaded into a cluster, all in database {@code default}: what a node's store
 * manifest lists (every node holds a partition of every table, under the same schema).
 */
public final class ClusterCatalog implements Catalog {
    public static final String DEFAULT_DATABASE = "default";

    private final ClusterSession cluster;

    public ClusterCatalog(ClusterSession cluster) {
        this.cluster = cluster;
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
        StoreManifest m = manifest();
        if (m == null) {
            return List.of();
        }
        return m.tables().stream().map(ClusterCatalog::info).toList();
    }

    @Override
    public Optional<TableInfo> table(String database, String name) {
        return tables(database).stream().filter(t -> t.name().equals(name)).findFirst();
    }

    private StoreManifest manifest() {
        String first = cluster.spec().nodes().get(0).id();
        try {
            return cluster.manifest(first);
        } catch (RuntimeException noDataYet) {
            return null;
        }
    }

    private static TableInfo info(StoreManifest.TableMeta t) {
        List<ResultColumn> columns = new ArrayList<>();
        for (StoreManifest.ColumnMeta c : t.columns()) {
            columns.add(new ResultColumn(c.name().toLowerCase(Locale.ROOT), SqlType.of(DataType.parse(c.type()))));
        }
        List<String> indexed = t.indexes() == null ? List.of()
                : t.indexes().stream().map(ix -> ix.columns().get(0)).distinct().toList();
        return new TableInfo(DEFAULT_DATABASE, t.name(), columns, t.primaryKey(), indexed, t.name(),
                Map.of("rows", Long.toString(t.rows())), "");
    }
}
