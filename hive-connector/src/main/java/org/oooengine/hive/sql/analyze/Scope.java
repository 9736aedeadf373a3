package org.oooengine.hive.sql.analyze;

import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.optimizer.rel.Field;

/**
 * The columns an expression can name: an operator's input row, by position. In a correlated
 * subquery's condition the row is the outer query's columns followed by the subquery's, and a
 * name resolves in the subquery first ({@code innerFrom}: where its columns start), as SQL scopes do.
 */
record Scope(List<Field> fields, int innerFrom) {
    Scope(List<Field> fields) {
        this(fields, 0);
    }

    /** The position of {@code qualifier.name} (qualifier may be null). */
    int resolve(String qualifier, String name, ASTNode at) {
        if (innerFrom > 0) {
            int inner = find(qualifier, name, innerFrom, fields.size(), at);
            if (inner >= 0) {
                return inner;
            }
            int outer = find(qualifier, name, 0, innerFrom, at);
            if (outer >= 0) {
                return outer;
            }
            throw unknown(qualifier, name, at);
        }
        int found = find(qualifier, name, 0, fields.size(), at);
        if (found < 0) {
            throw unknown(qualifier, name, at);
        }
        return found;
    }

    private static SqlException unknown(String qualifier, String name, ASTNode at) {
        String what = qualifier == null ? name : qualifier + "." + name;
        return Ast.error(SqlException.UNKNOWN_COLUMN, "unknown column '" + what + "'", at);
    }

    private int find(String qualifier, String name, int from, int to, ASTNode at) {
        int found = -1;
        for (int i = from; i < to; i++) {
            Field f = fields.get(i);
            if (f.name().equals(name) && (qualifier == null || qualifier.equals(f.qualifier()))) {
                if (found >= 0) {
                    throw Ast.error(SqlException.SYNTAX, "column '" + name + "' is ambiguous", at);
                }
                found = i;
            }
        }
        return found;
    }

    boolean hasQualifier(String qualifier) {
        return fields.stream().anyMatch(f -> qualifier.equals(f.qualifier()));
    }
}
