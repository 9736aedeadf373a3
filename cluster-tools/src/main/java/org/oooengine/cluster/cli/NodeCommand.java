package org.oooengine.cluster.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.cluster.launch.PidFile;
import org.oooengine.core.cluster.GcWatchdog;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.cluster.NodeService;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.NodeServer;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.units.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ooo node}: one node daemon in the foreground, until SIGTERM or Ctrl-C. */
@Command(name = "node", mixinStandardHelpOptions = true,
        description = {"Run one cluster node: open its partitions and serve them to the other members.",
                "Usually started by 'ooo cluster start'; runs until stopped (SIGTERM, Ctrl-C). Its pid goes to "
                        + "<cluster-dir>/run/<node>.pid, so that 'ooo cluster status' and 'ooo cluster stop' find it.",
                "Refuses to run as root unless given --allow-root."})
final class NodeCommand implements Callable<Integer> {
    private static final Logger LOG = LogManager.getLogger(NodeCommand.class);

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    RootCheck root;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "directory holding cluster.json")
    Path cluster;

    @Option(names = "--id", required = true, paramLabel = "<node>", description = "this node's name in cluster.json")
    String id;

    /** The nodes' handshake deadline as the flags' default value. */
    static final String HANDSHAKE_DEFAULT = NodeServer.HANDSHAKE_DEADLINE_MS + "ms";

    @Option(names = {"--buffer-pool", "--buffer-pool-mb"}, defaultValue = "64m", paramLabel = "SIZE", converter = Units.MiB.class,
            description = "buffer pool size; a plain number is MiB (default: ${DEFAULT-VALUE})")
    long bufferPool;

    @Option(names = "--io-threads", defaultValue = "256", paramLabel = "N",
            description = "threads issuing reads: the deepest disk queue this node can build (default: ${DEFAULT-VALUE})")
    int ioThreads;

    @Option(names = "--buffered-io", description = "read through the OS page cache instead of direct I/O")
    boolean bufferedIo;

    @Option(names = {"--timeout", "--timeout-ms"}, defaultValue = "10s", paramLabel = "DURATION", converter = Units.Millis.class,
            description = "how long a request to another node may take before the query fails; a plain number is "
                    + "milliseconds (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = {"--answer-delay", "--answer-delay-us"}, defaultValue = "0", paramLabel = "DURATION",
            converter = Units.Micros.class,
            description = "hold every answer back this long, e.g. 200us: an emulated network round trip for benchmarks "
                    + "on one machine; a plain number is microseconds (default: ${DEFAULT-VALUE})")
    Duration answerDelay;

    @Option(names = {"--handshake-timeout", "--handshake-timeout-ms"}, defaultValue = HANDSHAKE_DEFAULT,
            paramLabel = "DURATION", converter = Units.Millis.class,
            description = "close a connection that has not proved the cluster secret within this time; a plain number "
                    + "is milliseconds (default: ${DEFAULT-VALUE})")
    Duration handshakeTimeout;

    @Option(names = {"--query-max-memory", "--query-max-memory-mb"}, defaultValue = "0", paramLabel = "SIZE",
            converter = Units.MiB.class,
            description = "the most memory this node grants the operators of one query's request, whatever the "
                    + "coordinator asks; a plain number is MiB (0, the default: half the heap)")
    long queryMaxMemory;

    @Option(names = {"--spill-max", "--spill-max-mb"}, defaultValue = "0", paramLabel = "SIZE", converter = Units.MiB.class,
            description = "the most disk the spill files of all this node's queries may take together; a query "
                    + "that would spill past it fails; a plain number is MiB (0, the default: half the space free on "
                    + "the data directory's file system when the node starts)")
    long spillMax;

    @Option(names = {"--statements-memory", "--statements-memory-mb"}, defaultValue = "0", paramLabel = "SIZE",
            converter = Units.MiB.class,
            description = "what the statements running on this node may hold together: their joins, groups, sorts and "
                    + "the rows sent ahead for them; a plain number is MiB; 0: 60%% of the heap (default: ${DEFAULT-VALUE})")
    long statementsMemory;

    @Option(names = "--max-statements", defaultValue = "" + NodeService.Caps.DEFAULT_MAX_STATEMENTS, paramLabel = "N",
            description = "statements (their fragments on this node) that run at once; more wait their turn, as do "
                    + "statements that come while those running hold 3/4 of --statements-memory (default: ${DEFAULT-VALUE})")
    int maxStatements;

    @Option(names = {"--admission-wait", "--admission-wait-ms"}, defaultValue = "60s", paramLabel = "DURATION",
            converter = Units.Millis.class,
            description = "how long a statement waits for its turn before it fails; a plain number is milliseconds "
                    + "(default: ${DEFAULT-VALUE})")
    Duration admissionWait;

    @Option(names = "--file-cache", defaultValue = "0", paramLabel = "SIZE", converter = Units.MiB.class,
            description = "the most disk this node keeps the columns of files' splits it read in (under its data "
                    + "directory), transcoded for reading again; a plain number is MiB (0, the default: a tenth of the "
                    + "space free on the data directory's file system when the node starts)")
    long fileCache;

    @Option(names = "--no-file-cache", description = "keep nothing of the files read: each scan decodes them again")
    boolean noFileCache;

    @Override
    public Integer call() throws Exception {
        if (noFileCache && fileCache > 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--file-cache and --no-file-cache contradict each other: give one");
        }
        root.check("ooo node", "a cluster node");
        if (maxStatements < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-statements must be at least 1");
        }
        if (bufferPool < Sizes.MIB || ioThreads < 1 || timeout.toMillis() < 1 || handshakeTimeout.toMillis() < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--buffer-pool must be at least 1m, --io-threads at least 1, --timeout and --handshake-timeout at "
                            + "least 1ms");
        }
        StoreOptions options = StoreOptions.defaults().withBufferPoolBytes(bufferPool)
                .withIoThreads(ioThreads).withDirectIo(!bufferedIo);
        NodeDaemon daemon = NodeDaemon.start(cluster, id, options, timeout, answerDelay, handshakeTimeout,
                new NodeService.Caps(queryMaxMemory, spillMax, statementsMemory, maxStatements, admissionWait,
                        noFileCache ? -1 : fileCache));
        // Written once the port is ours: a second 'ooo node' for a running node fails above and
        // leaves the first one's pid file alone.
        PidFile pidFile = new PidFile(cluster.toAbsolutePath().normalize(), id);
        recordPid(pidFile);
        // A heap so full that collections follow each other with little work between ends this process
        // (-XX:+ExitOnOutOfMemoryError ends it on an OutOfMemoryError): the requests it holds are told
        // why, naming this node, and its supervisor restarts it.
        Path gcReport = pidFile.path().resolveSibling(id + ".gc");
        GcWatchdog.start("node " + id, gcReport,
                why -> daemon.failOpenRequests(ErrorCode.OUT_OF_MEMORY, why + "; it ends now"));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemon.close();
            try {
                pidFile.deleteIfNames(ProcessHandle.current());
                java.nio.file.Files.deleteIfExists(gcReport);
            } catch (java.io.IOException e) {
                LOG.warn("cannot remove {}: {}", pidFile.path(), e.toString());
            }
            stopped.countDown();
        }, "ooo-node-shutdown"));
        spec.commandLine().getErr().printf("node %s serving on port %d%n", id, daemon.port());
        spec.commandLine().getErr().flush();
        stopped.await();
        return 0;
    }

    /** Makes this node known to 'ooo cluster status' and 'stop', however it was started. */
    private static void recordPid(PidFile pidFile) {
        try {
            pidFile.write(ProcessHandle.current());
        } catch (java.io.IOException e) {
            // The node serves all the same; only the launcher's commands will not see it.
            LOG.warn("cannot write {} ({}); 'ooo cluster status' and 'stop' will not see this node", pidFile.path(),
                    e.toString());
        }
    }
}
