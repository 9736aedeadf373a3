package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.functions.FunctionInfo;
import org.oooengine.core.sql.functions.Functions;

/**
 * Binds Hive's expression trees to {@link Expr}s over one {@link Scope}: resolves columns, types
 * literals, checks and coerces operand types. A hook sees every node first; after GROUP BY it
 * maps aggregates and grouping expressions to the aggregation's output columns.
 */
final class ExprBinder {
    static final Set<String> AGGREGATES = Functions.aggregateNames();
    /** Names Hive's parser gives syntax it writes as a call (x BETWEEN a AND b, CASE WHEN, INTERVAL): not functions. */
    private static final Set<String> SYNTAX = Set.of("between", "in", "when", "internal_interval", "like");

    private final Scope scope;
    private final Function<ASTNode, Expr> hook;

    ExprBinder(Scope scope) {
        this(scope, n -> null);
    }

    ExprBinder(Scope scope, Function<ASTNode, Expr> hook) {
        this.scope = scope;
        this.hook = hook;
    }

    Scope scope() {
        return scope;
    }

    /** Whether {@code n} is a call of an aggregate function. */
    static boolean isAggregate(ASTNode n) {
        int t = n.getType();
        return (t == TOK_FUNCTION || t == TOK_FUNCTIONDI || t == TOK_FUNCTIONSTAR) && n.getChildCount() > 0
                && AGGREGATES.contains(Ast.name(Ast.child(n, 0)));
    }

    /** An aggregate call, its argument bound in this scope. */
    AggregateCall aggregate(ASTNode n) {
        String name = Ast.name(Ast.child(n, 0));
        if (n.getType() == TOK_FUNCTIONSTAR) {
            if (!name.equals("count")) {
                throw Ast.error(SqlException.SYNTAX, name + "(*) is not a function", n);
            }
            return new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT);
        }
        int arguments = n.getChildCount() - 1 - (WindowPlanner.isWindowCall(n) ? 1 : 0); // OVER (...) is a last child
        if (name.equals("count") && arguments > 1) {
            if (n.getType() != TOK_FUNCTIONDI) {
                throw Ast.error(SqlException.SYNTAX, "count of several values needs DISTINCT, as in Hive: "
                        + "count(DISTINCT a, b)", n);
            }
            Expr tuple = bind(DistinctTuples.tuple(Ast.children(n).subList(1, 1 + arguments)));
            return new AggregateCall(AggregateCall.Kind.COUNT, tuple, true, SqlType.BIGINT);
        }
        if (arguments != 1) {
            throw Ast.error(SqlException.SYNTAX, name + " takes one argument", n);
        }
        Expr arg = bind(Ast.child(n, 1));
        AggregateCall.Kind kind = Functions.find(name).orElseThrow().aggregate();
        boolean numeric = kind.isMoment() || kind == AggregateCall.Kind.SUM || kind == AggregateCall.Kind.AVG;
        if (numeric && arg.type().isString()) {
            arg = cast(arg, SqlType.DOUBLE); // Hive reads text as a DOUBLE here: sum(substr(value, 5))
        }
        if (kind.isMoment() && !arg.type().isNumeric()) {
            throw Ast.error(SqlException.SYNTAX, name + " needs a number, not " + arg.type(), n);
        }
        if ((kind == AggregateCall.Kind.SUM || kind == AggregateCall.Kind.AVG) && !arg.type().isNumeric()) {
            throw Ast.error(SqlException.SYNTAX, name + " needs a number, not " + arg.type(), n);
        }
        return new AggregateCall(kind, arg, n.getType() == TOK_FUNCTIONDI, AggregateCall.resultType(kind, arg.type()));
    }

    Expr bind(ASTNode n) {
        Expr hooked = hook.apply(n);
        if (hooked != null) {
            return hooked;
        }
        if (WindowPlanner.isWindowCall(n)) {
            throw Ast.error(SqlException.SYNTAX, "window function " + Ast.name(Ast.child(n, 0))
                    + " is only allowed in the select list and ORDER BY, not here", n);
        }
        return switch (n.getType()) {
            case TOK_TABLE_OR_COL -> column(null, Ast.child(n, 0));
            case DOT -> qualified(n);
            case Number, IntegralLiteral, NumberLiteral -> number(n);
            case StringLiteral -> new Expr.Literal(Ast.unquote(n.getText()), SqlType.STRING);
            case TOK_STRINGLITERALSEQUENCE -> new Expr.Literal(Ast.children(n).stream()
                    .map(c -> Ast.unquote(c.getText())).reduce("", String::concat), SqlType.STRING);
            case TOK_DATELITERAL -> date(n);
            case TOK_TIMESTAMPLITERAL -> timestampLiteral(n);
            case KW_TRUE -> new Expr.Literal(true, SqlType.BOOLEAN);
            case KW_FALSE -> new Expr.Literal(false, SqlType.BOOLEAN);
            case TOK_NULL -> Expr.Literal.NULL;
            case PLUS, MINUS, STAR, DIVIDE, MOD, DIV -> arithmetic(n);
            case EQUAL, NOTEQUAL, LESSTHAN, LESSTHANOREQUALTO, GREATERTHAN, GREATERTHANOREQUALTO -> comparison(n);
            case KW_AND -> new Expr.And(List.of(condition(Ast.child(n, 0)), condition(Ast.child(n, 1))));
            case KW_OR -> new Expr.Or(List.of(condition(Ast.child(n, 0)), condition(Ast.child(n, 1))));
            case KW_NOT, TOK_OP_NOT -> new Expr.Not(condition(Ast.child(n, 0)));
            case KW_LIKE -> like(n, false);
            case TOK_FUNCTION -> function(n);
            case LSQUARE -> CollectionBinder.subscript(bind(Ast.child(n, 0)), bind(Ast.child(n, 1)), n);
            case TOK_FUNCTIONSTAR, TOK_FUNCTIONDI -> throw isAggregate(n)
                    ? Ast.error(SqlException.SYNTAX, "aggregate " + Ast.name(Ast.child(n, 0)) + " is not allowed here", n)
                    : Ast.notSupported("function " + Ast.functionName(Ast.child(n, 0)), n);
            case TOK_SUBQUERY_EXPR -> throw Ast.notSupported("subquery in an expression", n);
            case TOK_ALLCOLREF -> throw Ast.error(SqlException.SYNTAX, "* is only allowed in the select list", n);
            default -> throw Ast.notSupported(Ast.described(n), n);
        };
    }

    /** An expression that must be a condition (boolean or NULL). */
    Expr condition(ASTNode n) {
        Expr e = bind(n);
        if (e.type().kind() != SqlType.Kind.BOOLEAN && e.type().kind() != SqlType.Kind.VOID) {
            throw Ast.error(SqlException.SYNTAX, "a condition must be boolean, not " + e.type(), n);
        }
        return e;
    }

    private Expr column(String qualifier, ASTNode nameNode) {
        int i = scope.resolve(qualifier, Ast.name(nameNode), nameNode);
        return new Expr.Column(i, scope.fields().get(i).type());
    }

    private Expr qualified(ASTNode n) {
        ASTNode left = Ast.child(n, 0);
        if (left.getType() != TOK_TABLE_OR_COL) {
            throw Ast.notSupported("field access on an expression", n);
        }
        String qualifier = Ast.name(Ast.child(left, 0));
        if (!scope.hasQualifier(qualifier)) {
            throw Ast.error(SqlException.UNKNOWN_TABLE, "unknown table or alias '" + qualifier + "'", left);
        }
        return column(qualifier, Ast.child(n, 1));
    }

    private static Expr number(ASTNode n) {
        String t = n.getText().toUpperCase(Locale.ROOT);
        try {
            if (t.endsWith("BD")) {
                BigDecimal d = new BigDecimal(t.substring(0, t.length() - 2));
                return new Expr.Literal(d, decimalType(d));
            }
            if (t.endsWith("L")) {
                return new Expr.Literal(Long.parseLong(t.substring(0, t.length() - 1)), SqlType.BIGINT);
            }
            if (t.endsWith("S") || t.endsWith("Y")) { // Hive's 1S is a SMALLINT, 1Y a TINYINT
                SqlType type = t.endsWith("S") ? SqlType.SMALLINT : SqlType.TINYINT;
                long v = Long.parseLong(t.substring(0, t.length() - 1));
                if (((Number) type.wrapIntegral(v)).longValue() != v) {
                    throw new NumberFormatException(t);
                }
                return new Expr.Literal((int) v, type);
            }
            if (t.endsWith("BD")) { // Hive's 1BD is a DECIMAL, of any of its precisions
                BigDecimal d = new BigDecimal(t.substring(0, t.length() - 2));
                return new Expr.Literal(d, decimalType(d));
            }
            if (t.endsWith("D")) {
                return new Expr.Literal(Double.parseDouble(t.substring(0, t.length() - 1)), SqlType.DOUBLE);
            }
            if (t.contains("E")) {
                return new Expr.Literal(Double.parseDouble(t), SqlType.DOUBLE);
            }
            if (t.contains(".")) {
                BigDecimal d = new BigDecimal(t);
                return new Expr.Literal(d, decimalType(d));
            }
            BigDecimal whole = new BigDecimal(t);
            if (whole.compareTo(LONG_MIN) < 0 || whole.compareTo(LONG_MAX) > 0) {
                // Hive: an integer beyond BIGINT is a DECIMAL when 38 digits hold it, else a DOUBLE
                return whole.precision() <= SqlType.MAX_PRECISION ? new Expr.Literal(whole, decimalType(whole))
                        : new Expr.Literal(whole.doubleValue(), SqlType.DOUBLE);
            }
            long v = whole.longValueExact();
            return v == (int) v ? new Expr.Literal((int) v, SqlType.INT) : new Expr.Literal(v, SqlType.BIGINT);
        } catch (NumberFormatException e) {
            throw Ast.error(SqlException.SYNTAX, "not a number: " + n.getText(), n);
        }
    }

    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private static SqlType decimalType(BigDecimal d) {
        int scale = Math.max(0, d.scale());
        return SqlType.decimal(Math.max(d.precision(), scale), scale);
    }

    private static Expr date(ASTNode n) {
        String text = Ast.unquote(n.getText());
        try {
            return new Expr.Literal(LocalDate.parse(text.trim()), SqlType.DATE);
        } catch (java.time.format.DateTimeParseException e) {
            throw Ast.error(SqlException.SYNTAX, "not a date: '" + text + "'", n);
        }
    }

    private static Expr timestampLiteral(ASTNode n) {
        String text = Ast.unquote(n.getText());
        java.time.LocalDateTime t = org.oooengine.core.types.LocalTimestamps.parse(text);
        if (t == null) {
            throw Ast.error(SqlException.SYNTAX, "not a timestamp: '" + text + "'", n);
        }
        return new Expr.Literal(org.oooengine.core.types.LocalTimestamps.truncated(t), SqlType.TIMESTAMP);
    }

    private Expr arithmetic(ASTNode n) {
        if (n.getChildCount() == 1 || isSignChain(Ast.child(n, 0))) {
            Expr x = bind(Ast.child(n, n.getChildCount() - 1));
            boolean negate = n.getType() == MINUS;
            for (ASTNode s = n.getChildCount() == 1 ? null : Ast.child(n, 0); s != null;
                    s = s.getChildCount() == 0 ? null : Ast.child(s, 0)) {
                negate ^= s.getType() == MINUS;
            }
            if (x.type().kind() == SqlType.Kind.INTERVAL) {
                return negate ? Intervals.negated(x) : x;
            }
            if (x.type().isString()) {
                x = cast(x, SqlType.DOUBLE); // Hive: a sign before text reads it as a DOUBLE
            }
            if (!x.type().isNumeric()) {
                throw Ast.error(SqlException.SYNTAX, "sign of a " + x.type(), n);
            }
            return negate ? new Expr.Call(ScalarFunction.NEGATE, List.of(x), x.type()) : x;
        }
        Expr a = bind(Ast.child(n, 0));
        Expr b = bind(Ast.child(n, 1));
        if (n.getType() == PLUS && a.type().kind() == SqlType.Kind.INTERVAL && Types.isTemporal(b.type())) {
            return shifted(b, a, true);
        }
        if ((n.getType() == PLUS || n.getType() == MINUS) && Types.isTemporal(a.type())
                && b.type().kind() == SqlType.Kind.INTERVAL) {
            return shifted(a, b, n.getType() == PLUS);
        }
        if (a.type().kind() == SqlType.Kind.INTERVAL || b.type().kind() == SqlType.Kind.INTERVAL) {
            throw Ast.notSupported("arithmetic on an interval other than adding it to or subtracting it from "
                    + "a date or timestamp", n);
        }
        a = numeric(a, Ast.child(n, 0));
        b = numeric(b, Ast.child(n, 1));
        var f = switch (n.getType()) {
            case PLUS -> ScalarFunction.ADD;
            case MINUS -> ScalarFunction.SUBTRACT;
            case STAR -> ScalarFunction.MULTIPLY;
            case MOD -> ScalarFunction.MOD;
            default -> ScalarFunction.DIVIDE;
        };
        SqlType type = arithmeticType(n.getType(), a.type(), b.type());
        return new Expr.Call(f, List.of(a, b), type);
    }

    /**
     * A date or timestamp moved by a literal interval. Years, months and days keep a date a date;
     * hours, minutes and seconds make it a timestamp, as Hive does; a timestamp stays one.
     */
    private static Expr shifted(Expr time, Expr interval, boolean plus) {
        boolean days = ((Expr.Literal) interval).value() instanceof java.time.Period;
        SqlType type = time.type().kind() == SqlType.Kind.DATE && days ? SqlType.DATE : SqlType.TIMESTAMP;
        Expr t = cast(time, type);
        var f = plus ? ScalarFunction.DATE_PLUS_INTERVAL : ScalarFunction.DATE_MINUS_INTERVAL;
        return new Expr.Call(f, List.of(t, interval), type);
    }

    /**
     * Signs written one after another ({@code - - a}, {@code + - 2}) reach us as the last sign
     * with two children: the signs before it, each holding the one before it and no operand, then
     * the operand. A real operand never is a sign without one.
     */
    private static boolean isSignChain(ASTNode n) {
        return (n.getType() == PLUS || n.getType() == MINUS)
                && (n.getChildCount() == 0 || n.getChildCount() == 1 && isSignChain(Ast.child(n, 0)));
    }

    /** Hive's result types: integer / is DOUBLE, DIV is BIGINT, decimals grow as Hive's rules say. */
    private static SqlType arithmeticType(int op, SqlType a, SqlType b) {
        if (op == DIV) {
            return SqlType.BIGINT;
        }
        SqlType common = Types.common(a, b);
        if (common.isApproximate()) {
            return op == DIVIDE ? SqlType.DOUBLE : common; // Hive divides floats as doubles
        }
        if (common.kind() != SqlType.Kind.DECIMAL) {
            return op == DIVIDE ? SqlType.DOUBLE : common;
        }
        SqlType x = Types.asDecimal(a);
        SqlType y = Types.asDecimal(b);
        int p1 = x.precision();
        int s1 = x.scale();
        int p2 = y.precision();
        int s2 = y.scale();
        return switch (op) {
            case PLUS, MINUS -> fit(Math.max(p1 - s1, p2 - s2) + Math.max(s1, s2) + 1, Math.max(s1, s2));
            case STAR -> fit(p1 + p2 + 1, s1 + s2);
            case MOD -> fit(Math.min(p1 - s1, p2 - s2) + Math.max(s1, s2), Math.max(s1, s2));
            default -> {
                int scale = Math.max(6, s1 + p2 + 1);
                yield fit(p1 - s1 + s2 + scale, scale);
            }
        };
    }

    /** Caps a decimal at 38 digits, giving up scale (down to 6) before integer digits, as Hive does. */
    private static SqlType fit(int precision, int scale) {
        if (precision <= SqlType.MAX_PRECISION) {
            return SqlType.decimal(precision, scale);
        }
        int intDigits = precision - scale;
        int newScale = Math.max(Math.min(scale, 6), SqlType.MAX_PRECISION - intDigits);
        return SqlType.decimal(SqlType.MAX_PRECISION, Math.min(newScale, scale));
    }

    private static Expr numeric(Expr e, ASTNode at) {
        if (e.type().isNumeric()) {
            return e;
        }
        if (e.type().kind() == SqlType.Kind.VOID) {
            return new Expr.Literal(null, SqlType.INT);
        }
        if (e.type().isString()) {
            return cast(e, SqlType.DOUBLE);
        }
        throw Ast.error(SqlException.SYNTAX, "arithmetic on a " + e.type(), at);
    }

    private Expr comparison(ASTNode n) {
        Expr a = bind(Ast.child(n, 0));
        Expr b = bind(Ast.child(n, 1));
        Expr[] both = n.getType() == EQUAL || n.getType() == NOTEQUAL ? FixedChars.padded(a, b) : null;
        if (both == null) {
            both = comparable(a, b, n);
        }
        var f = switch (n.getType()) {
            case EQUAL -> ScalarFunction.EQ;
            case NOTEQUAL -> ScalarFunction.NE;
            case LESSTHAN -> ScalarFunction.LT;
            case LESSTHANOREQUALTO -> ScalarFunction.LE;
            case GREATERTHAN -> ScalarFunction.GT;
            default -> ScalarFunction.GE;
        };
        return new Expr.Call(f, List.of(both[0], both[1]), SqlType.BOOLEAN);
    }

    /** {@code a = b}, operands brought to comparable types. */
    static Expr equal(Expr a, Expr b, ASTNode at) {
        Expr[] both = comparable(a, b, at);
        return new Expr.Call(ScalarFunction.EQ, List.of(both[0], both[1]), SqlType.BOOLEAN);
    }

    /** Brings two operands to types that compare: text beside a date is read as a date, beside a number as a number. */
    private static Expr[] comparable(Expr a, Expr b, ASTNode at) {
        SqlType.Kind x = a.type().kind();
        SqlType.Kind y = b.type().kind();
        if (a.type().isString() && b.type().isString() && (x == SqlType.Kind.CHAR || y == SqlType.Kind.CHAR)
                && !a.type().equals(b.type())) {
            // Hive compares a CHAR with other text as text, its trailing pad ignored; two CHARs of one
            // length are padded alike and compare as they are
            return new Expr[] {FixedChars.besideChar(a, y), FixedChars.besideChar(b, x)};
        }
        if (a.type().isComplex() || b.type().isComplex()) {
            throw Ast.error(SqlException.SYNTAX, "cannot compare " + a.type() + " with " + b.type()
                    + " (arrays and maps do not compare, as in Hive)", at);
        }
        if (x == y || x == SqlType.Kind.VOID || y == SqlType.Kind.VOID
                || (a.type().isNumeric() && b.type().isNumeric()) || (a.type().isString() && b.type().isString())) {
            return new Expr[] {a, b};
        }
        if (Types.isTemporal(a.type()) && Types.isTemporal(b.type())) {
            return new Expr[] {cast(a, SqlType.TIMESTAMP), cast(b, SqlType.TIMESTAMP)};
        }
        if (Types.isTemporal(a.type()) && b.type().isString()) {
            return new Expr[] {a, cast(b, a.type())};
        }
        if (Types.isTemporal(b.type()) && a.type().isString()) {
            return new Expr[] {cast(a, b.type()), b};
        }
        if (a.type().isNumeric() && b.type().isString()) {
            return new Expr[] {cast(a, SqlType.DOUBLE), cast(b, SqlType.DOUBLE)};
        }
        if (b.type().isNumeric() && a.type().isString()) {
            return new Expr[] {cast(a, SqlType.DOUBLE), cast(b, SqlType.DOUBLE)};
        }
        throw Ast.error(SqlException.SYNTAX, "cannot compare " + a.type() + " with " + b.type(), at);
    }

    /** Any value as STRING or VARCHAR text: a CHAR without its trailing pad, as Hive's string functions read it. */
    static Expr text(Expr e) {
        SqlType.Kind k = e.type().kind();
        return k == SqlType.Kind.STRING || k == SqlType.Kind.VARCHAR ? e : cast(e, SqlType.STRING);
    }

    /** A cast; literals are cast once, here. */
    static Expr cast(Expr e, SqlType to) {
        if (e.type().equals(to)) {
            return e;
        }
        if (e instanceof Expr.Literal l) {
            return new Expr.Literal(org.oooengine.core.sql.expr.Values.cast(l.value(), l.type(), to), to);
        }
        return new Expr.Call(ScalarFunction.CAST, List.of(e), to);
    }

    private Expr like(ASTNode n, boolean negated) {
        Expr value = bind(Ast.child(n, 0));
        ASTNode p = Ast.child(n, 1);
        if (p.getType() != StringLiteral) {
            throw Ast.notSupported("LIKE with a pattern that is not a literal", p);
        }
        value = text(value);
        return new Expr.Like(value, Ast.unquote(p.getText()), negated);
    }

    private Expr function(ASTNode n) {
        ASTNode head = Ast.child(n, 0);
        List<ASTNode> args = Ast.children(n).subList(1, n.getChildCount());
        if (Types.isTypeToken(head)) {
            return cast(bind(args.get(0)), Types.of(head));
        }
        if (head.getText().regionMatches(true, 0, "TOK_", 0, 4)) {
            throw Ast.notSupported("CAST to " + Ast.functionName(head), n); // a type Hive knows and we do not
        }
        String name = Ast.name(head);
        if (AGGREGATES.contains(name)) {
            throw Ast.error(SqlException.SYNTAX, "aggregate " + name + " is not allowed here", n);
        }
        if (Generators.isGenerator(name)) {
            throw Ast.error(SqlException.SYNTAX, name + " is a table-generating function: it goes in LATERAL VIEW, or alone "
                    + "in the select list, not inside an expression (as in Hive)", n);
        }
        FunctionInfo registered = SYNTAX.contains(name) ? null : registered(name, args.size(), n);
        return switch (name) {
            case "between" -> between(args, n);
            case "in" -> in(args);
            case "when" -> caseWhen(args, n);
            case "if" -> caseWhen(args, n);
            case "isnull" -> new Expr.IsNull(bind(args.get(0)), false);
            case "isnotnull" -> new Expr.IsNull(bind(args.get(0)), true);
            case "internal_interval" -> Intervals.literal(args, n);
            case "like" -> like(n, false);
            case "substr", "substring" -> call(ScalarFunction.SUBSTR, args, SqlType.STRING, n, 2, 3);
            case "upper", "ucase" -> call(ScalarFunction.UPPER, args, SqlType.STRING, n, 1, 1);
            case "lower", "lcase" -> call(ScalarFunction.LOWER, args, SqlType.STRING, n, 1, 1);
            case "trim" -> call(ScalarFunction.TRIM, args, SqlType.STRING, n, 1, 1);
            case "length" -> call(ScalarFunction.LENGTH, args, SqlType.INT, n, 1, 1);
            case "concat" -> call(ScalarFunction.CONCAT, args, SqlType.STRING, n, 1, Integer.MAX_VALUE);
            case "year" -> dateField(ScalarFunction.YEAR, args, n);
            case "month" -> dateField(ScalarFunction.MONTH, args, n);
            case "day", "dayofmonth" -> dateField(ScalarFunction.DAY, args, n);
            case "abs" -> sameType(ScalarFunction.ABS, args, n);
            case "floor" -> wholeNumber(ScalarFunction.FLOOR, args, n);
            case "ceil", "ceiling" -> wholeNumber(ScalarFunction.CEIL, args, n);
            case "round" -> round(args, n);
            case "coalesce", "nvl" -> coalesce(args, n);
            default -> new FunctionBinder(this).bind(registered, args, n);
        };
    }

    /** The registry's function of that name, called with as many arguments as it takes; else refused by name. */
    private static FunctionInfo registered(String name, int arguments, ASTNode at) {
        FunctionInfo f = Functions.find(name).orElseThrow(() -> Ast.notSupported("function " + name, at));
        if (!f.accepts(arguments)) {
            throw Ast.error(SqlException.SYNTAX, name + " takes " + f.arity() + (f.maxArgs() == 1 ? " argument" : " arguments")
                    + ", not " + arguments, at);
        }
        return f;
    }

    private Expr call(ScalarFunction f, List<ASTNode> args, SqlType type, ASTNode at, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw Ast.error(SqlException.SYNTAX, f.sqlName() + " takes " + (min == max ? min : min + " to " + max)
                    + " arguments, not " + args.size(), at);
        }
        List<Expr> bound = new ArrayList<>();
        for (ASTNode a : args) {
            bound.add(bind(a));
        }
        if (f == ScalarFunction.SUBSTR || f == ScalarFunction.UPPER
                || f == ScalarFunction.LOWER || f == ScalarFunction.TRIM
                || f == ScalarFunction.LENGTH) {
            bound.set(0, cast(bound.get(0), SqlType.STRING));
        }
        if (f == ScalarFunction.CONCAT) {
            bound.replaceAll(e -> e.type().kind() == SqlType.Kind.CHAR ? text(e) : e);
        }
        return new Expr.Call(f, List.copyOf(bound), type);
    }

    private Expr dateField(ScalarFunction f, List<ASTNode> args, ASTNode at) {
        Expr d = bind(args.get(0));
        if (d.type().isString() || d.type().kind() == SqlType.Kind.TIMESTAMP) {
            d = cast(d, SqlType.DATE);
        }
        if (d.type().kind() != SqlType.Kind.DATE) {
            throw Ast.error(SqlException.SYNTAX, f.sqlName() + " needs a date, not " + d.type(), at);
        }
        return new Expr.Call(f, List.of(d), SqlType.INT);
    }

    /** floor, ceil: a BIGINT of a number, of text read as a DOUBLE (as Hive reads it). */
    private Expr wholeNumber(ScalarFunction f, List<ASTNode> args, ASTNode at) {
        if (args.size() != 1) {
            throw Ast.error(SqlException.SYNTAX, f.sqlName() + " takes 1 argument, not " + args.size(), at);
        }
        return new Expr.Call(f, List.of(numeric(bind(args.get(0)), at)), SqlType.BIGINT);
    }

    private Expr sameType(ScalarFunction f, List<ASTNode> args, ASTNode at) {
        Expr x = numeric(bind(args.get(0)), at);
        return new Expr.Call(f, List.of(x), x.type());
    }

    private Expr round(List<ASTNode> args, ASTNode at) {
        Expr x = numeric(bind(args.get(0)), at);
        int digits = args.size() > 1 ? Integer.parseInt(args.get(1).getText()) : 0;
        SqlType type = x.type().kind() == SqlType.Kind.DECIMAL
                ? SqlType.decimal(x.type().precision(), Math.min(x.type().scale(), Math.max(0, digits))) : x.type();
        return new Expr.Call(ScalarFunction.ROUND,
                List.of(x, new Expr.Literal(digits, SqlType.INT)), type);
    }

    private Expr coalesce(List<ASTNode> args, ASTNode at) {
        List<Expr> bound = args.stream().map(this::bind).toList();
        SqlType type = bound.stream().map(Expr::type).reduce(SqlType.VOID, Types::common);
        return new Expr.Call(ScalarFunction.COALESCE,
                bound.stream().map(e -> cast(e, type)).toList(), type);
    }

    private Expr between(List<ASTNode> args, ASTNode at) {
        boolean negated = args.get(0).getType() == KW_TRUE;
        Expr x = bind(args.get(1));
        Expr lo = bind(args.get(2));
        Expr hi = bind(args.get(3));
        Expr[] l = comparable(x, lo, at);
        Expr[] h = comparable(x, hi, at);
        Expr range = new Expr.And(List.of(
                new Expr.Call(ScalarFunction.GE, List.of(l[0], l[1]), SqlType.BOOLEAN),
                new Expr.Call(ScalarFunction.LE, List.of(h[0], h[1]), SqlType.BOOLEAN)));
        return negated ? new Expr.Not(range) : range;
    }

    private Expr in(List<ASTNode> args) {
        Expr value = bind(args.get(0));
        Expr x = value;
        List<Expr> items = args.subList(1, args.size()).stream().map(this::bind).toList();
        List<Expr> paddedItems = items.stream().map(e -> e.type().kind() == SqlType.Kind.VOID ? e
                : FixedChars.paddedLiteral(e, value.type())).toList();
        if (value.type().kind() == SqlType.Kind.CHAR && !items.isEmpty() && !paddedItems.contains(null)) {
            // a CHAR among text literals: compared as stored, as with =
            return new Expr.InList(value, paddedItems, false);
        }
        // x is compared as = would compare it with each item: a string beside a number as a double
        for (int i = 0; i < items.size(); i++) {
            Expr cast = comparable(x, items.get(i), args.get(i + 1))[0];
            if (!cast.type().equals(x.type())) {
                x = cast;
            }
        }
        List<Expr> list = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Expr[] both = comparable(x, items.get(i), args.get(i + 1));
            if (!both[0].type().equals(x.type())) {
                throw Ast.error(SqlException.SYNTAX, "cannot compare " + x.type() + " with " + items.get(i).type(), args.get(i + 1));
            }
            list.add(both[1]);
        }
        Expr in = new Expr.InList(x, List.copyOf(list), false);
        if (x == value) {
            return in;
        }
        // Hive's IN: a value that does not convert ('abc' among numbers) is not in the list, rather than unknown
        Expr unconvertible = new Expr.And(List.of(new Expr.IsNull(value, true), new Expr.IsNull(x, false)));
        return new Expr.Case(List.of(unconvertible), List.of(new Expr.Literal(false, SqlType.BOOLEAN)), in, SqlType.BOOLEAN);
    }

    /** CASE WHEN (and IF): the results brought to one type. */
    private Expr caseWhen(List<ASTNode> args, ASTNode at) {
        List<Expr> conditions = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        int i = 0;
        for (; i + 1 < args.size(); i += 2) {
            conditions.add(condition(args.get(i)));
            results.add(bind(args.get(i + 1)));
        }
        Expr otherwise = i < args.size() ? bind(args.get(i)) : Expr.Literal.NULL;
        SqlType type = otherwise.type();
        for (Expr r : results) {
            type = Types.common(type, r.type());
        }
        final SqlType t = type;
        return new Expr.Case(List.copyOf(conditions), results.stream().map(r -> cast(r, t)).toList(), cast(otherwise, t), t);
    }
}
