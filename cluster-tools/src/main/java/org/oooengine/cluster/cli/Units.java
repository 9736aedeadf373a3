package org.oooengine.cluster.cli;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.oooengine.core.units.Durations;
import org.oooengine.core.units.Sizes;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converters of size and duration flags: a number with a unit ({@code 512m}, {@code 1g};
 * {@code 500ms}, {@code 30s}, {@code 5m}), or a plain number in the unit the converter's name says.
 * Sizes become bytes (a long), durations a {@link Duration}.
 */
final class Units {
    private Units() {
    }

    /** A size; a plain number is bytes. */
    static final class Bytes implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return size(value, Sizes.BYTE);
        }
    }

    /** A size; a plain number is MiB. */
    static final class MiB implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return size(value, Sizes.MIB);
        }
    }

    /** A duration; a plain number is seconds. */
    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value, ChronoUnit.SECONDS);
        }
    }

    /** A duration; a plain number is milliseconds. */
    static final class Millis implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value, ChronoUnit.MILLIS);
        }
    }

    /** A duration; a plain number is microseconds. */
    static final class Micros implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value, ChronoUnit.MICROS);
        }
    }

    /** A duration as a number of seconds, for fields that count in seconds; a plain number is seconds. */
    static final class InSeconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return duration(value, ChronoUnit.SECONDS).toNanos() / 1e9;
        }
    }

    /** A duration as a number of milliseconds, for fields that count in them; a plain number is milliseconds. */
    static final class InMillis implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return duration(value, ChronoUnit.MILLIS).toMillis();
        }
    }

    private static long size(String value, long plainUnit) {
        try {
            return Sizes.parse(value, plainUnit);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    private static Duration duration(String value, ChronoUnit plainUnit) {
        try {
            return Durations.parse(value, plainUnit);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** A heap size as the JVM's -Xmx takes it (whole KiB at least). */
    static String jvmSize(long bytes) {
        String s = Sizes.format((bytes + Sizes.KIB - 1) / Sizes.KIB * Sizes.KIB);
        return s.endsWith("b") ? "0k" : s;
    }
}
