package org.oooengine.hive.server;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * The text of dates and decimals as the driver parses them, written digit by digit: a result of
 * millions of values spends most of its time here otherwise ({@code LocalDate.toString} builds
 * through a StringBuilder, a decimal through a BigDecimal).
 */
final class ValueText {
    private ValueText() {
    }

    /** {@code yyyy-MM-dd}, as {@link LocalDate#toString} writes it. */
    static String date(LocalDate date) {
        int year = date.getYear();
        if (year < 0 || year > 9999) {
            return date.toString(); // a sign, or more digits
        }
        byte[] b = new byte[10];
        digits(b, 0, year, 4);
        b[4] = '-';
        digits(b, 5, date.getMonthValue(), 2);
        b[7] = '-';
        digits(b, 8, date.getDayOfMonth(), 2);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /**
     * The date {@code epochDay} days after 1970-01-01. A result's dates are few and repeat, so the
     * text of each is kept in a small table by day (an entry is replaced whole: no lock needed).
     */
    static String date(long epochDay) {
        int slot = (int) (epochDay & (DATES.length - 1));
        DateText known = DATES[slot];
        if (known != null && known.epochDay == epochDay) {
            return known.text;
        }
        String text = date(LocalDate.ofEpochDay(epochDay));
        DATES[slot] = new DateText(epochDay, text);
        return text;
    }

    private record DateText(long epochDay, String text) {
    }

    /** Eleven years of days, each in a slot of its own. */
    private static final DateText[] DATES = new DateText[4096];

    /**
     * {@code unscaled} x 10^-{@code scale} in plain notation at {@code toScale} digits after the
     * point, rounded half up where it has more, as {@link BigDecimal#toPlainString} writes it.
     */
    static String decimal(long unscaled, int scale, int toScale) {
        if (scale < toScale && toScale - scale <= 18) {
            long factor = POWERS[toScale - scale];
            long scaled = unscaled * factor;
            if (Math.multiplyHigh(unscaled, factor) == scaled >> 63) { // it fits in 64 bits
                return decimal(scaled, toScale);
            }
        }
        if (scale != toScale || unscaled == Long.MIN_VALUE) {
            return BigDecimal.valueOf(unscaled, scale).setScale(toScale, java.math.RoundingMode.HALF_UP).toPlainString();
        }
        return decimal(unscaled, scale);
    }

    private static String decimal(long unscaled, int scale) {
        if (scale <= 0 || unscaled == Long.MIN_VALUE) {
            return BigDecimal.valueOf(unscaled, scale).toPlainString();
        }
        long v = Math.abs(unscaled);
        // digits: as many as v has, and at least one before the point
        byte[] b = new byte[22 + scale];
        int at = b.length;
        for (int i = 0; i < scale; i++) {
            b[--at] = (byte) ('0' + v % 10);
            v /= 10;
        }
        b[--at] = '.';
        do {
            b[--at] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        if (unscaled < 0) {
            b[--at] = '-';
        }
        return new String(b, at, b.length - at, StandardCharsets.ISO_8859_1);
    }

    private static void digits(byte[] b, int at, int value, int width) {
        for (int i = width - 1; i >= 0; i--) {
            b[at + i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    private static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }
}
