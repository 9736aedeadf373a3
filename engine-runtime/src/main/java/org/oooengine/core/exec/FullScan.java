package org.oooengine.core.exec;

import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.Table;

/** Reads every row of a table in primary-key order with large sequential reads. */
public final class FullScan {
    private FullScan() {
    }

    public static void run(Table table, RowSink sink) {
        run(table, null, sink);
    }

    /** Scans decoding only the {@code wanted} column positions (null: all); the rest are null. */
    public static void run(Table table, int[] wanted, RowSink sink) {
        boolean[] m = wanted == null ? null : table.columnMask(wanted);
        LeafScanner.forEachLeaf(table.tree(), leaf -> {
            for (int i = 0, n = leaf.count(); i < n; i++) {
                sink.accept(table.rowAt(leaf, i, m));
            }
        });
    }
}
