package org.oooengine.core.tpch;

import java.util.List;
import java.util.Locale;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Store;

/**
 * Seed 004's selective joins with a selectivity parameter. The range on the outer table's indexed
 * column is chosen from the data: the values at ranks r and r+n-1 of the index, where n is the
 * requested fraction of the outer table and r is picked near the middle so that ties at the
 * boundaries add as few rows as possible; {@link Query#outerRows} says how many were selected.
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

    /** A join chain of the OL/PL/Q3' form: the tables and columns, without the range; the outer table has no alias. */
    public record Shape(String name, String outer, String rangeColumn, List<JoinSpec.Probe> probes, List<String> output) {
        public Shape {
            probes = List.copyOf(probes);
            output = List.copyOf(output);
        }

        JoinSpec spec(ColumnRange range) {
            return new JoinSpec(outer, range, probes, output);
        }
    }

    /** OL: orders ⋈ lineitem on orderkey, {@code o_totalprice} in a range. */
    public static final Shape OL = new Shape("OL", "orders", "o_totalprice",
            List.of(new JoinSpec.Probe("orders.o_orderkey", "lineitem", "l_orderkey")),
            List.of("orders.o_orderkey", "orders.o_custkey", "orders.o_orderdate", "orders.o_totalprice",
                    "lineitem.l_linenumber", "lineitem.l_partkey", "lineitem.l_quantity", "lineitem.l_extendedprice"));

    /** PL: part ⋈ lineitem on partkey, {@code p_retailprice} in a range. */
    public static final Shape PL = new Shape("PL", "part", "p_retailprice",
            List.of(new JoinSpec.Probe("part.p_partkey", "lineitem", "l_partkey")),
            List.of("part.p_partkey", "part.p_name", "part.p_retailprice", "lineitem.l_orderkey",
                    "lineitem.l_linenumber", "lineitem.l_quantity", "lineitem.l_extendedprice"));

    /**
     * Q3': TPC-H Q3 without its aggregation, as seed 004 ran it: customer ⋈ orders ⋈ lineitem, the
     * selectivity on {@code c_acctbal} (customers drive the chain; each probes its orders through
     * the GLOBAL {@code o_custkey} index, each order its lineitems through their primary key).
     */
    public static final Shape Q3 = new Shape("Q3", "customer", "c_acctbal",
            List.of(new JoinSpec.Probe("customer.c_custkey", "orders", "o_custkey"),
                    new JoinSpec.Probe("orders.o_orderkey", "lineitem", "l_orderkey")),
            List.of("customer.c_custkey", "customer.c_mktsegment", "orders.o_orderkey", "orders.o_orderdate",
                    "orders.o_shippriority", "lineitem.l_linenumber", "lineitem.l_extendedprice", "lineitem.l_discount"));

    /**
     * ONLC: orders in a price range ⋈ their lineitems ⋈ their customer — the shape of the example
     * revenue-per-nation job's input (which adds nation). Its last probe joins on a column of the
     * first table, not of the one probed just before.
     */
    public static final Shape ONLC = new Shape("ONLC", "orders", "o_totalprice",
            List.of(new JoinSpec.Probe("orders.o_orderkey", "lineitem", "l_orderkey"),
                    new JoinSpec.Probe("orders.o_custkey", "customer", "c_custkey")),
            List.of("orders.o_orderkey", "customer.c_nationkey", "lineitem.l_extendedprice", "lineitem.l_discount"));

    /**
     * Q8': TPC-H Q8 without its aggregation and constant filters, the selectivity on
     * {@code p_retailprice} (parts drive the chain, as in PL). Nation is joined twice: as the
     * customer's nation n1, which leads to the region, and as the supplier's nation n2. Lineitem is
     * probed through the GLOBAL {@code l_partkey} index, supplier by its primary key from lineitem
     * (a probe of the third table back), everything else by primary key.
     */
    public static final Shape Q8 = new Shape("Q8", "part", "p_retailprice",
            List.of(new JoinSpec.Probe("part.p_partkey", "lineitem", "l_partkey"),
                    new JoinSpec.Probe("lineitem.l_orderkey", "orders", "o_orderkey"),
                    new JoinSpec.Probe("orders.o_custkey", "customer", "c_custkey"),
                    new JoinSpec.Probe("customer.c_nationkey", "nation", "n_nationkey", "n1"),
                    new JoinSpec.Probe("n1.n_regionkey", "region", "r_regionkey"),
                    new JoinSpec.Probe("lineitem.l_suppkey", "supplier", "s_suppkey"),
                    new JoinSpec.Probe("supplier.s_nationkey", "nation", "n_nationkey", "n2")),
            List.of("orders.o_orderkey", "lineitem.l_linenumber", "orders.o_orderdate", "lineitem.l_extendedprice",
                    "lineitem.l_discount", "n2.n_name", "region.r_name", "part.p_type", "n1.n_name"));

    public static Query ol(Store store, double selectivity) {
        return build(store, OL, selectivity);
    }

    public static Query pl(Store store, double selectivity) {
        return build(store, PL, selectivity);
    }

    public static Shape shape(String name) {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "OL" -> OL;
            case "PL" -> PL;
            case "Q3", "Q3'" -> Q3;
            case "ONLC" -> ONLC;
            case "Q8", "Q8'" -> Q8;
            default -> throw new IllegalArgumentException("unknown query '" + name + "' (known: OL, PL, Q3, ONLC, Q8)");
        };
    }

    public static Query byName(Store store, String name, double selectivity) {
        return build(store, shape(name), selectivity);
    }

    private static Query build(Store store, Shape shape, double selectivity) {
        checkSelectivity(selectivity);
        SecondaryIndex ix = store.table(shape.outer()).indexLeadingWith(shape.rangeColumn()).orElseThrow();
        return build(shape, selectivity, leadingValues(ix));
    }

    /**
     * The query for a selectivity, given every value of the range column in ascending order (for
     * a partitioned table: gathered from all partitions).
     */
    public static Query build(Shape shape, double selectivity, Comparable<Object>[] values) {
        checkSelectivity(selectivity);
        int total = values.length;
        int n = (int) Math.max(1, Math.min(total, Math.round(selectivity * total)));
        int first = bestWindow(values, n);
        ColumnRange range = new ColumnRange(shape.rangeColumn(), values[first], values[first + n - 1]);
        long selected = upperBound(values, values[first + n - 1]) - lowerBound(values, values[first]);
        return new Query(shape.name(), selectivity, shape.spec(range), selected, total);
    }

    /**
     * The SQL that returns what {@code spec} returns, for another engine to answer: its tables
     * joined on its probes, its outer range as a WHERE clause; {@code schemaOf} gives a table's
     * columns (the range's literals are written in its column's type).
     */
    public static String sql(JoinSpec spec, java.util.function.Function<String, org.oooengine.core.types.Schema> schemaOf) {
        var outer = schemaOf.apply(spec.outerTable());
        var rangeType = outer.type(outer.indexOf(spec.outerRange().column()));
        StringBuilder from = new StringBuilder(fromItem(spec.outerTable(), spec.outerAlias()));
        for (JoinSpec.Probe p : spec.probes()) {
            from.append(" JOIN ").append(fromItem(p.table(), p.alias())).append(" ON ").append(p.from()).append(" = ")
                    .append(p.alias()).append('.').append(p.column());
        }
        return "SELECT " + String.join(", ", spec.output()) + " FROM " + from + " WHERE " + spec.outerAlias() + "."
                + spec.outerRange().describe(rangeType);
    }

    /** A table in a FROM clause: {@code nation n2}, or just its name when that is its alias. */
    private static String fromItem(String table, String alias) {
        return alias.equals(table) ? table : table + " " + alias;
    }

    /** Refuses a selectivity outside (0, 1]. */
    public static void checkSelectivity(double selectivity) {
        if (!(selectivity > 0 && selectivity <= 1)) {
            throw new IllegalArgumentException("selectivity must be in (0, 1], got " + selectivity);
        }
    }

    /**
     * The start of the n-value window whose value range selects the fewest extra rows through ties
     * at its ends, nearest the middle among equals: the range then hits the requested selectivity
     * as closely as the data allow.
     */
    private static int bestWindow(Comparable<Object>[] values, int n) {
        int middle = (values.length - n) / 2;
        int best = middle;
        long bestExcess = Long.MAX_VALUE;
        for (int i = 0; i + n <= values.length; i++) {
            long excess = upperBound(values, values[i + n - 1]) - lowerBound(values, values[i]) - n;
            if (excess < bestExcess || (excess == bestExcess && Math.abs(i - middle) < Math.abs(best - middle))) {
                bestExcess = excess;
                best = i;
            }
        }
        return best;
    }

    /** Leading-column values of every index entry, in index order, by one sequential pass. */
    @SuppressWarnings("unchecked")
    private static Comparable<Object>[] leadingValues(SecondaryIndex ix) {
        long count = ix.tree().meta().entryCount();
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("index " + ix.name() + " is too large to choose a range from");
        }
        Comparable<Object>[] out = new Comparable[(int) count];
        int[] next = {0};
        LeafScanner.forEachLeaf(ix.tree(), leaf -> {
            for (int i = 0; i < leaf.count(); i++) {
                out[next[0]++] = (Comparable<Object>) ix.entryAt(leaf, i)[0];
            }
        });
        return out;
    }

    /** Index of the first value >= v (the first > v when {@code after}), in a sorted array. */
    private static int search(Comparable<Object>[] sorted, Comparable<Object> v, boolean after) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = sorted[mid].compareTo(v);
            if (c < 0 || (after && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int lowerBound(Comparable<Object>[] sorted, Comparable<Object> v) {
        return search(sorted, v, false);
    }

    private static int upperBound(Comparable<Object>[] sorted, Comparable<Object> v) {
        return search(sorted, v, true);
    }
}
