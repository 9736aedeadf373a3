package org.oooengine.core.settings;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.oooengine.core.units.Durations;
import org.oooengine.core.units.Sizes;

/**
 * One setting: its name, the type of its value, where it is given ({@link Scope}), its default,
 * the values it takes and what it does. Values are read through it ({@link #get}), so a value is
 * parsed and checked in one place: sizes take units ({@code 64MB}, {@code 512k}, {@code 1g}; a
 * plain number is bytes), durations too ({@code 500ms}, {@code 10s}).
 *
 * <p>A setting whose name ends in a dot is a family of keys ({@code ooo.catalog.hms.conf.fs.defaultFS}):
 * it stands for every key that starts with its name.
 *
 * @param <T> the value's type: {@link Long} for sizes and counts, {@link Duration}, {@link Boolean},
 *            {@link String} for choices and text, {@code List<String>} for lists
 */
public final class Setting<T> {
    /** The kinds of value a setting takes. */
    public enum Type {
        SIZE, DURATION, COUNT, BOOLEAN, CHOICE, STRING, LIST
    }

    private static final Pattern WHOLE = Pattern.compile("-?\\d{1,18}");

    private final String name;
    private final Type type;
    private final Set<Scope> scopes;
    private final T defaultValue;
    private final String defaultText;
    private final String unit;
    private final long min;
    private final long max;
    private final ChronoUnit plainTimeUnit;
    private final List<String> choices;
    private final String doc;

    private Setting(Builder<T> b) {
        this.name = b.name;
        this.type = b.type;
        this.scopes = Set.copyOf(b.scopes);
        this.defaultValue = b.defaultValue;
        this.defaultText = b.defaultText;
        this.unit = b.unit;
        this.min = b.min;
        this.max = b.max;
        this.plainTimeUnit = b.plainTimeUnit;
        this.choices = b.choices;
        this.doc = b.doc;
    }

    /** A size in bytes; a plain number is bytes, or a number with a unit: {@code 64MB}, {@code 512k}, {@code 1g}. */
    public static Builder<Long> size(String name) {
        return new Builder<Long>(name, Type.SIZE).unit("bytes").range(0, Long.MAX_VALUE);
    }

    /** A duration; {@code plainUnit} is what a plain number counts, null to demand a unit ({@code 0} alone passes). */
    public static Builder<Duration> duration(String name, ChronoUnit plainUnit) {
        Builder<Duration> b = new Builder<>(name, Type.DURATION);
        b.plainTimeUnit = plainUnit;
        return b;
    }

    /** A whole number, 0 or more unless {@link Builder#range} says otherwise. */
    public static Builder<Long> count(String name) {
        return new Builder<Long>(name, Type.COUNT).range(0, Long.MAX_VALUE);
    }

    /** {@code true} or {@code false}. */
    public static Builder<Boolean> flag(String name) {
        return new Builder<>(name, Type.BOOLEAN);
    }

    /** One of {@code choices}, matched without regard to case. */
    public static Builder<String> choice(String name, String... choices) {
        Builder<String> b = new Builder<>(name, Type.CHOICE);
        b.choices = List.of(choices);
        return b;
    }

    /** Any text. */
    public static Builder<String> text(String name) {
        return new Builder<>(name, Type.STRING);
    }

    /** Comma-separated items; blanks around them and empty ones are dropped. */
    public static Builder<List<String>> list(String name) {
        return new Builder<List<String>>(name, Type.LIST).defaultValue(List.of());
    }

    public String name() {
        return name;
    }

    public Type type() {
        return type;
    }

    public Set<Scope> scopes() {
        return scopes;
    }

    public boolean in(Scope scope) {
        return scopes.contains(scope);
    }

    /** The scope a setting is documented under: the first of its scopes in {@link Scope}'s order. */
    public Scope home() {
        return EnumSet.copyOf(scopes).iterator().next();
    }

    /** Whether this setting is a family of keys, all those starting with its name. */
    public boolean isFamily() {
        return name.endsWith(".");
    }

    /** Whether {@code key} is this setting (or one of its family). */
    public boolean names(String key) {
        return isFamily() ? key.startsWith(name) && key.length() > name.length() : key.equals(name);
    }

    /** The value of a key not set; null where the absence itself means something ({@link #defaultText}). */
    public T defaultValue() {
        return defaultValue;
    }

    /** The default as the documentation gives it. */
    public String defaultText() {
        if (defaultText != null) {
            return defaultText;
        }
        if (defaultValue == null || defaultValue instanceof List<?> l && l.isEmpty()) {
            return "none";
        }
        return format(defaultValue);
    }

    public List<String> choices() {
        return choices;
    }

    public String doc() {
        return doc;
    }

    /** {@code value} as the settings write it: sizes and durations with a unit, lists comma-separated. */
    public String format(T value) {
        if (value instanceof Long n && type == Type.SIZE) {
            return Sizes.format(n);
        }
        if (value instanceof Duration d) {
            return Durations.format(d);
        }
        if (value instanceof List<?> l) {
            return String.join(",", l.stream().map(String::valueOf).toList());
        }
        return String.valueOf(value);
    }

    /** The value of this setting in {@code settings}, or its default when not there. */
    public T get(Map<String, String> settings) {
        return find(settings).orElse(defaultValue);
    }

    /** The value of this setting in {@code settings}; empty when not there. */
    public Optional<T> find(Map<String, String> settings) {
        String v = settings.get(name);
        return v == null ? Optional.empty() : Optional.of(parse(v));
    }

    /**
     * {@code text} as this setting's value.
     *
     * @throws IllegalArgumentException naming the setting, the value and what was expected
     */
    @SuppressWarnings("unchecked")
    public T parse(String text) {
        String v = text == null ? "" : text.strip();
        try {
            Object value = switch (type) {
                case SIZE -> inRange(Sizes.parse(v, Sizes.BYTE));
                case COUNT -> {
                    if (!WHOLE.matcher(v).matches()) {
                        throw new IllegalArgumentException(v);
                    }
                    yield inRange(Long.parseLong(v));
                }
                case DURATION -> Durations.parse(v, plainTimeUnit);
                case BOOLEAN -> switch (v.toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw new IllegalArgumentException(v);
                };
                case CHOICE -> {
                    String c = v.toLowerCase(Locale.ROOT);
                    if (!choices.contains(c)) {
                        throw new IllegalArgumentException(v);
                    }
                    yield c;
                }
                case STRING -> v;
                case LIST -> Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
            };
            return (T) value;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " is '" + text + "'; expected " + expected(), e);
        }
    }

    /** {@code text} parsed and written back plainly (sizes as bytes, durations with a unit): for readers that know no units. */
    public String normalized(String text) {
        T value = parse(text);
        return value instanceof Duration d ? Durations.format(d) : value instanceof List<?> l
                ? String.join(",", l.stream().map(String::valueOf).toList()) : String.valueOf(value);
    }

    private long inRange(long n) {
        if (n < min || n > max) {
            throw new IllegalArgumentException(Long.toString(n));
        }
        return n;
    }

    /** What a value must be, as a refusal and the documentation say it: "a size such as 64MB ...". */
    public String expected() {
        return switch (type) {
            case SIZE -> "a size such as 64MB, 512k or 1g (a plain number is bytes)" + range();
            case COUNT -> "a whole number" + (unit == null ? "" : " (" + unit + ")") + range();
            case DURATION -> "a duration such as 500ms, 10s, 5m or 1h" + (plainTimeUnit == null ? ""
                    : " (a plain number is " + Durations.unitName(plainTimeUnit) + ")");
            case BOOLEAN -> "true or false";
            case CHOICE -> choices.size() == 1 ? choices.get(0)
                    : String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + choices.get(choices.size() - 1);
            case STRING -> "text";
            case LIST -> "a comma-separated list";
        };
    }

    private String range() {
        if (max == Long.MAX_VALUE) {
            return min == 0 ? ", 0 or more" : ", " + (type == Type.SIZE ? Sizes.format(min) : Long.toString(min)) + " or more";
        }
        return type == Type.SIZE ? " from " + Sizes.format(min) + " to " + Sizes.format(max) : " from " + min + " to " + max;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Declares a setting: {@code Setting.size("ooo.x").scope(SESSION).defaultValue(8L << 20).doc("...").build()}. */
    public static final class Builder<T> {
        private final String name;
        private final Type type;
        private Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        private T defaultValue;
        private String defaultText;
        private String unit;
        private long min = Long.MIN_VALUE;
        private long max = Long.MAX_VALUE;
        private ChronoUnit plainTimeUnit;
        private List<String> choices = List.of();
        private String doc = "";

        private Builder(String name, Type type) {
            this.name = name;
            this.type = type;
        }

        public Builder<T> scope(Scope first, Scope... more) {
            scopes = EnumSet.of(first, more);
            return this;
        }

        public Builder<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        /** How the documentation gives the default, where the value alone does not say it ("a quarter of the heap"). */
        public Builder<T> defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        /** What a count counts (attempts, connections), as the documentation and refusals name it. */
        public Builder<T> unit(String unit) {
            this.unit = unit;
            return this;
        }

        /** The least and the most a size or count may be. */
        public Builder<T> range(long min, long max) {
            this.min = min;
            this.max = max;
            return this;
        }

        public Builder<T> doc(String doc) {
            this.doc = doc;
            return this;
        }

        public Setting<T> build() {
            if (scopes.isEmpty()) {
                throw new IllegalStateException(name + " has no scope");
            }
            return new Setting<>(this);
        }
    }
}
