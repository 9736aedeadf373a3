package org.oooengine.cluster.cli;

import io.trino.tpcds.Table;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.cluster.bench.Format;
import org.oooengine.core.cluster.ClusterLoader;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.core.tpcds.TpcdsSchema;
import picocli.CommandLine;

/** A TPC-DS load into a running cluster: progress on stderr, a summary on stdout. */
final class TpcdsLoad {
    private TpcdsLoad() {
    }

    static void runOnCluster(CommandLine cmd, TpcdsGenerator generator, Path clusterDir, int pageSize, double fillFactor,
                             int copies) throws Exception {
        Map<String, Table> byName = new LinkedHashMap<>();
        TpcdsSchema.tables().forEach(t -> byName.put(t.getName(), t));
        List<TableDefinition> defs = byName.values().stream().map(TpcdsSchema::definition).toList();
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("generator", "tpcds");
        source.put("library", "io.trino.tpcds");
        source.put("scaleFactor", generator.scaleFactor());
        Progress progress = Progress.of(cmd.getCommandSpec());
        long t0 = System.nanoTime();
        try (ClusterSession session = ClusterSession.open(clusterDir, "loader", NodeDaemon.DEFAULT_TIMEOUT)) {
            if (session.stats().values().stream().anyMatch(st -> st.path("rows").has("lineitem"))) {
                progress.note("the nodes hold TPC-H: its customer table is replaced by TPC-DS's (both name it customer); "
                        + "its other tables stay");
            }
            try {
                new ClusterLoader(session.peers(), copies).loadGenerated(defs, def -> generator.rows(byName.get(def.name())),
                        def -> generator.expectedRows(byName.get(def.name())), pageSize, fillFactor, source, progress);
            } catch (Throwable t) {
                progress.abandon();
                throw t;
            }
            progress.close();
            cmd.getOut().printf("loaded TPC-DS SF %s (%d tables) into the cluster in %s in %.1f s, each partition on %d "
                    + "node(s)%n", Format.number(generator.scaleFactor()), defs.size(), clusterDir,
                    (System.nanoTime() - t0) / 1e9, copies);
            session.stats().forEach((node, st) -> cmd.getOut().printf("  %s: %s rows of store_sales, %s of catalog_sales, "
                            + "%s of web_sales%n", node, Format.count(st.get("rows").path("store_sales").asLong()),
                    Format.count(st.get("rows").path("catalog_sales").asLong()),
                    Format.count(st.get("rows").path("web_sales").asLong())));
        }
        cmd.getOut().flush();
    }
}
