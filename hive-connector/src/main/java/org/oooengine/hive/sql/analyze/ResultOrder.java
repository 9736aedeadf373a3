package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;

/**
 * Hive's clauses that order or place a query's rows: ORDER BY, SORT BY, DISTRIBUTE BY and CLUSTER BY.
 * In Hive, SORT BY sorts the rows each reducer writes and DISTRIBUTE BY chooses the reducer of each
 * row. A query's result here is one stream, as if one reducer wrote it: SORT BY sorts it as ORDER BY
 * would, DISTRIBUTE BY leaves it as it is (it promises no order), and CLUSTER BY x, being DISTRIBUTE
 * BY x SORT BY x, sorts on x ascending. The combinations Hive refuses are refused in its words.
 */
final class ResultOrder {
    private ResultOrder() {
    }

    /** Refuses the clauses Hive does not let meet in one query (its errors 10004 to 10008). */
    static void checkClauses(ASTNode insert) {
        ASTNode order = Ast.find(insert, TOK_ORDERBY);
        ASTNode sort = Ast.find(insert, TOK_SORTBY);
        ASTNode cluster = Ast.find(insert, TOK_CLUSTERBY);
        ASTNode distribute = Ast.find(insert, TOK_DISTRIBUTEBY);
        conflict(cluster, distribute, "CLUSTER BY", "DISTRIBUTE BY");
        conflict(order, distribute, "ORDER BY", "DISTRIBUTE BY");
        conflict(cluster, sort, "CLUSTER BY", "SORT BY");
        conflict(order, sort, "ORDER BY", "SORT BY");
        conflict(cluster, order, "CLUSTER BY", "ORDER BY");
    }

    private static void conflict(ASTNode one, ASTNode other, String oneName, String otherName) {
        if (one != null && other != null) {
            throw Ast.error(SqlException.SYNTAX, "Cannot have both " + oneName + " and " + otherName + " clauses", other);
        }
    }

    /**
     * The keys the result is sorted on, as ORDER BY writes them ({@code TOK_TABSORTCOLNAMEASC} or
     * {@code ...DESC} over a nulls node over the expression): ORDER BY's, SORT BY's, or CLUSTER BY's
     * expressions ascending with NULLs last, Hive's
     * default ({@code hive.default.nulls.last}), as its parser writes an ascending key without NULLS FIRST.
     */
    static List<ASTNode> sortKeys(ASTNode insert) {
        ASTNode order = Ast.find(insert, TOK_ORDERBY);
        if (order != null) {
            return Ast.children(order);
        }
        ASTNode sort = Ast.find(insert, TOK_SORTBY);
        if (sort != null) {
            return Ast.children(sort).stream().filter(k -> !isNumber(Ast.child(Ast.child(k, 0), 0))).toList();
        }
        ASTNode cluster = Ast.find(insert, TOK_CLUSTERBY);
        return cluster == null ? List.of() : ascending(Ast.children(cluster));
    }

    /**
     * Hive reads a number in ORDER BY (and GROUP BY) as a select-list position, in SORT BY,
     * CLUSTER BY and DISTRIBUTE BY as the constant it is, which orders nothing: such keys are left out.
     */
    private static boolean isNumber(ASTNode e) {
        return e.getType() == Number;
    }

    /** DISTRIBUTE BY's expressions, written as ascending sort keys: they are bound, not followed. */
    static List<ASTNode> distributeKeys(ASTNode insert) {
        ASTNode distribute = Ast.find(insert, TOK_DISTRIBUTEBY);
        return distribute == null ? List.of() : ascending(Ast.children(distribute));
    }

    private static List<ASTNode> ascending(List<ASTNode> expressions) {
        return expressions.stream().filter(e -> !isNumber(e)).map(e -> Ast.node(TOK_TABSORTCOLNAMEASC, "TOK_TABSORTCOLNAMEASC",
                List.of(Ast.node(TOK_NULLS_LAST, "TOK_NULLS_LAST", List.of(Ast.copy(e)))))).toList();
    }
}
