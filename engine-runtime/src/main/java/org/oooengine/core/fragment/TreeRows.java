package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * A partition's rows as its B+tree holds them, a leaf at a time in key order: only the leaves
 * that may hold keys in {@code range}, each row's stored values decoded in place from the page,
 * only the wanted columns. The rows of a leaf the range only partly covers all come: the
 * pipeline's filters keep the right ones.
 */
final class TreeRows implements PartitionPipeline.RowSource {
    private final Table table;
    private final Optional<KeyRange> range;
    private final RowCodec codec;

    TreeRows(Table table, Optional<KeyRange> range) {
        this.table = table;
        this.range = range;
        this.codec = new RowCodec(table.schema());
    }

    @Override
    public Schema schema() {
        return table.schema();
    }

    @Override
    public void forEachPage(Predicate<List<Object[]>> page) {
        forEachPage(null, page); // every column
    }

    @Override
    public void forEachPage(boolean[] wanted, Predicate<List<Object[]>> page) {
        LeafScanner.forEachLeaf(table.tree(), range.map(KeyRange::from).orElse(null),
                range.map(KeyRange::toExclusive).orElse(null), leaf -> {
                    List<Object[]> rows = new ArrayList<>(leaf.count());
                    for (int i = 0; i < leaf.count(); i++) {
                        rows.add(leaf.decodeValue(i, codec, wanted));
                    }
                    return rows.isEmpty() || page.test(rows);
                });
    }
}
