package org.oooengine.hive.files;

import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;

/** Reads a table held in files with the file reader, any other (a cluster table) with the cluster's. */
public final class RoutingTableReader implements TableReader {
    private final TableReader cluster;
    private final TableReader files;

    public RoutingTableReader(TableReader cluster, TableReader files) {
        this.cluster = cluster;
        this.files = files;
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        readerOf(table).scan(table, needed, cancel, sink);
    }

    @Override
    public void pipeline(TableInfo table, ScanPipeline pipeline, Cancellation cancel, Consumer<Object[]> sink) {
        readerOf(table).pipeline(table, pipeline, cancel, sink);
    }

    @Override
    public NodeFigures pipeline(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, long memoryPerNode,
                                Cancellation cancel, Consumer<Object[]> sink) {
        return readerOf(table).pipeline(table, pipeline, shuffles, memoryPerNode, cancel, sink);
    }

    @Override
    public boolean mergesGroupsOnNodes(TableInfo table) {
        return readerOf(table).mergesGroupsOnNodes(table);
    }

    @Override
    public NodeFigures mergeGroups(TableInfo table, ScanPipeline producer, int keyCount,
                                   List<org.oooengine.core.sql.expr.AggregateCall> aggregates, long memoryPerNode,
                                   Cancellation cancel, Consumer<Object[]> sink) {
        return readerOf(table).mergeGroups(table, producer, keyCount, aggregates, memoryPerNode, cancel, sink);
    }

    private TableReader readerOf(TableInfo table) {
        return FileTableReader.holds(table) ? files : cluster;
    }
}
