package org.oooengine.hive.engine;

import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;

/** A table's rows as stored values turned into SQL values, only the columns a statement reads. */
final class StoredRows {
    private final SqlType[] types;

    private StoredRows(SqlType[] types) {
        this.types = types;
    }

    /**
     * The column types of {@code table}, as stored on the nodes ({@code schema}, the layout the
     * nodes agree on). A table without a declared key stores a hidden row id after its columns: it is not read.
     */
    static StoredRows of(Schema schema, TableInfo table) {
        SqlType[] types = new SqlType[table.columns().size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = SqlType.of(schema.type(i));
        }
        return new StoredRows(types);
    }

    /**
     * How the nodes store {@code table}: from the nodes that answered the catalog's last round (the
     * nodes agree on it) or, when none of them holds it, from every node.
     */
    static Schema schema(ClusterSession cluster, String table) {
        Optional<ClusterManifest.Table> answered;
        try {
            answered = cluster.tables().table(table);
        } catch (ClusterException layoutsDiffer) {
            throw new SqlException(SqlException.GENERAL, layoutsDiffer.getMessage(), layoutsDiffer);
        }
        try {
            return answered.orElseGet(() -> cluster.table(table)).meta().schema();
        } catch (ClusterException notAnswered) {
            throw new SqlException(SqlException.NODE_FAILURE, "reading " + table + " failed: " + notAnswered.getMessage(),
                    notAnswered);
        }
    }

    /** Rows of columns stored as {@code types}, e.g. a table held in files ({@code FileTableReader.storedTypes}). */
    static StoredRows of(List<DataType> types) {
        return new StoredRows(types.stream().map(SqlType::of).toArray(SqlType[]::new));
    }

    /** The row in the table's column order; columns not {@code needed} stay null. */
    Object[] toSql(Object[] stored, BitSet needed) {
        Object[] row = new Object[types.length];
        for (int c = needed.nextSetBit(0); c >= 0 && c < types.length; c = needed.nextSetBit(c + 1)) {
            row[c] = types[c].fromStored(stored[c]);
        }
        return row;
    }
}
