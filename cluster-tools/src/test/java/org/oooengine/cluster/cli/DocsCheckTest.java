package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The documentation agrees with the code: every {@code ooo} command and flag written in code in
 * README.md and docs/ is one the command line has (and not a deprecated spelling), every relative
 * link reaches a file (and a heading, when it names one), and every figure in README.md links the
 * benchmark file it comes from.
 */
class DocsCheckTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Subcommands the ./ooo script runs itself rather than the Java command line. */
    private static final Set<String> SCRIPT_COMMANDS = Set.of("beeline");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    /**
     * {@code ooo} at the start of a command (or as ./ooo, .../bin/ooo) and its words up to a shell
     * operator; {@code ooo} elsewhere is the service's user name ({@code -u ooo}).
     */
    private static final Pattern INVOCATION = Pattern.compile(
            "(?:^|[;&|(]\\s*|\\$\\s*|sudo(?:\\s+-u\\s+\\S+)?\\s+)(?:\\./|\\S*/bin/)?ooo((?:\\s+[^\\s|;&><#`)]+)*)");
    private static final CommandLine OOO = OooCli.commandLine();
    private static final Pattern LINK = Pattern.compile("\\[[^\\]\\n]*]\\(([^)\\s]+)\\)");
    /** A measured figure: a ratio, a share, a duration or a rate. */
    private static final Pattern FIGURE = Pattern.compile("\\b\\d+(?:[.,]\\d+)?\\s?(?:x\\b|×|%|s\\b|ms\\b|µs\\b|min\\b|rows/s|tpmC)");

    @Test
    void everyCommandAndFlagInTheDocsExists() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path doc : docs()) {
            for (String code : codeOf(Files.readString(doc))) {
                Matcher m = INVOCATION.matcher(code);
                while (m.find()) {
                    check(m.group(1).trim(), recordsRuns(doc))
                            .ifPresent(why -> wrong.add(ROOT.relativize(doc) + ": `ooo " + m.group(1).trim() + "`: " + why));
                }
            }
        }
        assertEquals(List.of(), wrong, String.join("\n", wrong));
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : docs()) {
            String text = Files.readString(doc);
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("<")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                if (!Files.exists(to)) {
                    broken.add(ROOT.relativize(doc) + ": " + target + " (no such file)");
                } else if (anchor != null && to.toString().endsWith(".md") && !anchors(Files.readString(to)).contains(anchor)) {
                    broken.add(ROOT.relativize(doc) + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken, String.join("\n", broken));
    }

    @Test
    void everyFigureInTheReadmeNamesItsBenchmarkFile() throws IOException {
        List<String> unsourced = new ArrayList<>();
        boolean inCode = false;
        for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
            if (line.startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            String prose = CODE_SPAN.matcher(line).replaceAll("");
            if (!inCode && FIGURE.matcher(prose).find() && !line.contains("docs/benchmarks/")) {
                unsourced.add(line);
            }
        }
        assertEquals(List.of(), unsourced, "figures without a link to docs/benchmarks/:\n" + String.join("\n", unsourced));
    }

    /**
     * A benchmark page records the commands as they were run: a deprecated spelling there still
     * works, and is not rewritten after the fact.
     */
    private static boolean recordsRuns(Path doc) {
        return doc.startsWith(ROOT.resolve("docs").resolve("benchmarks"));
    }

    /** Why {@code args} (after {@code ooo}) is not a command line of ours; empty when it is. */
    private static java.util.Optional<String> check(String args, boolean deprecatedAllowed) {
        CommandLine command = OOO;
        String[] words = args.split("\\s+");
        int i = 0;
        while (i < words.length && command.getSubcommands().containsKey(words[i])) {
            command = command.getSubcommands().get(words[i]);
            i++;
        }
        if (i == 0 && words.length > 0 && SCRIPT_COMMANDS.contains(words[0])) {
            return java.util.Optional.empty();
        }
        if (i == 0 && words.length > 0 && words[0].matches("[a-z][a-z-]*")) {
            return java.util.Optional.of("no command '" + words[0] + "'");
        }
        if (i < words.length && !command.getSubcommands().isEmpty() && words[i].matches("[a-z][a-z-]*")
                && !words[i].contains("=")) {
            return java.util.Optional.of("no command '" + words[i] + "' under '" + command.getCommandName() + "'");
        }
        if (!command.getCommandSpec().unmatchedArgsBindings().isEmpty()) {
            return java.util.Optional.empty(); // the rest are another command line's (a MapReduce job's)
        }
        for (; i < words.length; i++) {
            String w = words[i];
            if (!w.startsWith("-") || w.equals("-") || w.equals("--") || w.matches("-\\d.*")) {
                continue;
            }
            String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
            CommandLine.Model.OptionSpec option = findOption(command, name);
            if (option == null) {
                return java.util.Optional.of("'" + command.getCommandName() + "' has no option " + name);
            }
            if (option.hidden() && !deprecatedAllowed) {
                return java.util.Optional.of(name + " is a deprecated spelling, hidden from --help: see the command's --help");
            }
        }
        return java.util.Optional.empty();
    }

    /** {@code name} among the options of {@code command} or, for a group of commands named alone, of one of them. */
    private static CommandLine.Model.OptionSpec findOption(CommandLine command, String name) {
        CommandLine.Model.OptionSpec own = command.getCommandSpec().findOption(name);
        if (own != null) {
            return own;
        }
        return command.getSubcommands().values().stream().map(sub -> findOption(sub, name))
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** The text in code: fenced blocks (a line each) and code spans. */
    private static List<String> codeOf(String markdown) {
        List<String> code = new ArrayList<>();
        boolean fenced = false;
        StringBuilder continued = new StringBuilder();
        for (String line : markdown.split("\n")) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continued.append(line.strip());
                if (line.endsWith("\\")) {
                    continued.setLength(continued.length() - 1);
                    continued.append(' ');
                } else {
                    code.add(continued.toString());
                    continued.setLength(0);
                }
            } else {
                Matcher m = CODE_SPAN.matcher(line);
                while (m.find()) {
                    code.add(m.group(1));
                }
            }
        }
        return code;
    }

    /** The anchors GitHub gives the headings of a Markdown text. */
    private static Set<String> anchors(String markdown) {
        Set<String> out = new java.util.HashSet<>();
        for (String line : markdown.split("\n")) {
            if (line.startsWith("#")) {
                String title = line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT);
                String slug = title.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                String unique = slug;
                for (int n = 1; !out.add(unique); n++) {
                    unique = slug + "-" + n;
                }
            }
        }
        return out;
    }

    private static List<Path> docs() throws IOException {
        List<Path> out = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        assertTrue(out.size() > 5, "the docs are not where they were looked for: " + ROOT);
        return out;
    }
}
