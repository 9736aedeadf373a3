package org.oooengine.hive.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;

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
        // a literal such as TIMESTAMP '...' may carry no position of its own: where its parent starts
        for (ASTNode up = n; p == null && up.getParent() instanceof ASTNode parent; up = parent) {
            p = positioned(parent);
        }
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

    /** A copy of the tree under {@code n}: a node has one parent, so a tree used in two places is copied. */
    static ASTNode copy(ASTNode n) {
        ASTNode c = new ASTNode(n);
        children(n).forEach(child -> c.addChild(copy(child)));
        return c;
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
        return new SqlException(sqlState, asWritten(message) + position(at));
    }

    static SqlException notSupported(String construct, ASTNode at) {
        return new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: " + asWritten(construct) + position(at));
    }

    /** Hive's names for what has no text of its own, spelled the way SQL writes it. */
    private static final Map<String, String> WRITTEN = Map.ofEntries(
            Map.entry("TIMESTAMPLITERAL", "TIMESTAMP literal"),
            Map.entry("TIMESTAMPLOCALTZLITERAL", "TIMESTAMP WITH LOCAL TIME ZONE literal"),
            Map.entry("DATELITERAL", "DATE literal"),
            Map.entry("INTERVAL_YEAR_MONTH_LITERAL", "INTERVAL literal"),
            Map.entry("INTERVAL_DAY_TIME_LITERAL", "INTERVAL literal"),
            Map.entry("CHARSETLITERAL", "character set literal"),
            Map.entry("WINDOWSPEC", "window function (OVER)"),
            Map.entry("FUNCTION", "function call"),
            Map.entry("FUNCTIONSTAR", "function call with *"),
            Map.entry("FUNCTIONDI", "function call with DISTINCT"),
            Map.entry("TABLEPARTCOLS", "PARTITIONED BY"),
            Map.entry("TABLEROWFORMAT", "ROW FORMAT"),
            Map.entry("SUBQUERY_EXPR", "subquery"),
            Map.entry("SUBQUERY", "subquery"),
            Map.entry("PTBLFUNCTION", "table function"),
            Map.entry("LATERAL_VIEW", "LATERAL VIEW"),
            Map.entry("PRIMARY_KEY", "PRIMARY KEY"),
            Map.entry("FOREIGN_KEY", "FOREIGN KEY"));
    private static final Pattern TOKEN = Pattern.compile("(?i)\\btok_(\\w+)");

    /**
     * {@code text} with Hive's token names (TOK_TIMESTAMP) replaced by the SQL a user writes
     * (TIMESTAMP): a type name as the keyword, a literal or clause by its name.
     */
    static String asWritten(String text) {
        Matcher m = TOKEN.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String token = m.group(1).toUpperCase(Locale.ROOT);
            m.appendReplacement(out, Matcher.quoteReplacement(WRITTEN.getOrDefault(token, token.replace('_', ' '))));
        }
        return m.appendTail(out).toString();
    }

    /** HiveParser's imaginary token types by number (its TOK_ constants), for {@link #described}. */
    private static final Map<Integer, String> TOKEN_NAMES = tokenNames();

    private static Map<Integer, String> tokenNames() {
        Map<Integer, String> names = new java.util.HashMap<>();
        for (java.lang.reflect.Field f : org.apache.hadoop.hive.ql.parse.HiveParser.class.getFields()) {
            if (f.getName().startsWith("TOK_") && f.getType() == int.class
                    && java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                try {
                    names.putIfAbsent(f.getInt(null), f.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Map.copyOf(names);
    }

    /** An expression node for messages: a literal or construct by its SQL name, with its text. */
    static String described(ASTNode n) {
        String token = TOKEN_NAMES.getOrDefault(n.getType(), "");
        return token.startsWith("TOK_") && !token.equals(n.getText())
                ? asWritten(token) + " " + n.getText() : "expression '" + n.getText() + "'";
    }

    /**
     * A called function's name as written; a type token (TIMESTAMP '...', or CAST's target) as
     * the type's keyword.
     */
    static String functionName(ASTNode nameNode) {
        String text = nameNode.getText();
        return text.regionMatches(true, 0, "TOK_", 0, 4) ? asWritten(text) : name(nameNode);
    }
}
