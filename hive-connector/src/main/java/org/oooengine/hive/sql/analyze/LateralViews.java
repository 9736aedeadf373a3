package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Generator;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Hive's table-generating functions (explode, posexplode): {@code FROM src LATERAL VIEW [OUTER]
 * explode(a) t AS c}, several in a row, each over the columns of what it follows; and the
 * select-list form {@code SELECT explode(a) AS c FROM src}, where the call is the only item and
 * its columns are the result's (LIMIT applies; GROUP BY, ORDER BY, DISTINCT and the like are
 * refused, as Hive refuses them).
 */
final class LateralViews {
    private LateralViews() {
    }

    /** A LATERAL VIEW FROM item; {@code relation} plans what it follows (a table, a subquery, another one). */
    static RelNode plan(ASTNode view, Function<ASTNode, RelNode> relation) {
        boolean outer = view.getType() == TOK_LATERAL_VIEW_OUTER;
        RelNode input = relation.apply(Ast.child(view, 1));
        ASTNode item = Ast.child(Ast.child(view, 0), 0);
        String alias = null;
        List<String> names = new ArrayList<>();
        for (ASTNode c : Ast.children(item).subList(1, item.getChildCount())) {
            if (c.getType() == TOK_TABALIAS) {
                alias = Ast.name(Ast.child(c, 0));
            } else {
                names.add(Ast.name(c));
            }
        }
        Generator generator = generator(Ast.child(item, 0), outer, new ExprBinder(new Scope(input.fields())));
        return new RelNode.Generate(input, generator, fields(input.fields(), generator, alias, names, item));
    }

    /** The select list's only item when it is a table-generating call, else null. */
    static ASTNode selectCall(ASTNode select) {
        if (select == null || select.getChildCount() != 1) {
            return null;
        }
        ASTNode e = Ast.child(Ast.child(select, 0), 0);
        return isGeneratorCall(e) ? Ast.child(select, 0) : null;
    }

    /** {@code SELECT explode(a) [AS c, ...] FROM ...}: the generated columns of each row of {@code input}. */
    static RelNode selectForm(RelNode input, ASTNode insert, ASTNode item) {
        for (ASTNode c : Ast.children(insert)) {
            String clause = switch (c.getType()) {
                case TOK_GROUPBY, TOK_ROLLUP_GROUPBY, TOK_CUBE_GROUPBY, TOK_GROUPING_SETS -> "GROUP BY";
                case TOK_HAVING -> "HAVING";
                case TOK_ORDERBY -> "ORDER BY";
                case TOK_SORTBY -> "SORT BY";
                case TOK_CLUSTERBY -> "CLUSTER BY";
                case TOK_DISTRIBUTEBY -> "DISTRIBUTE BY";
                case TOK_SELECTDI -> "SELECT DISTINCT";
                case TOK_WINDOWSPEC -> "WINDOW";
                default -> null;
            };
            if (clause != null) {
                throw Ast.error(SqlException.SYNTAX, clause + " is not allowed with a table-generating function in the "
                        + "select list (as in Hive): use LATERAL VIEW", c);
            }
        }
        Generator generator = generator(Ast.child(item, 0), false, new ExprBinder(new Scope(input.fields())));
        List<String> names = new ArrayList<>();
        Ast.children(item).subList(1, item.getChildCount()).forEach(c -> names.add(Ast.name(c)));
        List<Field> all = fields(input.fields(), generator, null, names, item);
        RelNode rows = new RelNode.Generate(input, generator, all);
        int width = input.fields().size();
        List<Expr> generated = new ArrayList<>();
        for (int i = width; i < all.size(); i++) {
            generated.add(new Expr.Column(i, all.get(i).type()));
        }
        RelNode out = new RelNode.Project(rows, generated, all.subList(width, all.size()));
        ASTNode limit = Ast.find(insert, TOK_LIMIT);
        if (limit != null) {
            long offset = limit.getChildCount() > 1 ? Long.parseLong(Ast.child(limit, 0).getText()) : 0;
            out = new RelNode.Limit(out, offset, Long.parseLong(Ast.child(limit, limit.getChildCount() - 1).getText()));
        }
        return out;
    }

    private static boolean isGeneratorCall(ASTNode e) {
        return e.getType() == TOK_FUNCTION && e.getChildCount() > 0 && Ast.child(e, 0).getType() == Identifier
                && Generators.isGenerator(Ast.name(Ast.child(e, 0)));
    }

    private static Generator generator(ASTNode call, boolean outer, ExprBinder binder) {
        if (call.getType() != TOK_FUNCTION || call.getChildCount() == 0) {
            throw Ast.notSupported("LATERAL VIEW over " + Ast.described(call), call);
        }
        String name = Ast.name(Ast.child(call, 0)).toLowerCase(Locale.ROOT);
        if (!Generators.isGenerator(name)) {
            throw Ast.notSupported("table function " + name + " (only explode and posexplode)", call);
        }
        if (call.getChildCount() != 2) {
            throw Ast.error(SqlException.SYNTAX, name + " takes 1 argument, not " + (call.getChildCount() - 1), call);
        }
        Expr arg = binder.bind(Ast.child(call, 1));
        SqlType t = arg.type();
        Generator.Kind kind = name.equals("explode") ? Generator.Kind.EXPLODE : Generator.Kind.POSEXPLODE;
        boolean fits = kind == Generator.Kind.EXPLODE ? t.isComplex() : t.kind() == SqlType.Kind.ARRAY;
        if (!fits) {
            throw Ast.error(SqlException.SYNTAX, name + " needs " + (kind == Generator.Kind.EXPLODE ? "an array or a map"
                    : "an array") + ", not " + t, call);
        }
        return new Generator(kind, arg, outer);
    }

    /** The input's columns, then the generated ones under {@code alias}, named as the query says or as Hive names them. */
    private static List<Field> fields(List<Field> input, Generator generator, String alias, List<String> names, ASTNode at) {
        List<SqlType> types = generator.types();
        if (!names.isEmpty() && names.size() != types.size()) {
            throw Ast.error(SqlException.SYNTAX, generator.kind().name().toLowerCase(Locale.ROOT) + " of a "
                    + generator.arg().type() + " makes " + types.size() + (types.size() == 1 ? " column" : " columns")
                    + ", but AS names " + names.size(), at);
        }
        List<String> chosen = names.isEmpty() ? generator.defaultNames() : names;
        List<Field> out = new ArrayList<>(input);
        for (int i = 0; i < types.size(); i++) {
            out.add(new Field(alias, chosen.get(i), types.get(i)));
        }
        return out;
    }
}
