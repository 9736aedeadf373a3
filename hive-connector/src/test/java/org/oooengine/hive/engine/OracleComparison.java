package org.oooengine.hive.engine;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares our rows with DuckDB's: numbers by value within a relative 1e-9, or within one unit
 * of a decimal's last digit (engines give averages and quotients different scales), dates as
 * dates, CHAR padding ignored. Ordered
 * queries compare row by row; others as sorted lists.
 */
public final class OracleComparison {
    private OracleComparison() {
    }

    /** Null when equal, else what differs. */
    public static String difference(List<Object[]> ours, List<Object[]> expected, boolean ordered) {
        if (ours.size() != expected.size()) {
            return "row count " + ours.size() + ", expected " + expected.size() + sample(ours, expected);
        }
        List<Object[]> a = ordered ? ours : sorted(ours);
        List<Object[]> b = ordered ? expected : sorted(expected);
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).length != b.get(i).length) {
                return "row " + i + " has " + a.get(i).length + " columns, expected " + b.get(i).length;
            }
            for (int c = 0; c < a.get(i).length; c++) {
                if (!same(a.get(i)[c], b.get(i)[c])) {
                    return "row " + i + " column " + (c + 1) + ": " + render(a.get(i)) + " expected " + render(b.get(i));
                }
            }
        }
        return null;
    }

    private static String sample(List<Object[]> ours, List<Object[]> expected) {
        return "; first rows " + (ours.isEmpty() ? "[]" : render(ours.get(0)))
                + " expected " + (expected.isEmpty() ? "[]" : render(expected.get(0)));
    }

    private static List<Object[]> sorted(List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(OracleComparison::render));
        return out;
    }

    static String render(Object[] row) {
        List<String> cells = new ArrayList<>();
        for (Object v : row) {
            cells.add(normal(v));
        }
        return String.join("|", cells);
    }

    private static String normal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Number n) {
            return number(n).round(new MathContext(8)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (v instanceof String s) {
            return s.stripTrailing();
        }
        return v.toString();
    }

    private static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Number x && b instanceof Number y) {
            BigDecimal p = number(x);
            BigDecimal q = number(y);
            BigDecimal tolerance = p.abs().max(q.abs()).max(BigDecimal.ONE).multiply(new BigDecimal("1e-9"));
            // A decimal result carries its type's scale (Hive's avg of DECIMAL(15,2) has scale 6):
            // agree to its last digit.
            int scale = Math.min(x instanceof BigDecimal d ? d.scale() : Integer.MAX_VALUE,
                    y instanceof BigDecimal d ? d.scale() : Integer.MAX_VALUE);
            if (scale != Integer.MAX_VALUE) {
                tolerance = tolerance.max(BigDecimal.ONE.scaleByPowerOfTen(-scale));
            }
            return p.subtract(q).abs().compareTo(tolerance) <= 0;
        }
        return normal(a).equals(normal(b));
    }

    private static BigDecimal number(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

}
