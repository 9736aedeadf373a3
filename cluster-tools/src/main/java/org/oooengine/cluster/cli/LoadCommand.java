package org.oooengine.cluster.cli;

import picocli.CommandLine.Command;

/** {@code ooo load}: the data sets a store can be loaded from. */
@Command(name = "load", mixinStandardHelpOptions = true, description = "Load a data set into a store directory or a running cluster.",
        subcommands = {LoadTpchCommand.class, LoadTpcdsCommand.class})
final class LoadCommand {
}
