package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.storage.Page;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredColumns;

/**
 * A partition's rows as its B+tree holds them, in key order: only the leaves that may hold keys
 * in {@code range}, each row's stored values decoded in place from the page, only the wanted
 * columns; as rows a leaf at a time, or straight into vectors a batch at a time. The rows of a
 * leaf the range only partly covers all come: the pipeline's filters keep the right ones.
 */
final class TreeRows implements PartitionPipeline.BatchSource {
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

    /** Batches of {@link Pipeline#BATCH_ROWS} rows; the leaves' ranges are not known, so {@code skip} skips none. */
    @Override
    public void forEachBatch(boolean[] wanted, GroupFilter skip, Predicate<Batch> batch) {
        StoredColumns columns = new StoredColumns(table.schema(), wanted, Pipeline.BATCH_ROWS);
        int[] rows = {0};
        boolean[] going = {true};
        forEachLeaf(leaf -> {
            for (int i = 0; i < leaf.count() && going[0]; i++) {
                leaf.decodeValueInto(i, codec, wanted, columns, rows[0]++);
                if (rows[0] == columns.capacity()) {
                    going[0] = batch.test(columns.take(rows[0]));
                    rows[0] = 0;
                }
            }
            return going[0];
        });
        if (going[0] && rows[0] > 0) {
            batch.test(columns.take(rows[0]));
        }
    }

    @Override
    public void forEachPage(boolean[] wanted, Predicate<List<Object[]>> page) {
        forEachLeaf(leaf -> {
            List<Object[]> rows = new ArrayList<>(leaf.count());
            for (int i = 0; i < leaf.count(); i++) {
                rows.add(leaf.decodeValue(i, codec, wanted));
            }
            return rows.isEmpty() || page.test(rows);
        });
    }

    private void forEachLeaf(Predicate<Page> leaf) {
        LeafScanner.forEachLeaf(table.tree(), range.map(KeyRange::from).orElse(null),
                range.map(KeyRange::toExclusive).orElse(null), leaf);
    }
}
