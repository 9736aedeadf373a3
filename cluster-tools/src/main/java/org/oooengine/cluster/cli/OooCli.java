package org.oooengine.cluster.cli;

import org.oooengine.cluster.bench.JoinMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code ooo} command: loads stores, runs join benchmarks, calibrates the machine, serves and runs SQL. */
@Command(name = "ooo", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, versionProvider = OooCli.Version.class,
        description = "OoO Engine: an out-of-order query engine for selective joins.",
        subcommands = {LoadCommand.class, BenchCommand.class, CalibrateCommand.class, QuickstartCommand.class,
                ClusterCommand.class, NodeCommand.class, MrCommand.class, ExportCommand.class, AnalyzeCommand.class,
                ExplainCommand.class, ServerCommand.class, SqlCommand.class, BeelineCommand.class, DeployCommand.class})
public final class OooCli {
    @Option(names = "--quiet", scope = ScopeType.INHERIT,
            description = "no progress and no notes on stderr, only warnings and errors (progress shows only when "
                    + "stderr is a terminal anyway)")
    boolean quiet;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as {@link #main} runs it; tests drive this same configuration. */
    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new OooCli())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .registerConverter(JoinMode.class, OooCli::mode)
                .setExecutionExceptionHandler(new ErrorReporter());
        OldFlags old = OldFlags.hide(cmd);
        exitCodesInHelp(cmd);
        cmd.setExecutionStrategy(parsed -> {
            try {
                old.check(parsed);
            } catch (CommandLine.ParameterException e) {
                throw e;
            } catch (Exception e) {
                throw new CommandLine.ExecutionException(parsed.commandSpec().commandLine(), e.getMessage(), e);
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        return cmd;
    }

    /** Every command's help ends with the exit codes. */
    private static void exitCodesInHelp(CommandLine cmd) {
        cmd.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.described());
        cmd.getSubcommands().values().forEach(OooCli::exitCodesInHelp);
    }

    private static JoinMode mode(String label) {
        try {
            return JoinMode.parse(label);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** The version Maven writes into the jar manifest. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = OooCli.class.getPackage().getImplementationVersion();
            return new String[] {"ooo " + (v == null ? "(development build)" : v)};
        }
    }
}
