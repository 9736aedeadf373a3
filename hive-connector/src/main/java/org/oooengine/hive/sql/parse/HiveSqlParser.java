package org.oooengine.hive.sql.parse;

import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.apache.hadoop.hive.ql.parse.HiveParser;
import org.apache.hadoop.hive.ql.parse.ParseDriver;
import org.apache.hadoop.hive.ql.parse.ParseException;
import org.oooengine.core.sql.SqlException;

/**
 * HiveQL text to Hive's own syntax tree, through Hive's parser ({@code ParseDriver}): whatever
 * Hive accepts, we parse the same way. A syntax error keeps Hive's message, which names the line,
 * the column and the tokens near it.
 */
public final class HiveSqlParser {
    private HiveSqlParser() {
    }

    /** The statement's tree (the node under Hive's nil root). */
    public static ASTNode parse(String sql) {
        String text = stripTrailingSemicolons(sql);
        if (text.isBlank()) {
            throw new SqlException(SqlException.SYNTAX, "empty statement");
        }
        try {
            ASTNode root = new ParseDriver().parse(text).getTree();
            // ParseDriver wraps the statement in a nil node followed by EOF
            while (root.getToken() == null && root.getChildCount() > 0) {
                root = (ASTNode) root.getChild(0);
            }
            dropHints(root);
            return root;
        } catch (ParseException e) {
            throw new SqlException(SqlException.SYNTAX, "syntax error: " + e.getMessage().strip() + hint(text, e), e);
        }
    }

    private static final java.util.regex.Pattern EMPTY_IN = java.util.regex.Pattern.compile("(?i)\\bin\\s*\\(\\s*\\)");

    /**
     * What Hive's message leaves to guess: an empty {@code IN ()} list, which Hive's grammar does
     * not take (it wants one value at least) and which it reports as tokens it cannot recognise.
     */
    private static String hint(String text, ParseException e) {
        if (e.getMessage().contains("'(' ')'") && EMPTY_IN.matcher(text).find()) {
            return " (IN needs at least one value: Hive's grammar has no empty IN () list)";
        }
        return "";
    }

    /**
     * Removes optimizer hints (a comment opened by {@code /*+}, such as {@code MAPJOIN(t)}): they
     * are accepted and not followed, the planner choosing how to join, as Hive does by default
     * ({@code hive.ignore.mapjoin.hint=true}).
     */
    private static void dropHints(ASTNode n) {
        for (int i = n.getChildCount() - 1; i >= 0; i--) {
            ASTNode c = (ASTNode) n.getChild(i);
            if (c.getType() == HiveParser.QUERY_HINT) {
                n.deleteChild(i);
            } else {
                dropHints(c);
            }
        }
    }

    private static String stripTrailingSemicolons(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }
}
