package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.hive.sql.parse.HiveSqlParser;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Views: {@code CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v [(columns)] [COMMENT ...] AS query},
 * {@code ALTER VIEW v AS query} and {@code DROP VIEW}, and a view read as a table. A view keeps
 * the statement that made it; reading it analyses its query again, in the view's database, so it
 * reads its tables as they are then. Its query is analysed when it is created too: a view that
 * names an unknown table or column, or itself, is refused at once.
 */
public final class Views {
    /** The views being expanded on this thread, innermost last: a view that reaches itself is refused. */
    private static final ThreadLocal<Deque<String>> EXPANDING = ThreadLocal.withInitial(ArrayDeque::new);

    private Views() {
    }

    /** CREATE VIEW, or ALTER VIEW ... AS (which replaces a view that must exist), of statement text {@code sql}. */
    static DdlStatement.CreateView create(Catalog catalog, String database, ASTNode n, String sql) {
        ASTNode tabName = Ast.child(n, 0);
        String db = tabName.getChildCount() > 1 ? Ast.name(Ast.child(tabName, 0)) : database;
        String name = Identifiers.objectName("view", Ast.name(Ast.child(tabName, tabName.getChildCount() - 1)), tabName);
        boolean alter = n.getType() == TOK_ALTERVIEW;
        boolean ifNotExists = false;
        boolean orReplace = alter;
        String comment = "";
        ASTNode columnList = null;
        ASTNode query = null;
        for (int i = 1; i < n.getChildCount(); i++) {
            ASTNode c = Ast.child(n, i);
            switch (c.getType()) {
                case TOK_IFNOTEXISTS -> ifNotExists = true;
                case TOK_ORREPLACE -> orReplace = true;
                case TOK_TABCOLNAME -> columnList = c;
                case TOK_TABLECOMMENT -> comment = Ast.unquote(Ast.child(c, 0).getText());
                case TOK_QUERY -> query = c;
                case TOK_ALTERVIEW_AS -> query = Ast.child(c, 0);
                default -> throw Ast.notSupported((alter ? "ALTER VIEW " : "CREATE VIEW with ")
                        + c.getText().replace("TOK_", ""), c);
            }
        }
        if (query == null) {
            throw Ast.notSupported(alter ? "ALTER VIEW other than ALTER VIEW ... AS query" : "CREATE VIEW without a query", n);
        }
        RelNode plan = analysed(catalog, db, db + "." + name, query);
        return new DdlStatement.CreateView(db, name, columns(plan, columnList), sql, comment, ifNotExists, orReplace, alter);
    }

    /** The view's columns: as its column list names them, else as its query does; types as the query gives them. */
    private static List<ResultColumn> columns(RelNode plan, ASTNode columnList) {
        List<Field> fields = plan.fields();
        List<ResultColumn> out = new ArrayList<>();
        if (columnList != null && columnList.getChildCount() != fields.size()) {
            throw Ast.error(SqlException.SYNTAX, "the view's column list names " + columnList.getChildCount()
                    + " columns; its query gives " + fields.size(), columnList);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            ASTNode col = columnList == null ? null : Ast.child(columnList, i);
            String name = col == null ? fields.get(i).name() : Ast.name(Ast.child(col, 0));
            String comment = col != null && col.getChildCount() > 2 ? Ast.unquote(Ast.child(col, 2).getText()) : "";
            if (!seen.add(name)) {
                String message = "the view would have two columns named " + name + ": name them with a column list or aliases";
                throw col != null ? Ast.error(SqlException.SYNTAX, message, col) : new SqlException(SqlException.SYNTAX, message);
            }
            out.add(new ResultColumn(name, fields.get(i).type(), comment));
        }
        return out;
    }

    /** A view read as a table: its query's plan, its columns named as the view names them. */
    static RelNode expand(Catalog catalog, CatalogView view, ASTNode at) {
        String qualified = view.database() + "." + view.name();
        RelNode plan = analysed(catalog, view.database(), qualified, queryOf(view));
        List<Field> fields = plan.fields();
        if (fields.size() != view.columns().size()) {
            throw Ast.error(SqlException.GENERAL, "view " + qualified + " no longer reads as it was created: its query gives "
                    + fields.size() + " columns, the view has " + view.columns().size() + "; create it again", at);
        }
        List<Expr> columns = new ArrayList<>();
        List<Field> named = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(new Expr.Column(i, fields.get(i).type()));
            named.add(new Field(view.name(), view.columns().get(i).name(), fields.get(i).type()));
        }
        return new RelNode.Project(plan, columns, named);
    }

    /** The query of the statement a view keeps. */
    static ASTNode queryOf(CatalogView view) {
        ASTNode statement = HiveSqlParser.parse(view.statement());
        ASTNode query = statement.getType() == TOK_ALTERVIEW ? Ast.find(statement, TOK_ALTERVIEW_AS) : statement;
        return Ast.child(query, query.getChildCount() - 1);
    }

    /** {@code query} analysed in {@code database} as the body of view {@code qualified}, which it must not reach. */
    private static RelNode analysed(Catalog catalog, String database, String qualified, ASTNode query) {
        Deque<String> expanding = EXPANDING.get();
        if (expanding.contains(qualified)) {
            List<String> chain = new ArrayList<>(expanding);
            chain.add(qualified);
            throw new SqlException(SqlException.SYNTAX, "view " + qualified + " refers to itself: "
                    + String.join(" -> ", chain.subList(chain.indexOf(qualified), chain.size())));
        }
        expanding.addLast(qualified);
        try {
            return new QueryAnalyzer(catalog, database).query(query);
        } finally {
            expanding.removeLast();
        }
    }
}
