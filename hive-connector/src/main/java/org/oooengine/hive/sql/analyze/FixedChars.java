package org.oooengine.hive.sql.analyze;

import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Values;

/**
 * Comparisons with a CHAR(n), as Hive makes them: its trailing pad does not count. A CHAR beside
 * other text is read without its pad; beside text literals under =, <> and IN the literals are
 * padded instead, which leaves the column as stored.
 */
final class FixedChars {
    private FixedChars() {
    }

    /**
     * A CHAR(n) and a text literal for = and <>: the literal padded as the CHAR is, so that the
     * column is compared as stored (index lookups, statistics) yet with Hive's answer, the pad of
     * neither counted. Null when that does not apply (no CHAR beside a text literal).
     */
    static Expr[] padded(Expr a, Expr b) {
        Expr lb = paddedLiteral(b, a.type());
        if (lb != null) {
            return new Expr[] {a, lb};
        }
        Expr la = paddedLiteral(a, b.type());
        return la == null ? null : new Expr[] {la, b};
    }

    /**
     * {@code e}, a text literal, as {@code charType}, a CHAR, stores values: padded. A literal longer
     * than the CHAR, its pad aside, stays whole: no stored value (always n long) equals it, as in
     * Hive. Null when {@code e} is no text literal or the type no CHAR.
     */
    static Expr paddedLiteral(Expr e, SqlType charType) {
        if (charType.kind() != SqlType.Kind.CHAR || !(e instanceof Expr.Literal l) || !(l.value() instanceof String s)) {
            return null;
        }
        String stripped = Values.stripPad(s);
        Object value = stripped.length() > charType.precision() ? stripped
                : Values.cast(stripped, charType);
        return new Expr.Literal(value, charType);
    }

    /** One side of a comparison with a CHAR as text; a literal is read as a CHAR would hold it, its pad not counted. */
    static Expr besideChar(Expr e, SqlType.Kind other) {
        if (other == SqlType.Kind.CHAR && e instanceof Expr.Literal l && l.value() instanceof String s) {
            return new Expr.Literal(Values.stripPad(s), SqlType.STRING);
        }
        return ExprBinder.text(e);
    }
}
