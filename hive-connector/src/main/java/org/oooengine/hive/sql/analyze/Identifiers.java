package org.oooengine.hive.sql.analyze;

import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;

/**
 * The names a statement may give what it creates. Between backquotes Hive's parser takes almost
 * any text; as Hive's metastore does, we refuse the characters that would make a name mean
 * something else: a dot (a table of database {@code a} is stored as {@code a.t}, so a table
 * named {@code a.t} would be another's), path separators, and control characters, which no
 * client can show. Letters and digits of any script are fine: no file is ever named after a table.
 */
final class Identifiers {
    /** Hive's metastore keeps database and table names in 128 characters. */
    static final int MAX_LENGTH = 128;

    private Identifiers() {
    }

    /** A database's or table's name, as created: checked, then returned. */
    static String objectName(String kind, String name, ASTNode at) {
        check(kind, name, at);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.' || c == '/' || c == '\\') {
                throw Ast.error(SqlException.SYNTAX, kind + " name " + shown(name) + " contains '" + c
                        + "', which names may not hold", at);
            }
        }
        return name;
    }

    /** A column's name, as created: no invisible characters, at most {@link #MAX_LENGTH} characters. */
    static String columnName(String name, ASTNode at) {
        check("column", name, at);
        return name;
    }

    private static void check(String kind, String name, ASTNode at) {
        if (name.isBlank()) {
            throw Ast.error(SqlException.SYNTAX, kind + " name is empty", at);
        }
        int length = name.codePointCount(0, name.length());
        if (length > MAX_LENGTH) {
            throw Ast.error(SqlException.SYNTAX, kind + " name " + shown(name) + " has " + length
                    + " characters; names have at most " + MAX_LENGTH, at);
        }
        name.codePoints().filter(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                || Character.getType(c) == Character.SURROGATE).findFirst().ifPresent(c -> {
                    throw Ast.error(SqlException.SYNTAX, kind + " name " + shown(name) + " contains the invisible character U+"
                            + String.format("%04X", c) + ", which names may not hold", at);
                });
    }

    /** The name as a message shows it: at most 40 characters, control characters escaped. */
    private static String shown(String name) {
        StringBuilder b = new StringBuilder("`");
        name.codePoints().limit(40).forEach(c -> {
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append(name.length() > 40 ? "...`" : "`").toString();
    }
}
