package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/** A GROUP BY key no one reads, determined by a primary-key key of the same table row, groups as NULL. */
class DeterminedGroupKeysTest {
    private static final TableInfo SALES = table("sales", "s_id", "s_item", "s_date");
    private static final TableInfo ITEM = table("item", "i_key", "i_desc");
    private static final AggregateCall COUNT = new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT);

    @Test
    void anUnreadKeyOfTheSameRowAsAPrimaryKeyIsGroupedAsNull() {
        // sales ⋈ item on s_item = i_key; GROUP BY i_desc, i_key, s_date; only i_key and the count read
        RelNode.Aggregate a = grouped(scan(ITEM, "i"), List.of(4, 3, 2));
        RelNode.Aggregate pruned = DeterminedGroupKeys.pruned(a, bits(1, 3));
        assertEquals(new Expr.Literal(null, SqlType.STRING), pruned.keys().get(0));
        assertEquals(a.keys().subList(1, 3), pruned.keys().subList(1, 3));
        assertEquals(a.fields(), pruned.fields());
    }

    @Test
    void aReadKeyOrOneNoPrimaryKeyDeterminesIsKept() {
        RelNode.Aggregate a = grouped(scan(ITEM, "i"), List.of(4, 3, 2));
        assertSame(a, DeterminedGroupKeys.pruned(a, bits(0, 1, 3)), "the description is read");
        // s_date is of the sales row, which the item key does not determine
        RelNode.Aggregate dates = grouped(scan(ITEM, "i"), List.of(3, 2));
        assertSame(dates, DeterminedGroupKeys.pruned(dates, bits(0, 2)));
    }

    @Test
    void aTableReadTwiceDeterminesNothing() {
        // one scan on both sides of a self-join: its key in one row says nothing of the other's description
        RelNode.Scan item = scan(ITEM, "i");
        RelNode self = new RelNode.Join(item, item, JoinKind.CROSS, new int[0], new int[0], null);
        RelNode.Aggregate a = new RelNode.Aggregate(self, List.of(col(3, SqlType.STRING), col(0, SqlType.BIGINT)),
                List.of(COUNT), List.of(new Field(null, "d", SqlType.STRING),
                new Field(null, "k", SqlType.BIGINT), new Field(null, "n", SqlType.BIGINT)));
        assertSame(a, DeterminedGroupKeys.pruned(a, bits(1, 2)));
    }

    /** sales (columns 0-2) joined with item (3-4), grouped by {@code keys} with a count. */
    private static RelNode.Aggregate grouped(RelNode item, List<Integer> keys) {
        RelNode join = new RelNode.Join(scan(SALES, "s"), item, JoinKind.INNER, new int[] {1}, new int[] {0}, null);
        List<Expr> exprs = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int k : keys) {
            Field f = join.fields().get(k);
            exprs.add(col(k, f.type()));
            fields.add(f);
        }
        fields.add(new Field(null, "n", SqlType.BIGINT));
        return new RelNode.Aggregate(join, exprs, List.of(COUNT), fields);
    }

    private static Expr col(int i, SqlType t) {
        return new Expr.Column(i, t);
    }

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    private static RelNode.Scan scan(TableInfo t, String alias) {
        return new RelNode.Scan(t, alias, t.columns().stream().map(c -> new Field(alias, c.name(), c.type())).toList(), null);
    }

    private static TableInfo table(String name, String key, String... others) {
        List<ResultColumn> cols = new ArrayList<>(List.of(new ResultColumn(key, SqlType.BIGINT)));
        for (String other : others) {
            cols.add(new ResultColumn(other, other.endsWith("desc") ? SqlType.STRING : SqlType.BIGINT));
        }
        return new TableInfo("default", name, cols, List.of(key), name, Map.of(), "");
    }
}
