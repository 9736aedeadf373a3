package org.oooengine.cluster.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Flags renamed in this release. A command declares the old name beside the new one
 * ({@code @Option(names = {"--cluster", "--dir"})}); {@link #hide} then takes the old name out of
 * help and makes it a hidden alias; {@link #check} prints one deprecation warning on stderr for each one used. The
 * old names go in the next release.
 */
final class OldFlags {
    /** Old name to the names that replace it, whichever of them the command has. */
    static final Map<String, Set<String>> RENAMED = Map.ofEntries(
            Map.entry("--dir", Set.of("--cluster", "--store", "--disk", "--scratch")),
            Map.entry("--password-file", Set.of("--users-file")),
            Map.entry("--inflight", Set.of("--in-flight")),
            Map.entry("--methods", Set.of("--mode")),
            Map.entry("--json", Set.of("--input")),
            Map.entry("--seconds", Set.of("--duration")),
            Map.entry("--buffer-pool-mb", Set.of("--buffer-pool")),
            Map.entry("--size-mb", Set.of("--file-size")),
            Map.entry("--query-max-memory-mb", Set.of("--query-max-memory")),
            Map.entry("--spill-max-mb", Set.of("--spill-max")),
            Map.entry("--statements-memory-mb", Set.of("--statements-memory")),
            Map.entry("--node-query-max-memory-mb", Set.of("--node-query-max-memory")),
            Map.entry("--node-spill-max-mb", Set.of("--node-spill-max")),
            Map.entry("--node-statements-memory-mb", Set.of("--node-statements-memory")),
            Map.entry("--timeout-ms", Set.of("--timeout")),
            Map.entry("--handshake-timeout-ms", Set.of("--handshake-timeout")),
            Map.entry("--admission-wait-ms", Set.of("--admission-wait")),
            Map.entry("--answer-delay-us", Set.of("--answer-delay")),
            Map.entry("--probe-every-ms", Set.of("--probe-every")),
            Map.entry("--probe-limit-ms", Set.of("--probe-limit")));

    /** Per command, its required options that now have an old name beside them; picocli cannot see the two as one. */
    private final Map<CommandSpec, Map<OptionSpec, List<OptionSpec>>> required = new HashMap<>();

    /** Each old name's option, to the name that replaces it. */
    private final Map<OptionSpec, String> instead = new HashMap<>();
    /** Each old name's option, to the option of the new name. */
    private final Map<OptionSpec, OptionSpec> kept = new HashMap<>();

    private OldFlags() {
    }

    /** Splits the old names off every option of {@code root} and its subcommands. */
    static OldFlags hide(CommandLine root) {
        OldFlags flags = new OldFlags();
        flags.walk(root);
        return flags;
    }

    private void walk(CommandLine cmd) {
        CommandSpec spec = cmd.getCommandSpec();
        for (OptionSpec option : new ArrayList<>(spec.options())) {
            if (!option.inherited()) {
                split(spec, option);
            }
        }
        cmd.getSubcommands().values().forEach(this::walk);
    }

    private void split(CommandSpec spec, OptionSpec option) {
        List<String> names = Arrays.asList(option.names());
        List<String> old = names.stream()
                .filter(n -> RENAMED.containsKey(n) && RENAMED.get(n).stream().anyMatch(names::contains)).toList();
        if (old.isEmpty()) {
            return;
        }
        if (option.group() != null || option.isMultiValue()) {
            throw new IllegalStateException("'" + spec.qualifiedName() + "' has the old name " + old
                    + " on an option in an argument group or of many values, where it cannot be hidden");
        }
        String[] current = names.stream().filter(n -> !old.contains(n)).toArray(String[]::new);
        OptionSpec kept = OptionSpec.builder(option).names(current).required(false).build();
        spec.remove(option);
        spec.addOption(kept);
        List<OptionSpec> aliases = new ArrayList<>();
        for (String name : old) {
            OptionSpec alias = OptionSpec.builder(option).names(name).hidden(true).required(false).defaultValue(null).build();
            spec.addOption(alias);
            aliases.add(alias);
            String instead = Arrays.stream(current).filter(n -> n.startsWith("--")).findFirst().orElse(current[0]);
            this.instead.put(alias, instead);
            this.kept.put(alias, kept);
        }
        if (option.required()) {
            required.computeIfAbsent(spec, s -> new HashMap<>()).put(kept, aliases);
        }
    }

    /**
     * After parsing: one warning on stderr per old name given, its value set again (picocli gave the
     * unmatched new name its default after the old one set it), then the check picocli makes of
     * required options, for those given by either name (a usage error otherwise).
     */
    void check(ParseResult parsed) throws Exception {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            CommandLine cmd = level.commandSpec().commandLine();
            for (OptionSpec option : level.matchedOptions()) {
                String replacement = instead.get(option);
                if (replacement != null) {
                    List<Object> values = option.typedValues();
                    if (!level.hasMatchedOption(kept.get(option)) && !values.isEmpty()) {
                        kept.get(option).setValue(values.get(values.size() - 1));
                    }
                    cmd.getErr().println("warning: " + option.longestName() + " is deprecated and goes in the next "
                            + "release; use " + replacement);
                    cmd.getErr().flush();
                }
            }
        }
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (level.isUsageHelpRequested() || level.isVersionHelpRequested()) {
                return;
            }
        }
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            ParseResult at = level;
            required.getOrDefault(level.commandSpec(), Map.of()).forEach((option, aliases) -> {
                if (!at.hasMatchedOption(option) && aliases.stream().noneMatch(at::hasMatchedOption)) {
                    throw new CommandLine.MissingParameterException(at.commandSpec().commandLine(), option,
                            "Missing required option: '" + option.longestName() + "=" + option.paramLabel() + "'");
                }
            });
        }
    }
}
