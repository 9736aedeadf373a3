package org.oooengine.cluster.cli;

import picocli.CommandLine.Command;

/** {@code ooo bench}: join, TPC-H, transaction and storage measurements. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure joins or the TPC-H and TPC-DS queries on a loaded store or cluster, transactions, or the storage paths with JMH.",
        subcommands = {BenchJoinCommand.class, BenchSweepCommand.class, BenchReportCommand.class, BenchMicroCommand.class,
                BenchTxnCommand.class, BenchFetchCommand.class, BenchTpchCommand.class, BenchExtractCommand.class, BenchFailoverCommand.class, BenchHedgeCommand.class, BenchEstimatesCommand.class, BenchTpcdsCommand.class, BenchTpccFillCommand.class,
                BenchTpccFillPlotCommand.class, BenchTransfersCommand.class, BenchTpccCommand.class, BenchScalingCommand.class,
                BenchStressCommand.class, BenchChaosCommand.class, BenchChbenchCommand.class, BenchChbenchPlotCommand.class, BenchScanCommand.class})
final class BenchCommand {
}
