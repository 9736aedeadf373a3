package org.oooengine.hive.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * Binds the functions of arrays and maps and the subscript {@code a[i]}, {@code m[key]}, with
 * Hive's typing: {@code array(...)} and {@code map(...)} bring their elements (keys, values) to
 * one type, an array index is an integer counted from 0, a map key is brought to the key type.
 */
final class CollectionBinder {
    private CollectionBinder() {
    }

    static Expr bind(String name, List<Expr> args, ASTNode at) {
        return switch (name) {
            case "array" -> array(args);
            case "map" -> map(args, at);
            case "split" -> new Expr.Call(ScalarFunction.SPLIT, List.of(text(args.get(0)), text(args.get(1))),
                    SqlType.array(SqlType.STRING));
            case "size" -> new Expr.Call(ScalarFunction.SIZE, List.of(collection(args.get(0), null, name, at)), SqlType.INT);
            case "array_contains" -> arrayContains(args, at);
            case "sort_array" -> {
                Expr a = collection(args.get(0), SqlType.Kind.ARRAY, name, at);
                yield new Expr.Call(ScalarFunction.SORT_ARRAY, List.of(a), a.type());
            }
            case "map_keys" -> {
                Expr m = collection(args.get(0), SqlType.Kind.MAP, name, at);
                yield new Expr.Call(ScalarFunction.MAP_KEYS, List.of(m), SqlType.array(m.type().keyType()));
            }
            case "map_values" -> {
                Expr m = collection(args.get(0), SqlType.Kind.MAP, name, at);
                yield new Expr.Call(ScalarFunction.MAP_VALUES, List.of(m), SqlType.array(m.type().valueType()));
            }
            default -> throw Ast.notSupported("function " + name, at);
        };
    }

    /** {@code a[i]}: the element at i (from 0), NULL out of range; {@code m[key]}: the key's value, NULL when absent. */
    static Expr subscript(Expr collection, Expr at, ASTNode n) {
        SqlType type = collection.type();
        if (type.kind() == SqlType.Kind.ARRAY) {
            if (!at.type().isIntegral() && at.type().kind() != SqlType.Kind.VOID) {
                throw Ast.error(SqlException.SYNTAX, "an array index must be an integer, not " + at.type(), n);
            }
            return new Expr.Call(ScalarFunction.SUBSCRIPT, List.of(collection, ExprBinder.cast(at, SqlType.INT)),
                    type.elementType());
        }
        if (type.kind() == SqlType.Kind.MAP) {
            return new Expr.Call(ScalarFunction.SUBSCRIPT, List.of(collection, element(at, type.keyType(), "[]", n)),
                    type.valueType());
        }
        throw Ast.error(SqlException.SYNTAX, "[] needs an array or a map, not " + type, n);
    }

    /** array(v1, ...): the values brought to their common type; array() is an array of STRING, as in Hive. */
    private static Expr array(List<Expr> args) {
        SqlType element = concrete(args.stream().map(Expr::type).reduce(SqlType.VOID, Types::common));
        return new Expr.Call(ScalarFunction.ARRAY, args.stream().map(e -> ExprBinder.cast(e, element)).toList(),
                SqlType.array(element));
    }

    /** map(k1, v1, ...): keys brought to one type, values to another. */
    private static Expr map(List<Expr> args, ASTNode at) {
        if (args.size() % 2 != 0) {
            throw Ast.error(SqlException.SYNTAX, "map takes keys and values in pairs, not " + args.size() + " arguments", at);
        }
        SqlType key = SqlType.VOID;
        SqlType value = SqlType.VOID;
        for (int i = 0; i < args.size(); i += 2) {
            key = Types.common(key, args.get(i).type());
            value = Types.common(value, args.get(i + 1).type());
        }
        SqlType k = concrete(key);
        SqlType v = concrete(value);
        if (k.isComplex()) {
            throw Ast.error(SqlException.SYNTAX, "a map key must be of a primitive type, not " + k, at);
        }
        List<Expr> cast = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            cast.add(ExprBinder.cast(args.get(i), i % 2 == 0 ? k : v));
        }
        return new Expr.Call(ScalarFunction.MAP, cast, SqlType.map(k, v));
    }

    /** array_contains(a, v): v brought to the element type; false (not NULL) for a NULL array or value, as in Hive. */
    private static Expr arrayContains(List<Expr> args, ASTNode at) {
        Expr a = collection(args.get(0), SqlType.Kind.ARRAY, "array_contains", at);
        Expr v = element(args.get(1), a.type().elementType(), "array_contains", at);
        return new Expr.Call(ScalarFunction.ARRAY_CONTAINS, List.of(a, v), SqlType.BOOLEAN);
    }

    /** A value where an element of {@code type} goes: the same kind, a number beside a number, text beside text. */
    private static Expr element(Expr v, SqlType type, String function, ASTNode at) {
        SqlType t = v.type();
        boolean fits = t.kind() == SqlType.Kind.VOID || t.equals(type) || t.isNumeric() && type.isNumeric()
                || t.isString() && type.isString() || Types.isTemporal(type) && t.isString();
        if (!fits) {
            throw Ast.error(SqlException.SYNTAX, function + ": a " + t + " where a " + type + " goes", at);
        }
        return ExprBinder.cast(v, type);
    }

    /** An ARRAY or MAP argument ({@code kind} null: either). */
    private static Expr collection(Expr e, SqlType.Kind kind, String function, ASTNode at) {
        SqlType t = e.type();
        if (kind == null ? !t.isComplex() : t.kind() != kind) {
            throw Ast.error(SqlException.SYNTAX, function + " needs " + (kind == null ? "an array or a map"
                    : kind == SqlType.Kind.ARRAY ? "an array" : "a map") + ", not " + t, at);
        }
        return e;
    }

    private static Expr text(Expr e) {
        return e.type().kind() == SqlType.Kind.VOID ? new Expr.Literal(null, SqlType.STRING) : ExprBinder.text(e);
    }

    /** NULL alone has no type of its own: its elements are STRING, as Hive makes them. */
    private static SqlType concrete(SqlType t) {
        return t.kind() == SqlType.Kind.VOID ? SqlType.STRING : t;
    }
}
