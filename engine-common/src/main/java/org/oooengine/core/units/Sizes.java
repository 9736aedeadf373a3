package org.oooengine.core.units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as people write them: a number and a binary unit, {@code 512m}, {@code 1g}, {@code 1.5GiB},
 * {@code 8k}, {@code 100b}. Units are case-insensitive powers of 1024 (k, m, g, t, with or without
 * a trailing {@code b} or {@code ib}); a plain number counts in the unit the caller documents.
 */
public final class Sizes {
    public static final long BYTE = 1;
    public static final long KIB = 1L << 10;
    public static final long MIB = 1L << 20;
    public static final long GIB = 1L << 30;
    public static final long TIB = 1L << 40;

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(b|[kmgt](?:i?b)?)?");

    private Sizes() {
    }

    /**
     * {@code text} in bytes.
     *
     * @param plainUnit what a number without a unit counts, e.g. {@link #MIB}
     * @throws IllegalArgumentException when {@code text} is no size, is negative or does not fit a long
     */
    public static long parse(String text, long plainUnit) {
        Matcher m = SIZE.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; give a number with a unit, such as 512m "
                    + "or 1g (a plain number is " + unitName(plainUnit) + ")");
        }
        long unit = m.group(2) == null ? plainUnit : switch (m.group(2).charAt(0)) {
            case 'k' -> KIB;
            case 'm' -> MIB;
            case 'g' -> GIB;
            case 't' -> TIB;
            default -> BYTE;
        };
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)).setScale(0, RoundingMode.HALF_UP);
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("'" + text + "' is too large a size");
        }
        return bytes.longValueExact();
    }

    /** {@code bytes} in the largest unit that holds it exactly, e.g. {@code 1g}, {@code 64m}, {@code 100b}; parses back. */
    public static String format(long bytes) {
        if (bytes != 0) {
            for (long unit : new long[] {TIB, GIB, MIB, KIB}) {
                if (bytes % unit == 0) {
                    return bytes / unit + unitLetter(unit);
                }
            }
        }
        return bytes + "b";
    }

    /**
     * {@code bytes} for people to read, to one decimal in the largest binary unit it reaches:
     * {@code 0 B}, {@code 512 B}, {@code 1.5 KiB}, {@code 12.3 MiB}, {@code 2.0 GiB}; not for parsing back.
     */
    public static String readable(long bytes) {
        if (bytes < KIB) {
            return bytes + " B";
        }
        long unit = bytes >= TIB ? TIB : bytes >= GIB ? GIB : bytes >= MIB ? MIB : KIB;
        return String.format(Locale.ROOT, "%.1f %s", bytes / (double) unit, unitName(unit));
    }

    /** The unit's name as help texts give it: bytes, KiB, MiB, GiB, TiB. */
    public static String unitName(long unit) {
        return unit == BYTE ? "bytes" : unit == KIB ? "KiB" : unit == MIB ? "MiB" : unit == GIB ? "GiB"
                : unit == TIB ? "TiB" : unit + " bytes";
    }

    private static String unitLetter(long unit) {
        return unit == TIB ? "t" : unit == GIB ? "g" : unit == MIB ? "m" : "k";
    }
}
