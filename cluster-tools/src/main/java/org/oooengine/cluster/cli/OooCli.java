package org.oooengine.cluster.cli;

import org.oooengine.cluster.bench.JoinMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.ScopeType;

/** The {@code ooo} command: loads stores, runs join benchmarks, calibrates the machine, serves and runs SQL. */
@Command(name = "ooo", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, versionProvider = OooCli.Version.class,
        description = "OoO Engine: an out-of-order query engine for selective joins.",
        subcommands = {LoadCommand.class, BenchCommand.class, CalibrateCommand.class, QuickstartCommand.class,
                ClusterCommand.class, NodeCommand.class, MrCommand.class, ExportCommand.class, AnalyzeCommand.class,
                ExplainCommand.class, ServerCommand.class, SqlCommand.class, DeployCommand.class})
public final class OooCli {
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as {@link #main} runs it; tests drive this same configuration. */
    public static CommandLine commandLine() {
        return new CommandLine(new OooCli())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .registerConverter(JoinMode.class, OooCli::mode)
                .setExecutionExceptionHandler(new ErrorReporter());
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
