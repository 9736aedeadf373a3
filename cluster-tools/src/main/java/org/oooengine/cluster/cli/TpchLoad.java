package org.oooengine.cluster.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.oooengine.cluster.bench.Format;
import org.oooengine.core.cluster.ClusterLoader;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.tpch.TpchLoader;
import picocli.CommandLine;

/** A TPC-H load with progress on stderr and a summary on stdout, as {@code load tpch} and {@code quickstart} run it. */
final class TpchLoad {
    static final int DEFAULT_PAGE_SIZE = 8192;

    private TpchLoad() {
    }

    static StoreManifest run(CommandLine cmd, double scaleFactor, Path dir, int pageSize, double fillFactor,
                             boolean replace) throws Exception {
        Progress progress = Progress.of(cmd.getCommandSpec());
        StoreManifest m;
        try {
            m = new TpchLoader(scaleFactor, pageSize, fillFactor).load(dir, replace, progress);
        } catch (Throwable t) {
            progress.abandon();
            throw t;
        }
        progress.close();
        long rows = m.tables().stream().mapToLong(StoreManifest.TableMeta::rows).sum();
        cmd.getOut().printf("loaded TPC-H SF %s into %s: %d tables, %s rows, %s on disk, %.1f s%n",
                Format.number(scaleFactor), dir, m.tables().size(), Format.count(rows), Format.mebibytes(sizeOnDisk(dir)),
                m.loadSeconds());
        cmd.getOut().flush();
        return m;
    }

    static void runOnCluster(CommandLine cmd, double scaleFactor, Path clusterDir, int pageSize, double fillFactor,
                             int copies) throws Exception {
        TpchLoader generator = new TpchLoader(scaleFactor, pageSize, fillFactor);
        Progress progress = Progress.of(cmd.getCommandSpec());
        long t0 = System.nanoTime();
        try (ClusterSession session = ClusterSession.open(clusterDir, "loader", NodeDaemon.DEFAULT_TIMEOUT)) {
            try {
                new ClusterLoader(session.peers(), copies).loadTpch(generator, progress);
            } catch (Throwable t) {
                progress.abandon();
                throw t;
            }
            progress.close();
            cmd.getOut().printf("loaded TPC-H SF %s into the cluster in %s in %.1f s, each partition on %d node(s)%n",
                    Format.number(scaleFactor), clusterDir, (System.nanoTime() - t0) / 1e9, copies);
            session.stats().forEach((node, st) -> cmd.getOut().printf("  %s: %s rows of lineitem, %s of orders, %s of part%n",
                    node, Format.count(st.get("rows").get("lineitem").asLong()),
                    Format.count(st.get("rows").get("orders").asLong()), Format.count(st.get("rows").get("part").asLong())));
        }
        cmd.getOut().flush();
    }

    private static long sizeOnDisk(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            long bytes = 0;
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                bytes += Files.size(f);
            }
            return bytes;
        }
    }
}
