package org.oooengine.hive.engine;

import java.util.BitSet;
import java.util.function.Consumer;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.mapreduce.JoinJobs;

/**
 * Reads a table with a MapReduce scan job — a map task per partition, placed on the node that
 * owns it — and streams the rows the job wrote back to the statement. Filters, projections and
 * everything above them run on the coordinator, as in daemon mode.
 */
final class MapReduceTableReader implements TableReader {
    private final ClusterSession cluster;
    private final MapReduceJobs jobs;

    MapReduceTableReader(ClusterSession cluster, MapReduceJobs jobs) {
        this.cluster = cluster;
        this.jobs = jobs;
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.storage();
        StoredRows rows = StoredRows.of(StoredRows.schema(cluster, name), table);
        jobs.run("scan of " + name, cancel, (conf, spec, secret, output) -> JoinJobs.scan(conf, spec, secret, name, output),
                stored -> sink.accept(rows.toSql(stored, needed)));
    }
}
