package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.txn.TxnBench;
import org.oooengine.cluster.bench.txn.TxnBenchSettings;
import org.oooengine.cluster.bench.txn.TxnEngineKind;
import org.oooengine.cluster.bench.txn.TxnResult;
import org.oooengine.cluster.bench.txn.TxnWorkload;
import org.oooengine.core.txn.Durability;
import org.oooengine.core.txn.LogProtocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code ooo bench txn}: a transactional micro-benchmark on our tables or on RocksDB's transactions. */
@Command(name = "txn", mixinStandardHelpOptions = true,
        description = {"Run a transaction micro-benchmark and print tps, abort_rate, p50_us and p99_us.",
                "Workloads: U-1 and U-10 (1 or 10 read-modify-write updates), U-5R-5 (5 updates and 5 reads of the same "
                        + "tuples), R-10 (10 reads), on Zipf-chosen keys. Engines: ooo (TicToc with a per-worker WAL), "
                        + "rocksdb-optimistic (OptimisticTransactionDB), rocksdb-pessimistic (TransactionDB), "
                        + "at the same durability. Files go to <dir>/txn-bench-<engine> and are deleted afterwards."})
final class BenchTxnCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--scratch", "--dir"}, required = true, paramLabel = "<dir>", description = "scratch directory for the benchmark's files")
    Path dir;

    @Option(names = "--workload", required = true, paramLabel = "U-1|U-10|U-5R-5|R-10", converter = WorkloadConverter.class,
            description = "transaction mix")
    TxnWorkload workload;

    @Option(names = "--rows", defaultValue = "" + TxnBenchSettings.DEFAULT_ROWS, paramLabel = "N",
            description = "rows in the table (default: ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--theta", defaultValue = "" + TxnBenchSettings.DEFAULT_THETA, paramLabel = "<zipf>",
            description = "Zipf skew of the keys, 0 = uniform, below 1 (default: ${DEFAULT-VALUE})")
    double theta;

    @Option(names = "--threads", required = true, paramLabel = "T", description = "worker threads")
    int threads;

    @Option(names = "--engine", required = true, paramLabel = "ooo|rocksdb-optimistic|rocksdb-pessimistic",
            converter = EngineConverter.class, description = "transaction engine")
    TxnEngineKind engine;

    @Option(names = "--protocol", defaultValue = "nlr", paramLabel = "nlr|nlr-group:N|elr|elr-group:N|elr-swal",
            converter = ProtocolConverter.class,
            description = "lock release and group commit of the ooo engine (default: ${DEFAULT-VALUE})")
    LogProtocol protocol;

    @Option(names = "--durability", defaultValue = "nvm-sim:50", paramLabel = "fsync|nvm-sim:<ns>|none",
            converter = DurabilityConverter.class,
            description = "what a WAL flush waits for: fsync, a simulated NVM latency per WAL write, or nothing "
                    + "(default: ${DEFAULT-VALUE})")
    Durability durability;

    @Option(names = {"--duration", "--seconds"}, defaultValue = "5s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "measured time (a plain number is seconds), after a warm-up "
            + "of a quarter of that (at most 1 s) (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        TxnBenchSettings settings;
        try {
            settings = new TxnBenchSettings(dir, workload, rows, theta, threads, engine, protocol, durability, seconds);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        TxnResult r = TxnBench.run(settings);
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? Json.line(r) : r.summary());
        out.flush();
        return 0;
    }

    static final class WorkloadConverter implements ITypeConverter<TxnWorkload> {
        @Override
        public TxnWorkload convert(String value) {
            try {
                return TxnWorkload.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class EngineConverter implements ITypeConverter<TxnEngineKind> {
        @Override
        public TxnEngineKind convert(String value) {
            try {
                return TxnEngineKind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class ProtocolConverter implements ITypeConverter<LogProtocol> {
        @Override
        public LogProtocol convert(String value) {
            try {
                return LogProtocol.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class DurabilityConverter implements ITypeConverter<Durability> {
        @Override
        public Durability convert(String value) {
            try {
                return Durability.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
