package org.oooengine.core.exec;

import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.Table;

/** Reads every row of a table in primary-key order with large sequential reads. */
public final class FullScan {
    private FullScan() {
    }

    public static void run(Table table, RowSink sink) {
        LeafScanner.forEachLeaf(table.tree(), leaf -> {
            for (int i = 0, n = leaf.count(); i < n; i++) {
                sink.accept(table.rowAt(leaf, i));
            }
        });
    }
}
