package org.oooengine.hive.slt;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Values as a {@code .test} file writes them: NULL, {@code (empty)} for the empty string, numbers
 * in plain notation, dates in ISO form, booleans as true/false. An R value matches when the result
 * rounds to the expected value's decimals, or is within a relative 1e-9 of it.
 */
final class SqlTestValues {
    private static final BigDecimal RELATIVE = new BigDecimal("1e-9");

    private SqlTestValues() {
    }

    /** A result row rendered for the file, one cell per type letter. */
    static List<String> render(Object[] row, String types) {
        List<String> cells = new ArrayList<>(row.length);
        for (int i = 0; i < row.length; i++) {
            cells.add(render(row[i], types.charAt(i)));
        }
        return cells;
    }

    static String render(Object v, char type) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double x && !Double.isFinite(x)) {
            return x.toString();
        }
        if (v instanceof Number n && type != 'T') {
            BigDecimal d = decimal(n);
            return type == 'I' ? d.stripTrailingZeros().toPlainString() : d.toPlainString();
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString(); // as Hive prints a decimal, whatever the column's letter
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (v instanceof LocalDate d) {
            return d.toString();
        }
        if (v instanceof java.time.LocalDateTime t) {
            return org.oooengine.core.types.LocalTimestamps.format(t); // as Hive prints a timestamp
        }
        if (v instanceof java.util.List || v instanceof java.util.Map) {
            return org.oooengine.core.sql.expr.Values.json(v); // as HiveServer2 sends an array or a map
        }
        String s = v.toString();
        return s.isEmpty() ? "(empty)" : s;
    }

    /** Whether a rendered result cell is the expected cell of a column of type {@code type}. */
    static boolean matches(String actual, String expected, char type) {
        if (actual.equals(expected)) {
            return true;
        }
        if (type != 'R' || actual.equals("NULL") || expected.equals("NULL")) {
            return false;
        }
        try {
            BigDecimal a = new BigDecimal(actual);
            BigDecimal e = new BigDecimal(expected);
            if (e.scale() >= 0 && a.setScale(e.scale(), RoundingMode.HALF_UP).compareTo(e) == 0) {
                return true;
            }
            return a.subtract(e).abs().compareTo(e.abs().max(BigDecimal.ONE).multiply(RELATIVE)) <= 0;
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof Double || n instanceof Float) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }
}
