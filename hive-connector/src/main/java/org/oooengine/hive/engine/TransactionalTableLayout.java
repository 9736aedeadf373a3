package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.cluster.ClusterLoader;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.ServingNodes;
import org.oooengine.core.cluster.TransactionalRows;
import org.oooengine.core.settings.TableProperties;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * How the nodes keep a transactional table of the catalog: its columns as stored, keyed on its
 * primary key, each partition on as many nodes as the table's {@link TableProperties#REPLICATION}.
 */
final class TransactionalTableLayout {
    private static final String REPLICATION = TableProperties.REPLICATION.name();

    private TransactionalTableLayout() {
    }

    static TableDefinition definition(TableInfo table) {
        List<Column> columns = new ArrayList<>();
        for (ResultColumn c : table.columns()) {
            columns.add(new Column(c.name(), c.type().storedType()));
        }
        return new TableDefinition(table.storage(), new Schema(columns), table.primaryKey(), List.of(), false);
    }

    /** Where its rows live and how they are encoded there. */
    static TransactionalRows layout(TableInfo table, Peers peers) {
        return new TransactionalRows(definition(table), peers.spec().withReplication(copies(table)));
    }

    /**
     * How many nodes keep each partition of transactional table {@code table}: as recorded when it
     * was created; 1 where nothing was (a table attached from a program that writes it alone, such
     * as the TPC-C driver, or created before tables kept copies).
     */
    static int copies(TableInfo table) {
        String v = table.properties().get(REPLICATION);
        return v == null ? 1 : Math.toIntExact(TableProperties.REPLICATION.parse(v));
    }

    /**
     * Whether the nodes keep copies of {@code table}'s partitions as the cluster places them, so that
     * a partition whose owner is down is read on another holder.
     */
    static boolean copiedAsTheClusterPlaces(TableInfo table, ClusterSpec spec) {
        return copies(table) > 1 && copies(table) == spec.replication();
    }

    /**
     * How many nodes keep each partition of {@code table}, a table in the nodes' stores: as recorded
     * when it was created, else ({@code ooo load}'s tables, and tables created before the number
     * was recorded) as the nodes' stored names tell ({@link ServingNodes#copies}).
     */
    static int storedCopies(TableInfo table, ServingNodes serving) {
        String v = table.properties().get(REPLICATION);
        return v == null ? serving.copies(table.storage()) : Math.toIntExact(TableProperties.REPLICATION.parse(v));
    }

    /**
     * The properties a new table is created with: a transactional table's record the copies it
     * keeps (the cluster's replication unless it asks for 1; another number is refused by name); a
     * table in the nodes' stores keeps what it asks, from 1 to the number of nodes
     * ({@link ClusterLoader#copiesAllowed}).
     */
    static Map<String, String> withReplication(String name, Map<String, String> properties, boolean transactional,
                                               ClusterSpec spec) {
        String asked = properties.get(REPLICATION);
        long copies;
        try {
            copies = asked == null ? spec.replication() : TableProperties.REPLICATION.parse(asked);
        } catch (IllegalArgumentException e) {
            throw new SqlException(SqlException.SYNTAX, "table " + name + ": " + e.getMessage());
        }
        if (!transactional) {
            String refused = ClusterLoader.copiesAllowed(spec, Math.toIntExact(Math.min(copies, Integer.MAX_VALUE)));
            if (refused != null) {
                throw new SqlException(SqlException.NOT_SUPPORTED, "table " + name + ": " + REPLICATION + "=" + copies
                        + ": " + refused);
            }
            return properties; // a number asked is kept; none: the cluster's, as the nodes' stored names will tell
        }
        if (copies != spec.replication() && copies != 1) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "table " + name + ": " + REPLICATION + "=" + copies
                    + ", but cluster " + spec.name() + " keeps " + spec.replication() + " copies of every partition"
                    + " (a transactional table may keep 1)");
        }
        Map<String, String> recorded = new HashMap<>(properties);
        recorded.put(REPLICATION, Long.toString(copies));
        return recorded;
    }
}
