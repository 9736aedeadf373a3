package org.oooengine.hive.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.hive.sql.SqlException;

/** Small readers over Hive's syntax tree. */
final class Ast {
    private Ast() {
    }

    static ASTNode child(ASTNode n, int i) {
        return (ASTNode) n.getChild(i);
    }

    static List<ASTNode> children(ASTNode n) {
        List<ASTNode> out = new ArrayList<>(n.getChildCount());
        for (int i = 0; i < n.getChildCount(); i++) {
            out.add(child(n, i));
        }
        return out;
    }

    /** The first child of type {@code type}, or null. */
    static ASTNode find(ASTNode n, int type) {
        for (int i = 0; i < n.getChildCount(); i++) {
            if (n.getChild(i).getType() == type) {
                return child(n, i);
            }
        }
        return null;
    }

    /** An identifier as SQL compares it: lower case, without back-quotes. */
    static String name(ASTNode n) {
        String t = n.getText();
        if (t.length() > 1 && t.startsWith("`") && t.endsWith("`")) {
            t = t.substring(1, t.length() - 1);
        }
        return t.toLowerCase(Locale.ROOT);
    }

    /** Where a node starts, for messages: the node or its first positioned descendant. */
    static String position(ASTNode n) {
        ASTNode p = positioned(n);
        return p == null ? "" : " at line " + p.getLine() + ":" + p.getCharPositionInLine();
    }

    private static ASTNode positioned(ASTNode n) {
        if (n.getLine() > 0) {
            return n;
        }
        for (ASTNode c : children(n)) {
            ASTNode p = positioned(c);
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** A string literal's value: quotes removed, Hive's backslash escapes and doubled quotes resolved. */
    static String unquote(String literal) {
        char q = literal.charAt(0);
        String body = literal.substring(1, literal.length() - 1);
        StringBuilder b = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' && i + 1 < body.length()) {
                char e = body.charAt(++i);
                b.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case '0' -> '\0';
                    default -> e;
                });
            } else if (c == q && i + 1 < body.length() && body.charAt(i + 1) == q) {
                b.append(c);
                i++;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** A new node (for rewriting a subquery); children are shared, not copied. */
    static ASTNode node(int type, String text, List<ASTNode> children) {
        ASTNode n = new ASTNode(new org.antlr.runtime.CommonToken(type, text));
        children.forEach(n::addChild);
        return n;
    }

    /** Whether {@code n} or a node under it is a subquery expression. */
    static boolean containsSubquery(ASTNode n) {
        if (n.getType() == org.apache.hadoop.hive.ql.parse.HiveParser.TOK_SUBQUERY_EXPR) {
            return true;
        }
        return children(n).stream().anyMatch(Ast::containsSubquery);
    }

    /** The top-level conjuncts of a condition (its AND tree flattened). */
    static List<ASTNode> conjuncts(ASTNode condition) {
        List<ASTNode> out = new ArrayList<>();
        if (condition.getType() == org.apache.hadoop.hive.ql.parse.HiveParser.KW_AND) {
            children(condition).forEach(c -> out.addAll(conjuncts(c)));
        } else {
            out.add(condition);
        }
        return out;
    }

    static SqlException error(String sqlState, String message, ASTNode at) {
        return new SqlException(sqlState, message + position(at));
    }

    static SqlException notSupported(String construct, ASTNode at) {
        return new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: " + construct + position(at));
    }
}
