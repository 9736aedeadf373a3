package org.oooengine.hive.sql.analyze;

import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.hive.sql.SqlException;
import org.oooengine.hive.sql.plan.Field;

/** The columns an expression can name: an operator's input row, by position. */
record Scope(List<Field> fields) {
    /** The position of {@code qualifier.name} (qualifier may be null). */
    int resolve(String qualifier, String name, ASTNode at) {
        int found = -1;
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            if (f.name().equals(name) && (qualifier == null || qualifier.equals(f.qualifier()))) {
                if (found >= 0) {
                    throw Ast.error(SqlException.SYNTAX, "column '" + name + "' is ambiguous", at);
                }
                found = i;
            }
        }
        if (found < 0) {
            String what = qualifier == null ? name : qualifier + "." + name;
            throw Ast.error(SqlException.UNKNOWN_COLUMN, "unknown column '" + what + "'", at);
        }
        return found;
    }

    boolean hasQualifier(String qualifier) {
        return fields.stream().anyMatch(f -> qualifier.equals(f.qualifier()));
    }
}
