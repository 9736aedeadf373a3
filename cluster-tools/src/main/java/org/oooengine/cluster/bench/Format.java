package org.oooengine.cluster.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Number formats shared by the tables and lines the benchmarks print. */
public final class Format {
    private Format() {
    }

    /** A fraction as a percentage without trailing zeros: 0.001 is "0.1%". */
    public static String percent(double fraction) {
        return new BigDecimal(Double.toString(fraction)).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
    }

    /** A plain decimal without trailing zeros: 1.0 is "1", 0.10 is "0.1". */
    public static String number(double x) {
        return new BigDecimal(Double.toString(x)).stripTrailingZeros().toPlainString();
    }

    /** Three significant digits: cached joins take fractions of a millisecond, scans whole seconds. */
    public static String seconds(double s) {
        return significant(s);
    }

    /** A measured figure to three significant digits: more would be the machine's noise. */
    public static String significant(double x) {
        return new BigDecimal(x).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    public static String speedup(double x) {
        return String.format(Locale.ROOT, x >= 10 ? "%.0fx" : "%.1fx", x);
    }

    public static String count(double n) {
        return String.format(Locale.ROOT, "%,.0f", n);
    }

    public static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }
}
