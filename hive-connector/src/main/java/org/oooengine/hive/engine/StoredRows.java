package org.oooengine.hive.engine;

import java.util.BitSet;
import java.util.List;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.SqlType;

/** A table's rows as stored values turned into SQL values, only the columns a statement reads. */
final class StoredRows {
    private final SqlType[] types;

    private StoredRows(SqlType[] types) {
        this.types = types;
    }

    /**
     * The column types of {@code table}, from the first node's manifest (every node has the same
     * schema). A table without a declared key stores a hidden row id after its columns: it is not read.
     */
    static StoredRows of(ClusterSession cluster, TableInfo table) {
        Schema schema = cluster.manifest(cluster.spec().nodes().get(0).id()).table(table.storage()).schema();
        SqlType[] types = new SqlType[table.columns().size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = SqlType.of(schema.type(i));
        }
        return new StoredRows(types);
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
