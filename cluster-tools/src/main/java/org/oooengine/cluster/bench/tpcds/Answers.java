package org.oooengine.cluster.bench.tpcds;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Whether the engine's rows are DuckDB's: numbers by value, within a relative 1e-9 or one unit of
 * the coarser decimal's last digit (the engines give averages and quotients different types and
 * scales), dates and timestamps as such, strings without trailing blanks. DuckDB's NaN, a division of zero by
 * zero, is the engine's NULL: Hive divides by zero to NULL. Rows of an ordered query are compared
 * in order, others as sorted lists.
 */
public final class Answers {
    private static final BigDecimal RELATIVE = new BigDecimal("1e-9");

    private Answers() {
    }

    /** Null when the rows are the same, else what differs first. */
    public static String difference(List<Object[]> ours, List<Object[]> expected, boolean ordered) {
        if (ours.size() != expected.size()) {
            return "row count " + ours.size() + ", DuckDB " + expected.size()
                    + (ours.isEmpty() || expected.isEmpty() ? "" : "; first rows " + render(ours.get(0)) + " vs "
                    + render(expected.get(0)));
        }
        List<Object[]> a = ordered ? ours : sorted(ours);
        List<Object[]> b = ordered ? expected : sorted(expected);
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).length != b.get(i).length) {
                return "row " + (i + 1) + " has " + a.get(i).length + " columns, DuckDB's " + b.get(i).length;
            }
            for (int c = 0; c < a.get(i).length; c++) {
                if (!same(a.get(i)[c], b.get(i)[c])) {
                    return "row " + (i + 1) + " column " + (c + 1) + ": " + render(a.get(i)) + " vs DuckDB's "
                            + render(b.get(i));
                }
            }
        }
        return null;
    }

    private static List<Object[]> sorted(List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Answers::render));
        return out;
    }

    /** A row as text, numbers to 8 significant digits, so that rows equal within the tolerance sort alike. */
    public static String render(Object[] row) {
        List<String> cells = new ArrayList<>(row.length);
        for (Object v : row) {
            cells.add(normal(v));
        }
        return String.join("|", cells);
    }

    private static String normal(Object v) {
        if (v == null || isNaN(v)) {
            return "NULL";
        }
        if (v instanceof Number n && finite(n)) {
            return number(n).round(new MathContext(8)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (v instanceof LocalDate d) {
            return d.toString();
        }
        if (v instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime().toString();
        }
        if (v instanceof String s) {
            return s.stripTrailing();
        }
        return v.toString();
    }

    private static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b || a == null && isNaN(b);
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (!finite(x) || !finite(y)) {
                return Double.compare(x.doubleValue(), y.doubleValue()) == 0;
            }
            BigDecimal p = number(x);
            BigDecimal q = number(y);
            BigDecimal tolerance = p.abs().max(q.abs()).max(BigDecimal.ONE).multiply(RELATIVE);
            int scale = Math.min(x instanceof BigDecimal d ? d.scale() : Integer.MAX_VALUE,
                    y instanceof BigDecimal d ? d.scale() : Integer.MAX_VALUE);
            if (scale != Integer.MAX_VALUE) {
                // plus the relative slack: a double such as 0.57 is 0.5699999999999999955... in binary
                tolerance = tolerance.add(BigDecimal.ONE.scaleByPowerOfTen(-scale));
            }
            return p.subtract(q).abs().compareTo(tolerance) <= 0;
        }
        return normal(a).equals(normal(b));
    }

    private static boolean isNaN(Object v) {
        return (v instanceof Double || v instanceof Float) && Double.isNaN(((Number) v).doubleValue());
    }

    private static boolean finite(Number n) {
        return !(n instanceof Double || n instanceof Float) || Double.isFinite(n.doubleValue());
    }

    private static BigDecimal number(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.doubleValue());
        }
        if (n instanceof java.math.BigInteger i) {
            return new BigDecimal(i);
        }
        return BigDecimal.valueOf(n.longValue());
    }
}
