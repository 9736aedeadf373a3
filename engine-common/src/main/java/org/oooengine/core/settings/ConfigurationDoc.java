package org.oooengine.core.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Writes docs/configuration.md from the registry: a table of the settings of each {@link Scope}.
 * Run from the repository's root after changing a setting:
 * {@code java -cp engine-common/target/classes org.oooengine.core.settings.ConfigurationDoc docs/configuration.md}.
 */
public final class ConfigurationDoc {
    /** How to write the page again, as the page and the test that keeps it equal say. */
    public static final String REGENERATE = "mvn -B -q -o package -DskipTests -pl engine-common && "
            + "java -cp engine-common/target/classes org.oooengine.core.settings.ConfigurationDoc docs/configuration.md";

    private ConfigurationDoc() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ConfigurationDoc <docs/configuration.md>");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), markdown());
    }

    /** The page. */
    public static String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Configuration\n\n")
                .append("<!-- Written from the settings registry (engine-common org.oooengine.core.settings); do not edit.\n")
                .append("     Regenerate: ").append(REGENERATE).append(" -->\n\n")
                .append("Every setting the engine reads, where it is given, the values it takes and its default. ")
                .append("Sizes are a number of bytes or a number with a unit, powers of 1024: `512k`, `64MB`, `1g`, ")
                .append("`1.5GiB`. Durations take a unit: `500ms`, `10s`, `5m`, `1h`. A `SET` of an unknown `ooo.` key, ")
                .append("or of one that is not a session setting, is refused naming the nearest setting, as is a ")
                .append("misspelt coordinator setting when the coordinator starts; a malformed value is refused naming ")
                .append("what was expected. Settings the engine does not know and that are not its own (Hive's, which ")
                .append("tools set) are kept in the session and have no effect.\n");
        for (Scope scope : Scope.values()) {
            md.append("\n## ").append(scope.title()).append("\n\n").append(scope.description()).append("\n\n")
                    .append("| setting | values | default | what it does |\n|---|---|---|---|\n");
            for (Setting<?> s : Settings.all()) {
                if (s.home() == scope) {
                    md.append("| `").append(s.isFamily() ? s.name() + "<key>" : s.name()).append("` | ")
                            .append(cell(values(s))).append(" | ").append(cell(defaultOf(s))).append(" | ")
                            .append(cell(s.doc())).append(" |\n");
                }
            }
        }
        return md.toString();
    }

    private static String values(Setting<?> s) {
        return switch (s.type()) {
            case SIZE, COUNT -> s.expected().replace("a size such as 64MB, 512k or 1g (a plain number is bytes)", "size");
            case DURATION -> "duration";
            case BOOLEAN -> "`true`, `false`";
            case CHOICE -> s.choices().stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "));
            case STRING -> "text";
            case LIST -> "comma-separated list";
        };
    }

    private static String defaultOf(Setting<?> s) {
        String d = s.defaultText();
        return s.defaultValue() != null && !d.equals("none") && d.equals(formatted(s)) ? "`" + d + "`" : d;
    }

    @SuppressWarnings("unchecked")
    private static <T> String formatted(Setting<T> s) {
        return s.format(s.defaultValue());
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
