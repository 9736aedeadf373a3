package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;

/** Scans a table on every node of the cluster at once; stored values become SQL values as chunks arrive. */
public final class ClusterTableReader implements TableReader {
    private final ClusterSession cluster;

    public ClusterTableReader(ClusterSession cluster) {
        this.cluster = cluster;
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.storage();
        Schema schema = StoredRows.schema(cluster, name);
        StoredRows rows = StoredRows.of(schema, table);
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        try {
            // every node is asked, also one the catalog found silent: it answers now, or its scan times out naming it
            for (ClusterSpec.NodeSpec node : cluster.spec().nodes()) {
                parts.add(cluster.scan(node.id(), name, schema, chunk -> {
                    if (cancel.isCancelled()) {
                        return;
                    }
                    for (Object[] stored : chunk) {
                        sink.accept(rows.toSql(stored, needed));
                    }
                }));
            }
            CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException | RemoteException e) {
            // a node that cannot be reached fails at once, one that does not answer when its deadline passes
            parts.forEach(p -> p.cancel(false));
            throw Faults.of("scan of " + name + " failed: ", e);
        }
        cancel.check();
    }
}
