package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;

/**
 * Hive's {@code count(DISTINCT a, b, ...)}: the distinct tuples in which no value is NULL. The
 * tuple is counted as one value that no other tuple shares: each value as text after its length
 * ({@code 3:ann1:7}), which two different tuples of the same types never write alike, and NULL
 * when a value is NULL, which count skips.
 */
final class DistinctTuples {
    private DistinctTuples() {
    }

    /** The expression whose distinct non-NULL values are the distinct tuples of {@code values}. */
    static ASTNode tuple(List<ASTNode> values) {
        ASTNode anyNull = null;
        List<ASTNode> parts = new ArrayList<>();
        for (ASTNode v : values) {
            ASTNode isNull = function("isnull", Ast.copy(v));
            anyNull = anyNull == null ? isNull : Ast.node(KW_OR, "or", List.of(anyNull, isNull));
            ASTNode text = Ast.node(TOK_FUNCTION, "TOK_FUNCTION", List.of(Ast.node(TOK_STRING, "TOK_STRING", List.of()),
                    Ast.copy(v)));
            parts.add(function("length", Ast.copy(text)));
            parts.add(Ast.node(StringLiteral, "':'", List.of()));
            parts.add(text);
        }
        return function("if", anyNull, Ast.node(TOK_NULL, "TOK_NULL", List.of()),
                function("concat", parts.toArray(ASTNode[]::new)));
    }

    private static ASTNode function(String name, ASTNode... args) {
        List<ASTNode> children = new ArrayList<>();
        children.add(Ast.node(Identifier, name, List.of()));
        children.addAll(List.of(args));
        return Ast.node(TOK_FUNCTION, "TOK_FUNCTION", children);
    }
}
