package org.oooengine.core.sql.expr;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.oooengine.core.sql.SqlType;

/**
 * A table-generating function (Hive's UDTF) over one row: {@code explode} of an array (a row per
 * element) or of a map (a row per entry: key, value), {@code posexplode} of an array (position
 * from 0, element). Each generated row is the input row with the generated values after it.
 * NULL or empty gives no row, or with {@code outer} (LATERAL VIEW OUTER) one row whose generated
 * values are NULL.
 */
public record Generator(Kind kind, Expr arg, boolean outer) {
    public enum Kind { EXPLODE, POSEXPLODE }

    public Generator {
        SqlType t = arg.type();
        boolean fits = kind == Kind.EXPLODE ? t.isComplex() : t.kind() == SqlType.Kind.ARRAY;
        if (!fits) {
            throw new IllegalArgumentException(kind.name().toLowerCase(Locale.ROOT) + " of a " + t);
        }
    }

    /** The types of the values it generates. */
    public List<SqlType> types() {
        SqlType t = arg.type();
        if (kind == Kind.POSEXPLODE) {
            return List.of(SqlType.INT, t.elementType());
        }
        return t.kind() == SqlType.Kind.ARRAY ? List.of(t.elementType()) : List.of(t.keyType(), t.valueType());
    }

    /** Hive's names for the generated columns when the query gives none. */
    public List<String> defaultNames() {
        if (kind == Kind.POSEXPLODE) {
            return List.of("pos", "val");
        }
        return arg.type().kind() == SqlType.Kind.ARRAY ? List.of("col") : List.of("key", "value");
    }

    /** Each row {@code row} gives: its values, then the generated ones. */
    public void generate(Object[] row, Consumer<Object[]> out) {
        Object value = arg.eval(row);
        int before = row.length;
        int generated = types().size();
        if (value instanceof List<?> list && !list.isEmpty()) {
            for (int i = 0; i < list.size(); i++) {
                Object[] r = java.util.Arrays.copyOf(row, before + generated);
                if (kind == Kind.POSEXPLODE) {
                    r[before] = i;
                    r[before + 1] = list.get(i);
                } else {
                    r[before] = list.get(i);
                }
                out.accept(r);
            }
        } else if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Object[] r = java.util.Arrays.copyOf(row, before + generated);
                r[before] = e.getKey();
                r[before + 1] = e.getValue();
                out.accept(r);
            }
        } else if (outer) {
            out.accept(java.util.Arrays.copyOf(row, before + generated));
        }
    }

    /** As a plan shows it, e.g. {@code OUTER posexplode(arr)}. */
    public String text(IntFunction<String> column) {
        return (outer ? "OUTER " : "") + kind.name().toLowerCase(Locale.ROOT) + "(" + ExprText.of(arg, column) + ")";
    }
}
