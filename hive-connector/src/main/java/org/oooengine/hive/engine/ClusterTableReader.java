package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.net.RemoteException;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;

/**
 * Reads a table on every node of the cluster at once: each node runs the pipeline over its
 * partition (at least the scan: it decodes the needed columns into SQL values) and sends what
 * comes out. A cancelled statement stops the nodes' work.
 */
public final class ClusterTableReader implements TableReader {
    private static final long CANCEL_POLL_MILLIS = 100;

    private final ClusterSession cluster;

    public ClusterTableReader(ClusterSession cluster) {
        this.cluster = cluster;
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        pipeline(table, new ScanPipeline(table.storage(), table.columns().size(), needed, List.of()), cancel, sink);
    }

    @Override
    public void pipeline(TableInfo table, ScanPipeline pipeline, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.storage();
        StoredRows.schema(cluster, name); // a table the nodes do not agree on fails here, by name
        List<CompletableFuture<?>> parts = new ArrayList<>();
        try {
            // every node is asked, also one the catalog found silent: it answers now, or its part times out naming it
            for (ClusterSpec.NodeSpec node : cluster.spec().nodes()) {
                parts.add(cluster.pipeline(node.id(), pipeline, rows -> {
                    if (!cancel.isCancelled()) {
                        rows.forEach(sink);
                    }
                }));
            }
            awaitOrCancel(CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)), cancel);
        } catch (CompletionException | RemoteException e) {
            // a node that cannot be reached fails at once, one that does not answer when its deadline passes
            throw Faults.of("scan of " + name + " failed: ", e);
        } finally {
            parts.forEach(p -> p.cancel(false)); // no-op for finished parts; stops the others on the nodes
        }
        cancel.check();
    }

    private static void awaitOrCancel(CompletableFuture<Void> all, Cancellation cancel) {
        while (true) {
            try {
                all.get(CANCEL_POLL_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                cancel.check();
            } catch (ExecutionException e) {
                throw new CompletionException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel.check();
                throw new CompletionException(e);
            }
        }
    }
}
