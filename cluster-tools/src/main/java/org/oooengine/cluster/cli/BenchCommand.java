package org.oooengine.cluster.cli;

import picocli.CommandLine.Command;

/** {@code ooo bench}: join measurements. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Measure joins on a loaded store.",
        subcommands = {BenchJoinCommand.class, BenchSweepCommand.class})
final class BenchCommand {
}
