package org.oooengine.hive.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.functions.FunctionInfo;

/**
 * Binds calls of the registry's functions that {@link ExprBinder} does not bind itself, with
 * Hive's typing: numbers as DOUBLE for the mathematical functions (text read as a number), a
 * common type for greatest, least and pmod, dates as DATE or text (read when the row is: bad text
 * is NULL, as in Hive). The registry ({@link org.oooengine.core.sql.functions.Functions}) has
 * already resolved the name and checked the number of arguments.
 */
final class FunctionBinder {
    private final ExprBinder binder;

    FunctionBinder(ExprBinder binder) {
        this.binder = binder;
    }

    Expr bind(FunctionInfo f, List<ASTNode> argNodes, ASTNode at) {
        List<Expr> args = new ArrayList<>();
        for (ASTNode a : argNodes) {
            args.add(binder.bind(a));
        }
        String name = f.name();
        return switch (name) {
            case "trunc" -> trunc(args, at);
            case "nullif" -> nullif(args, at);
            case "pmod" -> pmod(args, at);
            case "greatest" -> common(ScalarFunction.GREATEST, args, at);
            case "least" -> common(ScalarFunction.LEAST, args, at);
            case "sign" -> sign(args, at);
            case "sqrt" -> real(ScalarFunction.SQRT, args, at);
            case "ln" -> real(ScalarFunction.LN, args, at);
            case "log10" -> real(ScalarFunction.LOG10, args, at);
            case "log2" -> real(ScalarFunction.LOG2, args, at);
            case "log" -> real(args.size() == 1 ? ScalarFunction.LN : ScalarFunction.LOG, args, at);
            case "exp" -> real(ScalarFunction.EXP, args, at);
            case "power" -> real(ScalarFunction.POWER, args, at);
            case "date_format" -> call(ScalarFunction.DATE_FORMAT, SqlType.STRING, date(args.get(0), name, at), text(args.get(1)));
            case "last_day" -> call(ScalarFunction.LAST_DAY, SqlType.STRING, date(args.get(0), name, at));
            case "quarter" -> call(ScalarFunction.QUARTER, SqlType.INT, date(args.get(0), name, at));
            case "add_months" -> call(ScalarFunction.ADD_MONTHS, SqlType.STRING, date(args.get(0), name, at),
                    integer(args.get(1), name, at));
            case "hour" -> call(ScalarFunction.HOUR, SqlType.INT, timestamp(args.get(0), name, at));
            case "minute" -> call(ScalarFunction.MINUTE, SqlType.INT, timestamp(args.get(0), name, at));
            case "second" -> call(ScalarFunction.SECOND, SqlType.INT, timestamp(args.get(0), name, at));
            case "date_add" -> call(ScalarFunction.DATE_ADD, SqlType.DATE, date(args.get(0), name, at), integer(args.get(1), name, at));
            case "date_sub" -> call(ScalarFunction.DATE_SUB, SqlType.DATE, date(args.get(0), name, at), integer(args.get(1), name, at));
            case "datediff" -> call(ScalarFunction.DATEDIFF, SqlType.INT, date(args.get(0), name, at), date(args.get(1), name, at));
            case "lpad" -> call(ScalarFunction.LPAD, SqlType.STRING, text(args.get(0)), integer(args.get(1), name, at), text(args.get(2)));
            case "rpad" -> call(ScalarFunction.RPAD, SqlType.STRING, text(args.get(0)), integer(args.get(1), name, at), text(args.get(2)));
            case "repeat" -> call(ScalarFunction.REPEAT, SqlType.STRING, text(args.get(0)), integer(args.get(1), name, at));
            case "replace" -> call(ScalarFunction.REPLACE, SqlType.STRING, text(args.get(0)), text(args.get(1)), text(args.get(2)));
            case "instr" -> call(ScalarFunction.INSTR, SqlType.INT, text(args.get(0)), text(args.get(1)));
            case "locate" -> args.size() == 2
                    ? call(ScalarFunction.LOCATE, SqlType.INT, text(args.get(0)), text(args.get(1)))
                    : call(ScalarFunction.LOCATE, SqlType.INT, text(args.get(0)), text(args.get(1)), integer(args.get(2), name, at));
            case "ltrim" -> call(ScalarFunction.LTRIM, SqlType.STRING, text(args.get(0)));
            case "rtrim" -> call(ScalarFunction.RTRIM, SqlType.STRING, text(args.get(0)));
            case "reverse" -> call(ScalarFunction.REVERSE, SqlType.STRING, text(args.get(0)));
            case "ascii" -> call(ScalarFunction.ASCII, SqlType.INT, text(args.get(0)));
            case "to_date" -> call(ScalarFunction.TO_DATE, SqlType.DATE, date(args.get(0), name, at));
            case "unix_timestamp" -> unixTimestamp(args, at);
            case "from_unixtime" -> call(ScalarFunction.FROM_UNIXTIME, SqlType.STRING, args.size() == 1
                    ? new Expr[] {integer(args.get(0), name, at)} : new Expr[] {integer(args.get(0), name, at), text(args.get(1))});
            case "current_timestamp" -> new Expr.Literal(now(), SqlType.TIMESTAMP);
            case "current_date" -> new Expr.Literal(now().toLocalDate(), SqlType.DATE);
            case "concat_ws" -> new Expr.Call(ScalarFunction.CONCAT_WS, args.stream().map(FunctionBinder::text).toList(),
                    SqlType.STRING);
            case "array", "map", "split", "size", "array_contains", "sort_array", "map_keys", "map_values" ->
                    CollectionBinder.bind(name, args, at);
            default -> throw Ast.notSupported("function " + name, at); // registered, but bound nowhere: a test catches it
        };
    }

    private static Expr call(ScalarFunction f, SqlType type, Expr... args) {
        return new Expr.Call(f, List.of(args), type);
    }

    /**
     * The time a statement reads as now: when it started, at UTC, the engine's time zone, to the
     * millisecond ({@link StatementClock}): every call in a statement gives the same value.
     */
    private static java.time.LocalDateTime now() {
        return StatementClock.now();
    }

    /** unix_timestamp(): now; of a timestamp or date; of text in Hive's default or a given pattern. */
    private static Expr unixTimestamp(List<Expr> args, ASTNode at) {
        if (args.isEmpty()) {
            return new Expr.Literal(now().toEpochSecond(java.time.ZoneOffset.UTC), SqlType.BIGINT);
        }
        Expr x = date(args.get(0), "unix_timestamp", at);
        if (args.size() == 1 && !x.type().isString()) {
            return call(ScalarFunction.UNIX_TIMESTAMP, SqlType.BIGINT, x);
        }
        Expr pattern = args.size() == 1 ? new Expr.Literal("yyyy-MM-dd HH:mm:ss", SqlType.STRING) : text(args.get(1));
        return call(ScalarFunction.UNIX_TIMESTAMP, SqlType.BIGINT, text(x), pattern);
    }

    /** trunc of a number (to a constant number of places, as the result's type depends on it) or of a date. */
    private static Expr trunc(List<Expr> args, ASTNode at) {
        Expr x = args.get(0);
        if (args.size() == 2 && (Types.isTemporal(x.type()) || x.type().isString())) {
            return call(ScalarFunction.TRUNC_DATE, SqlType.STRING, x, text(args.get(1)));
        }
        x = number(x, "trunc", at);
        int digits = args.size() == 1 ? 0 : constantInt(args.get(1), "trunc", at);
        SqlType t = x.type();
        SqlType type = t;
        if (t.kind() == SqlType.Kind.DECIMAL) {
            int scale = Math.max(0, Math.min(digits, t.scale()));
            type = SqlType.decimal(Math.max(1, t.precision() - t.scale() + scale), scale);
        }
        return call(ScalarFunction.TRUNC_NUMBER, type, x, new Expr.Literal(digits, SqlType.INT));
    }

    /** nullif(a, b): compared as {@code a = b} compares them; the result is a, of its type after that. */
    private static Expr nullif(List<Expr> args, ASTNode at) {
        Expr.Call eq = (Expr.Call) ExprBinder.equal(args.get(0), args.get(1), at);
        Expr a = eq.args().get(0);
        return new Expr.Call(ScalarFunction.NULLIF, eq.args(), a.type().kind() == SqlType.Kind.VOID ? SqlType.STRING : a.type());
    }

    /** pmod: both sides brought to their common numeric type, which the result has (a decimal as Hive's % types it). */
    private static Expr pmod(List<Expr> args, ASTNode at) {
        Expr a = number(args.get(0), "pmod", at);
        Expr b = number(args.get(1), "pmod", at);
        SqlType type = Types.common(a.type(), b.type());
        if (type.kind() == SqlType.Kind.DECIMAL) {
            SqlType x = Types.asDecimal(a.type());
            SqlType y = Types.asDecimal(b.type());
            int scale = Math.max(x.scale(), y.scale());
            type = SqlType.decimal(Math.min(x.precision() - x.scale(), y.precision() - y.scale()) + scale, scale);
        }
        return call(ScalarFunction.PMOD, type, ExprBinder.cast(a, type), ExprBinder.cast(b, type));
    }

    /** greatest, least: every argument brought to the arguments' common type (text beside a date read as a date). */
    private static Expr common(ScalarFunction f, List<Expr> args, ASTNode at) {
        boolean dates = args.stream().anyMatch(e -> e.type().kind() == SqlType.Kind.DATE);
        SqlType type = SqlType.VOID;
        for (Expr e : args) {
            SqlType t = dates && e.type().isString() ? SqlType.DATE : e.type();
            if (!comparable(type, t)) {
                throw Ast.error(SqlException.SYNTAX, f.sqlName() + " cannot compare " + type + " with " + t, at);
            }
            type = Types.common(type, t);
        }
        if (type.kind() == SqlType.Kind.VOID) {
            type = SqlType.STRING;
        }
        SqlType t = type;
        return new Expr.Call(f, args.stream().map(e -> ExprBinder.cast(e, t)).toList(), t);
    }

    private static boolean comparable(SqlType a, SqlType b) {
        return a.kind() == SqlType.Kind.VOID || b.kind() == SqlType.Kind.VOID || a.kind() == b.kind()
                || a.isNumeric() && b.isNumeric() || a.isString() && b.isString();
    }

    /** Hive's sign: an INT for a decimal, a DOUBLE otherwise. */
    private static Expr sign(List<Expr> args, ASTNode at) {
        Expr x = number(args.get(0), "sign", at);
        return call(ScalarFunction.SIGN, x.type().kind() == SqlType.Kind.DECIMAL ? SqlType.INT : SqlType.DOUBLE, x);
    }

    /** A function of real numbers: any numeric argument, read as a DOUBLE when it is evaluated. */
    private static Expr real(ScalarFunction f, List<Expr> args, ASTNode at) {
        return new Expr.Call(f, args.stream().map(e -> number(e, f.sqlName(), at)).toList(), SqlType.DOUBLE);
    }

    /** A numeric argument: a number, text read as a DOUBLE, or NULL. */
    private static Expr number(Expr e, String function, ASTNode at) {
        if (e.type().isNumeric()) {
            return e;
        }
        if (e.type().kind() == SqlType.Kind.VOID) {
            return new Expr.Literal(null, SqlType.DOUBLE);
        }
        if (e.type().isString()) {
            return ExprBinder.cast(e, SqlType.DOUBLE);
        }
        throw Ast.error(SqlException.SYNTAX, function + " needs a number, not " + e.type(), at);
    }

    /** An integer argument (a count, a length, a position): INT or BIGINT, or NULL. */
    private static Expr integer(Expr e, String function, ASTNode at) {
        SqlType.Kind k = e.type().kind();
        if (e.type().isIntegral()) {
            return e;
        }
        if (k == SqlType.Kind.VOID) {
            return new Expr.Literal(null, SqlType.INT);
        }
        throw Ast.error(SqlException.SYNTAX, function + " needs an integer, not " + e.type(), at);
    }

    /** A constant integer: a literal, or an expression of literals such as {@code -2}. */
    private static int constantInt(Expr e, String function, ASTNode at) {
        if (Exprs.columns(e).isEmpty() && e.type().isIntegral()) {
            Object v = e.eval(new Object[0]);
            if (v != null) {
                return ((Number) v).intValue();
            }
        }
        throw Ast.error(SqlException.SYNTAX, function + " needs a constant integer for its number of places", at);
    }

    /** A text argument: any value as text (NULL stays NULL). */
    private static Expr text(Expr e) {
        if (e.type().kind() == SqlType.Kind.VOID) {
            return new Expr.Literal(null, SqlType.STRING);
        }
        return ExprBinder.text(e);
    }

    /**
     * A date argument: a DATE, a TIMESTAMP (its day), or text read as one when the row is
     * evaluated; NULL for text that is not a date.
     */
    private static Expr date(Expr e, String function, ASTNode at) {
        SqlType.Kind k = e.type().kind();
        if (Types.isTemporal(e.type()) || e.type().isString()) {
            return e;
        }
        if (k == SqlType.Kind.VOID) {
            return new Expr.Literal(null, SqlType.DATE);
        }
        throw Ast.error(SqlException.SYNTAX, function + " needs a date, not " + e.type(), at);
    }

    /** A timestamp argument: a TIMESTAMP, text read as one, or a DATE (at midnight). */
    private static Expr timestamp(Expr e, String function, ASTNode at) {
        return date(e, function, at);
    }
}
