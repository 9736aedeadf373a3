package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.store.Store;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * How a node is (its health): uptime, CPU, memory, spill and statements, the tables it serves and
 * its store's manifest; asked with a flag, it first empties its buffer pool (cold-cache runs). And
 * a coordinator's heartbeat, answered with the node's load and the names of the tables it stores.
 * Answered at once, on the network thread: coordinators ask it to tell a live node from a lost one.
 */
final class NodeStatusRequests implements RequestFamily {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The machine this node runs on, as its running kernel's boot id: nodes with addresses of their
     * own (network-namespace hosts, several addresses of one host) that share cores and devices
     * report the same one. Absent where the kernel does not tell (not Linux).
     */
    private static final Optional<String> MACHINE = machine();

    private final NodeContext node;
    private final NodeQueries queries;
    private final TransactionService transactions;
    /** How the run before this one ended, when its supervisor started this one after it. */
    private final Optional<PreviousEnd> previousEnd;
    private final long startedAt = System.currentTimeMillis();
    /** The columns of files' splits the node keeps; null: none kept. */
    private final SplitCache fileCache;

    NodeStatusRequests(NodeContext node, NodeQueries queries, TransactionService transactions,
                       Optional<PreviousEnd> previousEnd, SplitCache fileCache) {
        this.node = node;
        this.transactions = transactions;
        this.queries = queries;
        this.previousEnd = previousEnd;
        this.fileCache = fileCache;
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.PARTITION_STATS, OpCode.HEARTBEAT);
    }

    @Override
    public void handle(Frame request, Responder out) {
        if (request.op() == OpCode.HEARTBEAT) {
            PayloadWriter w = new PayloadWriter(64).putVarInt(queries.admission.running())
                    .putVarInt(queries.admission.waiting()).putVarInt(queries.pipelinesRunning.get());
            Store st = node.store().current();
            List<String> held = new java.util.ArrayList<>(st == null ? List.of() : st.tables().keySet());
            held.addAll(transactions.tableNames());
            w.putVarInt(held.size());
            held.forEach(w::putString);
            out.reply(w.toByteArray());
            return;
        }
        PayloadReader r = request.reader();
        Store served = node.store().current();
        if (r.hasMore() && (r.get() & Messages.STATS_DROP_CACHE) != 0 && served != null) {
            served.bufferPool().clear();
        }
        out.reply(stats());
    }

    private byte[] stats() {
        Map<String, Object> s = new LinkedHashMap<>();
        // first, so that what answering costs counts after it: a caller times work between two of these
        s.put("processCpuSeconds", processCpuSeconds());
        s.put("cores", Runtime.getRuntime().availableProcessors());
        MACHINE.ifPresent(m -> s.put("machine", m));
        s.put("node", node.nodeId());
        s.put("uptimeSeconds", (System.currentTimeMillis() - startedAt) / 1000.0);
        s.put("pipelinesRunning", queries.pipelinesRunning.get());
        s.put("chunksStaged", queries.chunksStaged.get());
        s.put("bytesSpilled", queries.bytesSpilled.get());
        s.put("spillBytesInUse", queries.spillSpace.used());
        s.put("spillMaxBytes", queries.spillSpace.maxBytes());
        s.put("queryMaxMemory", queries.queryMaxMemory);
        // The share of the last half minute this process spent in garbage collection (its watchdog ends
        // it at GcWatchdog.LIMIT); absent in a process that runs no watchdog (an in-process test node).
        GcWatchdog.running().ifPresent(w -> {
            s.put("gcShare", Math.round(w.share() * 1000) / 1000.0);
            s.put("gcWindowSeconds", w.observed().toSeconds());
        });
        // How the run before this one ended: what a coordinator that lost its connection to this node asks.
        previousEnd.ifPresent(e -> s.put(PreviousEnd.STATS_FIELD, e.toStats(java.time.Instant.now())));
        s.put("statementMemoryBytes", queries.memory.used());
        s.put("statementMemoryLimitBytes", queries.memory.limit());
        s.put("statementsRunning", queries.admission.running());
        s.put("statementsWaiting", queries.admission.waiting());
        if (fileCache != null) {
            s.put("fileCacheBytes", fileCache.bytes());
            s.put("fileCacheMaxBytes", fileCache.maxBytes());
            s.put("fileCacheHits", fileCache.hits()); // reads of a split's columns all kept
            s.put("fileCacheMisses", fileCache.misses());
        }
        Store st = node.store().current();
        s.put("loaded", st != null);
        if (st != null) {
            Map<String, Object> tables = new LinkedHashMap<>();
            st.tables().forEach((name, t) -> tables.put(name, t.rows()));
            s.put("rows", tables);
            s.put("pageReads", st.ioStats().pageReads());
            s.put("bufferPoolPages", st.bufferPool().capacityPages());
            s.put("manifest", st.manifest());
        }
        try {
            return JSON.writeValueAsBytes(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The running kernel's boot id; network namespaces share it. */
    private static Optional<String> machine() {
        try {
            return Optional.of(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip())
                    .filter(id -> !id.isEmpty());
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** CPU time of this node's process so far, user and system; -1 where the JVM cannot tell. */
    private static double processCpuSeconds() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() / 1e9 : -1;
    }
}
