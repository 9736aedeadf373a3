package org.oooengine.core.cluster;

import java.util.List;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/** Which partition and node get a row (by its first primary-key column) and each of its GLOBAL index entries. */
final class RowRouter {
    private final List<String> owners;
    private final int pkColumn;
    private final KeyCodec pkCodec;
    private final boolean[] global;
    private final int[] ixColumn;
    private final KeyCodec[] ixCodec;

    RowRouter(TableDefinition def, List<String> owners) {
        this.owners = owners;
        this.pkColumn = def.schema().indexOf(def.primaryKey().get(0));
        this.pkCodec = new KeyCodec(new DataType[] {def.schema().types(new int[] {pkColumn})[0]});
        int n = def.indexes().size();
        this.global = new boolean[n];
        this.ixColumn = new int[n];
        this.ixCodec = new KeyCodec[n];
        for (int i = 0; i < n; i++) {
            TableDefinition.IndexDefinition ix = def.indexes().get(i);
            global[i] = ix.scope() == IndexScope.GLOBAL;
            ixColumn[i] = def.schema().indexOf(ix.columns().get(0));
            ixCodec[i] = new KeyCodec(new DataType[] {def.schema().types(new int[] {ixColumn[i]})[0]});
        }
    }

    String rowOwner(Object[] row) {
        return owners.get(rowPartition(row));
    }

    /** The partition a row belongs to. */
    int rowPartition(Object[] row) {
        return Partitioning.partition(pkCodec.encode(row[pkColumn]), owners.size());
    }

    /** The partition that holds the entry of GLOBAL index {@code index} for a row. */
    int indexPartition(int index, Object[] row) {
        return Partitioning.partition(ixCodec[index].encode(row[ixColumn[index]]), owners.size());
    }

    boolean global(int index) {
        return global[index];
    }
}
