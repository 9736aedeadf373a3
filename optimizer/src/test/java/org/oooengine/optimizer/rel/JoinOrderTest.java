package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A group of inner joins is reordered so that each next relation is linked by an equality to those
 * joined while one is: a small, selective relation that only a later one links to is not joined
 * first as a cross product.
 */
class JoinOrderTest {
    private static final TableInfo FACT = table("fact", "f_key", "f_dim");
    private static final TableInfo DIM = table("dim", "d_key", "d_sub");
    private static final TableInfo SUB = table("sub", "s_key", "s_name");
    private static final Map<TableInfo, Long> ROWS = Map.of(FACT, 100_000L, DIM, 1_000L, SUB, 50L);
    private static final TableLayouts LAYOUTS = new TableLayouts() {
        @Override
        public OptionalLong rows(TableInfo table) {
            return OptionalLong.of(ROWS.get(table));
        }

        @Override
        public OptionalLong bytes(TableInfo table) {
            return OptionalLong.empty();
        }

        @Override
        public int nodes(TableInfo table) {
            return 2;
        }

        @Override
        public boolean partitionedAlike(TableInfo a, TableInfo b) {
            return false;
        }

        @Override
        public long[] range(TableInfo table, int column) {
            return null;
        }

        @Override
        public double distinct(TableInfo table, int column) {
            return ROWS.get(table);
        }
    };

    @Test
    void aSelectiveRelationLinkedOnlyThroughAnotherWaitsForIt() {
        RelNode.Scan fact = scan(FACT, "f", null);
        RelNode.Scan dim = scan(DIM, "d", null);
        RelNode.Scan sub = scan(SUB, "s", eq(new Expr.Column(1, SqlType.STRING), new Expr.Literal("x", SqlType.STRING)));
        // written: sub, fact, dim, with sub.s_key = dim.d_sub and fact.f_dim = dim.d_key
        RelNode subFact = new RelNode.Join(sub, fact, JoinKind.CROSS, new int[0], new int[0], null);
        RelNode written = new RelNode.Join(subFact, dim, JoinKind.INNER, new int[] {3}, new int[] {0},
                eq(new Expr.Column(0, SqlType.BIGINT), new Expr.Column(5, SqlType.BIGINT)));
        RelNode reordered = JoinOrder.reorder(written, LAYOUTS, PipelinePlanner.Limits.DEFAULTS);
        List<RelNode.Join> joins = new ArrayList<>();
        collectJoins(reordered, joins);
        assertEquals(2, joins.size(), reordered.toString());
        joins.forEach(j -> assertNotEquals(JoinKind.CROSS, j.kind(), reordered.toString()));
    }

    private static void collectJoins(RelNode node, List<RelNode.Join> out) {
        if (node instanceof RelNode.Join j) {
            out.add(j);
            collectJoins(j.left(), out);
            collectJoins(j.right(), out);
        } else if (node instanceof RelNode.Project p) {
            collectJoins(p.input(), out);
        } else if (node instanceof RelNode.Filter f) {
            collectJoins(f.input(), out);
        }
    }

    private static Expr eq(Expr a, Expr b) {
        return new Expr.Call(ScalarFunction.EQ, List.of(a, b), SqlType.BOOLEAN);
    }

    private static RelNode.Scan scan(TableInfo t, String alias, Expr filter) {
        List<Field> fields = t.columns().stream().map(c -> new Field(alias, c.name(), c.type())).toList();
        return new RelNode.Scan(t, alias, fields, filter);
    }

    private static TableInfo table(String name, String key, String other) {
        List<ResultColumn> cols = List.of(new ResultColumn(key, SqlType.BIGINT),
                new ResultColumn(other, other.endsWith("name") ? SqlType.STRING : SqlType.BIGINT));
        return new TableInfo("default", name, cols, List.of(key), name, Map.of(), "");
    }
}
