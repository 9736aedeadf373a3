package org.oooengine.hive.sql.analyze;

import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.apache.hadoop.hive.ql.parse.HiveParser;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;

/** Hive's type tokens ({@code TOK_INT}, {@code TOK_DECIMAL 15 2}, ...) as SQL types. */
final class Types {
    /** Hive's DECIMAL without precision and scale. */
    static final SqlType DEFAULT_DECIMAL = SqlType.decimal(10, 0);

    private Types() {
    }

    /** A type a column can have: a primitive one, or an array or a map of such types. */
    static boolean isTypeToken(ASTNode n) {
        return switch (n.getType()) {
            case HiveParser.TOK_LIST -> isTypeToken(Ast.child(n, 0));
            case HiveParser.TOK_MAP -> isPrimitive(Ast.child(n, 0)) && isTypeToken(Ast.child(n, 1));
            default -> isPrimitive(n);
        };
    }

    private static boolean isPrimitive(ASTNode n) {
        return switch (n.getType()) {
            case HiveParser.TOK_BOOLEAN, HiveParser.TOK_TINYINT, HiveParser.TOK_SMALLINT, HiveParser.TOK_INT,
                    HiveParser.TOK_BIGINT, HiveParser.TOK_FLOAT, HiveParser.TOK_DOUBLE, HiveParser.TOK_DECIMAL,
                    HiveParser.TOK_STRING, HiveParser.TOK_VARCHAR, HiveParser.TOK_CHAR, HiveParser.TOK_DATE,
                    HiveParser.TOK_TIMESTAMP -> true;
            default -> false;
        };
    }

    /**
     * A column type the nodes cannot store, refused by name: a struct or union, or another Hive
     * type in its SQL spelling (Hive's parser itself refuses a map key that is not primitive).
     */
    static SqlException notAColumnType(ASTNode type) {
        if (type.getType() == HiveParser.TOK_LIST || type.getType() == HiveParser.TOK_MAP) {
            return notAColumnType(Ast.child(type, type.getType() == HiveParser.TOK_LIST ? 0 : 1));
        }
        return Ast.notSupported("column type " + type.getText().replace("TOK_", "").toLowerCase(java.util.Locale.ROOT), type);
    }

    static SqlType of(ASTNode n) {
        return switch (n.getType()) {
            case HiveParser.TOK_BOOLEAN -> SqlType.BOOLEAN;
            case HiveParser.TOK_TINYINT -> SqlType.TINYINT;
            case HiveParser.TOK_SMALLINT -> SqlType.SMALLINT;
            case HiveParser.TOK_INT -> SqlType.INT;
            case HiveParser.TOK_BIGINT -> SqlType.BIGINT;
            case HiveParser.TOK_FLOAT -> SqlType.FLOAT;
            case HiveParser.TOK_DOUBLE -> SqlType.DOUBLE;
            case HiveParser.TOK_DECIMAL -> n.getChildCount() == 0 ? DEFAULT_DECIMAL : declaredDecimal(n);
            case HiveParser.TOK_STRING -> SqlType.STRING;
            case HiveParser.TOK_VARCHAR -> SqlType.varchar(number(n, 0));
            case HiveParser.TOK_CHAR -> SqlType.fixedChar(number(n, 0));
            case HiveParser.TOK_DATE -> SqlType.DATE;
            case HiveParser.TOK_TIMESTAMP -> SqlType.TIMESTAMP;
            case HiveParser.TOK_LIST -> SqlType.array(of(Ast.child(n, 0)));
            case HiveParser.TOK_MAP -> SqlType.map(of(Ast.child(n, 0)), of(Ast.child(n, 1)));
            default -> throw Ast.notSupported("type " + n.getText(), n);
        };
    }

    /** DECIMAL(p[,s]) as Hive allows it: precision 1 to 38, scale 0 to the precision. */
    private static SqlType declaredDecimal(ASTNode n) {
        int precision = number(n, 0);
        int scale = n.getChildCount() > 1 ? number(n, 1) : 0;
        if (precision < 1 || precision > SqlType.MAX_PRECISION) {
            throw Ast.error(SqlException.SYNTAX, "decimal precision " + precision + " out of the allowed range [1,"
                    + SqlType.MAX_PRECISION + "]", n);
        }
        if (scale > precision) {
            throw Ast.error(SqlException.SYNTAX, "decimal scale " + scale + " above its precision " + precision, n);
        }
        return SqlType.decimal(precision, scale);
    }

    private static int number(ASTNode n, int i) {
        return Integer.parseInt(Ast.child(n, i).getText());
    }

    /** The type both sides of an arithmetic operator or a comparison are brought to. */
    static SqlType common(SqlType a, SqlType b) {
        if (a.equals(b)) {
            return a;
        }
        if (a.kind() == SqlType.Kind.VOID) {
            return b;
        }
        if (b.kind() == SqlType.Kind.VOID) {
            return a;
        }
        if (a.isString() && b.isString()) {
            return SqlType.STRING;
        }
        if (a.kind() == SqlType.Kind.ARRAY && b.kind() == SqlType.Kind.ARRAY) {
            return SqlType.array(common(a.elementType(), b.elementType()));
        }
        if (a.kind() == SqlType.Kind.MAP && b.kind() == SqlType.Kind.MAP) {
            return SqlType.map(common(a.keyType(), b.keyType()), common(a.valueType(), b.valueType()));
        }
        if (isTemporal(a) && isTemporal(b)) {
            return SqlType.TIMESTAMP; // a date beside a timestamp is its midnight, as in Hive
        }
        if (a.kind() == SqlType.Kind.DOUBLE || b.kind() == SqlType.Kind.DOUBLE) {
            return SqlType.DOUBLE;
        }
        if (a.kind() == SqlType.Kind.FLOAT || b.kind() == SqlType.Kind.FLOAT) {
            // Hive's numeric order puts FLOAT above DECIMAL: a float and a decimal add up to a float
            return a.isNumeric() && b.isNumeric() ? SqlType.FLOAT : SqlType.DOUBLE;
        }
        if (a.kind() == SqlType.Kind.DECIMAL || b.kind() == SqlType.Kind.DECIMAL) {
            SqlType x = asDecimal(a);
            SqlType y = asDecimal(b);
            int scale = Math.max(x.scale(), y.scale());
            return SqlType.decimal(Math.max(x.precision() - x.scale(), y.precision() - y.scale()) + scale, scale);
        }
        if (a.isIntegral() && b.isIntegral()) {
            return integralRank(a) >= integralRank(b) ? a : b;
        }
        return a;
    }

    /** TINYINT < SMALLINT < INT < BIGINT: the wider of two integers holds both. */
    private static int integralRank(SqlType t) {
        return switch (t.kind()) {
            case TINYINT -> 0;
            case SMALLINT -> 1;
            case INT -> 2;
            default -> 3;
        };
    }

    /** DATE or TIMESTAMP. */
    static boolean isTemporal(SqlType t) {
        return t.kind() == SqlType.Kind.DATE || t.kind() == SqlType.Kind.TIMESTAMP;
    }

    /** An exact number as the decimal type that holds it. */
    static SqlType asDecimal(SqlType t) {
        return switch (t.kind()) {
            case TINYINT -> SqlType.decimal(3, 0);
            case SMALLINT -> SqlType.decimal(5, 0);
            case INT -> SqlType.decimal(10, 0);
            case BIGINT -> SqlType.decimal(19, 0);
            default -> t;
        };
    }
}
