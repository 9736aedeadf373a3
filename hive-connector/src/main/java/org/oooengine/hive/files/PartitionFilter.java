package org.oooengine.hive.files;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Partition pruning: the conjuncts of a scan's condition that read only partition columns,
 * evaluated on each part's values. A part whose values make one of them false or NULL holds no
 * row the scan would keep, and is not read at all. A conjunct that fails to evaluate keeps the
 * part: the scan's own filter then decides row by row, as it would have anyway.
 */
final class PartitionFilter {
    private final int width;
    private final int firstKey;
    private final List<Expr> terms;

    private PartitionFilter(int width, int firstKey, List<Expr> terms) {
        this.width = width;
        this.firstKey = firstKey;
        this.terms = terms;
    }

    /** The filter of {@code condition} (over the table's columns; null: none) for {@code table}'s {@code keys} partition columns. */
    static PartitionFilter of(TableInfo table, int keys, Expr condition) {
        int width = table.columns().size();
        int firstKey = width - keys;
        List<Expr> terms = new ArrayList<>();
        if (condition != null && keys > 0) {
            for (Expr term : Exprs.conjuncts(condition)) {
                BitSet read = Exprs.columns(term);
                if (!read.isEmpty() && read.nextSetBit(0) >= firstKey && read.length() <= width) {
                    terms.add(term);
                }
            }
        }
        return new PartitionFilter(width, firstKey, List.copyOf(terms));
    }

    /** Whether {@code part} may hold rows the condition keeps. */
    boolean keeps(FilePart part) {
        if (terms.isEmpty()) {
            return true;
        }
        Object[] row = new Object[width];
        for (int p = 0; p < part.partitionValues().size(); p++) {
            row[firstKey + p] = part.partitionValues().get(p);
        }
        for (Expr term : terms) {
            try {
                if (!Boolean.TRUE.equals(term.eval(row))) {
                    return false;
                }
            } catch (RuntimeException cannotTell) {
                return true;
            }
        }
        return true;
    }
}
