package org.oooengine.hive.sql.exec;

import java.util.BitSet;
import java.util.function.Consumer;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;

/** Where a table's rows come from: the cluster's nodes, or files. */
public interface TableReader {
    /**
     * Every row of {@code table}, as SQL values in its column order; columns not in
     * {@code needed} may be left null. {@code sink} may be called from several threads at once.
     */
    void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink);
}
