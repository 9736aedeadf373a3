package org.oooengine.core.tpch;

import java.util.List;
import java.util.Locale;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.storage.Page;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;

/**
 * Seed 004's selective joins with a selectivity parameter. The range on the outer table's indexed
 * column is chosen from the data: the values at ranks r and r+n-1 of the index, where n is the
 * requested fraction of the outer table and r centres the range. Ties at the boundaries can select
 * a few more rows; {@link Query#outerRows} says how many were selected.
 */
public final class JoinQueries {
    /** A join spec and how many outer rows its range selects. */
    public record Query(String name, double selectivity, JoinSpec spec, long outerRows, long outerTotal) {
        public double actualSelectivity() {
            return (double) outerRows / outerTotal;
        }
    }

    private JoinQueries() {
    }

    /** OL: orders ⋈ lineitem on orderkey, {@code o_totalprice} in a range. */
    public static Query ol(Store store, double selectivity) {
        return build(store, "OL", selectivity, "orders", "o_totalprice", "o_orderkey", "lineitem", "l_orderkey",
                List.of("orders.o_orderkey", "orders.o_custkey", "orders.o_orderdate", "orders.o_totalprice",
                        "lineitem.l_linenumber", "lineitem.l_partkey", "lineitem.l_quantity", "lineitem.l_extendedprice"));
    }

    /** PL: part ⋈ lineitem on partkey, {@code p_retailprice} in a range. */
    public static Query pl(Store store, double selectivity) {
        return build(store, "PL", selectivity, "part", "p_retailprice", "p_partkey", "lineitem", "l_partkey",
                List.of("part.p_partkey", "part.p_name", "part.p_retailprice", "lineitem.l_orderkey",
                        "lineitem.l_linenumber", "lineitem.l_quantity", "lineitem.l_extendedprice"));
    }

    public static Query byName(Store store, String name, double selectivity) {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "OL" -> ol(store, selectivity);
            case "PL" -> pl(store, selectivity);
            default -> throw new IllegalArgumentException("unknown query '" + name + "' (known: OL, PL)");
        };
    }

    private static Query build(Store store, String name, double selectivity, String outer, String rangeColumn,
                               String outerJoin, String inner, String innerJoin, List<String> output) {
        if (!(selectivity > 0 && selectivity <= 1)) {
            throw new IllegalArgumentException("selectivity must be in (0, 1], got " + selectivity);
        }
        Table t = store.table(outer);
        SecondaryIndex ix = t.indexLeadingWith(rangeColumn).orElseThrow();
        long total = ix.tree().meta().entryCount();
        long n = Math.max(1, Math.round(selectivity * total));
        long first = (total - n) / 2;
        Object[] bounds = valuesAtRanks(ix, first, first + n - 1);
        ColumnRange range = new ColumnRange(rangeColumn, bounds[0], bounds[1]);
        long selected = countInRange(ix, range);
        return new Query(name, selectivity, new JoinSpec(outer, range, outerJoin, inner, innerJoin, output), selected, total);
    }

    /** Leading-column values at two ranks of the index, by one sequential pass over its leaves. */
    private static Object[] valuesAtRanks(SecondaryIndex ix, long lowRank, long highRank) {
        Object[] out = new Object[2];
        long[] seen = {0};
        LeafScanner.forEachLeaf(ix.tree(), leaf -> {
            long start = seen[0];
            int n = leaf.count();
            if (lowRank >= start && lowRank < start + n) {
                out[0] = leading(ix, leaf, (int) (lowRank - start));
            }
            if (highRank >= start && highRank < start + n) {
                out[1] = leading(ix, leaf, (int) (highRank - start));
            }
            seen[0] += n;
        });
        return out;
    }

    private static long countInRange(SecondaryIndex ix, ColumnRange range) {
        byte[] from = ix.prefix(range.low());
        byte[] to = org.oooengine.core.types.KeyCodec.successor(ix.prefix(range.high()));
        long[] count = {0};
        ix.tree().scan(from, to, (leaf, slot) -> {
            count[0]++;
            return true;
        }).join();
        return count[0];
    }

    private static Object leading(SecondaryIndex ix, Page leaf, int slot) {
        return ix.entryAt(leaf, slot)[0];
    }
}
