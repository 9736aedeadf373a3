package org.oooengine.core.units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them: a number and a unit, {@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 1h}, {@code 1.5s}, {@code 250us}. Units: ns, us (or µs), ms, s, m (or min), h, d; a plain
 * number counts in the unit the caller documents, or is refused when the caller asks for a unit.
 */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|sec|m|min|h|d)?");

    private Durations() {
    }

    /**
     * {@code text} as a duration.
     *
     * @param plainUnit what a number without a unit counts; null to demand a unit (0 alone is allowed)
     * @throws IllegalArgumentException when {@code text} is no duration or does not fit one
     */
    public static Duration parse(String text, ChronoUnit plainUnit) {
        Matcher m = DURATION.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
        boolean unitMissing = m.matches() && m.group(2) == null && plainUnit == null
                && new BigDecimal(m.group(1)).signum() != 0;
        if (!m.matches() || unitMissing) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; give a number with a unit, such as "
                    + "500ms, 30s or 5m" + (plainUnit == null ? "" : " (a plain number is " + unitName(plainUnit) + ")"));
        }
        ChronoUnit unit = m.group(2) == null ? (plainUnit == null ? ChronoUnit.SECONDS : plainUnit) : switch (m.group(2)) {
            case "ns" -> ChronoUnit.NANOS;
            case "us", "µs" -> ChronoUnit.MICROS;
            case "ms" -> ChronoUnit.MILLIS;
            case "m", "min" -> ChronoUnit.MINUTES;
            case "h" -> ChronoUnit.HOURS;
            case "d" -> ChronoUnit.DAYS;
            default -> ChronoUnit.SECONDS;
        };
        BigDecimal nanos = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit.getDuration().toNanos()))
                .setScale(0, RoundingMode.HALF_UP);
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration");
        }
        return Duration.ofNanos(nanos.longValueExact());
    }

    /** {@code d} in the largest unit that holds it exactly, e.g. {@code 500ms}, {@code 10s}, {@code 5m}; parses back. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        for (ChronoUnit unit : new ChronoUnit[] {ChronoUnit.HOURS, ChronoUnit.MINUTES, ChronoUnit.SECONDS,
                ChronoUnit.MILLIS, ChronoUnit.MICROS}) {
            long per = unit.getDuration().toNanos();
            if (nanos % per == 0) {
                return nanos / per + symbol(unit);
            }
        }
        return nanos + "ns";
    }

    /** The unit as help texts name it: seconds, milliseconds, microseconds... */
    public static String unitName(ChronoUnit unit) {
        return unit.toString().toLowerCase(Locale.ROOT);
    }

    private static String symbol(ChronoUnit unit) {
        return switch (unit) {
            case HOURS -> "h";
            case MINUTES -> "m";
            case SECONDS -> "s";
            case MILLIS -> "ms";
            default -> "us";
        };
    }
}
