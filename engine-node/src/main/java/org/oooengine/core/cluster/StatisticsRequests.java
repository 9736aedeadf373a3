package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TreeReport;
import org.oooengine.core.wire.PayloadReader;

/**
 * What a node measures for the planner and the operator: its partitions' column statistics (kept,
 * or collected anew: analyze), how its B+trees have deteriorated, and the device under its data
 * directory (calibration).
 */
final class StatisticsRequests implements RequestFamily {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a tree health answer serves while its tables take no writes. */
    private static final Duration HEALTH_MAX_AGE = Duration.ofSeconds(30);

    private final NodeContext node;
    private final Map<String, HealthAnswer> healthAnswers = new ConcurrentHashMap<>();

    StatisticsRequests(NodeContext node) {
        this.node = node;
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.TABLE_STATISTICS, OpCode.TREE_HEALTH, OpCode.CALIBRATE_DISK);
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.reader();
        switch (request.op()) {
            case TABLE_STATISTICS -> {
                boolean analyze = r.hasMore() && (r.get() & Messages.STATISTICS_ANALYZE) != 0;
                String table = analyze && r.hasMore() ? r.getString() : null; // null: every table
                node.fragments().execute(() -> node.answer(out, () -> out.reply(statistics(analyze, table))));
            }
            case TREE_HEALTH -> {
                String table = r.hasMore() ? r.getString() : null; // null: every table
                node.fragments().execute(() -> node.answer(out, () -> out.reply(treeHealth(table))));
            }
            case CALIBRATE_DISK -> {
                long fileBytes = r.getLong();
                Duration perTest = Duration.ofNanos(r.getLong());
                int pageSize = r.getInt();
                // on the load thread: a measurement beside a load would measure neither
                node.loads().execute(() -> node.answer(out, () -> out.reply(JSON.writeValueAsBytes(
                        new DiskProbe(node.dataDir(), fileBytes, pageSize)
                                .run(perTest, DiskProbe.QUEUE_DEPTHS)))));
            }
            default -> throw new IllegalStateException(request.op() + " is not a statistics request");
        }
    }

    /**
     * This node's partition statistics, collected anew when asked (of {@code table} only, when
     * given: the others' kept) or when none were kept.
     */
    private byte[] statistics(boolean analyze, String table) throws Exception {
        Store s = node.store().require();
        StoreStatistics kept = StoreStatistics.read(s.dir()).orElse(null);
        StoreStatistics stats = analyze ? null : kept;
        if (stats == null) {
            stats = table == null || kept == null ? StatisticsCollector.collect(s)
                    : StatisticsCollector.collectAnew(s, kept, table);
            LOG.info("node {} collected statistics of {} tables in {} s", node.nodeId(), stats.tables().size(),
                    String.format("%.1f", stats.seconds()));
        }
        return JSON.writeValueAsBytes(stats);
    }

    /**
     * The health of the store's trees (of {@code table} only, when given). Measuring reads every
     * leaf, so an answer is kept for {@link #HEALTH_MAX_AGE} while its tables take no writes: a
     * client asking over and over does not keep the node reading its whole store.
     */
    private byte[] treeHealth(String table) throws Exception {
        Store st = node.store().require();
        long writes = st.tables().values().stream().filter(t -> table == null || t.name().equals(table))
                .mapToLong(Table::writes).sum();
        String key = table == null ? "" : table;
        HealthAnswer kept = healthAnswers.get(key);
        if (kept != null && kept.store() == st && kept.writes() == writes
                && System.nanoTime() - kept.at() < HEALTH_MAX_AGE.toNanos()) {
            return kept.json();
        }
        List<TreeReport> reports = new ArrayList<>();
        for (Table t : st.tables().values()) {
            if (table == null || t.name().equals(table)) {
                reports.addAll(TreeReport.of(t, TreeReport.RANGES));
            }
        }
        byte[] json = JSON.writeValueAsBytes(reports);
        if (healthAnswers.size() > 64) {
            healthAnswers.clear();
        }
        healthAnswers.put(key, new HealthAnswer(st, writes, System.nanoTime(), json));
        return json;
    }

    private record HealthAnswer(Store store, long writes, long at, byte[] json) {
    }
}
