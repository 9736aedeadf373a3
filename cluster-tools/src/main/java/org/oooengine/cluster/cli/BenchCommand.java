package org.oooengine.cluster.cli;

import picocli.CommandLine.Command;

/** {@code ooo bench}: join measurements. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Measure joins on a loaded store, or the storage paths with JMH.",
        subcommands = {BenchJoinCommand.class, BenchSweepCommand.class, BenchReportCommand.class, BenchMicroCommand.class,
                BenchTxnCommand.class, BenchFetchCommand.class})
final class BenchCommand {
}
