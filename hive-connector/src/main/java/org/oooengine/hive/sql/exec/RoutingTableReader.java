package org.oooengine.hive.sql.exec;

import org.oooengine.core.cluster.FileOutput;
import org.oooengine.core.cluster.QueryLimits;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Reads the tables {@code routed} picks with one reader and every other table with another: e.g.
 * tables held in files with the file reader, or transactional tables within the statement's
 * transaction, and the rest on the cluster's nodes.
 */
public final class RoutingTableReader implements TableReader {
    private final Predicate<TableInfo> routed;
    private final TableReader routedReader;
    private final TableReader others;

    public RoutingTableReader(Predicate<TableInfo> routed, TableReader routedReader, TableReader others) {
        this.routed = routed;
        this.routedReader = routedReader;
        this.others = others;
    }

    @Override
    public TableReader knowing(List<TableInfo> tables) {
        return new RoutingTableReader(routed, routedReader.knowing(tables), others.knowing(tables));
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
    public NodeFigures pipeline(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                Cancellation cancel, Consumer<Object[]> sink) {
        return readerOf(table, shuffles).pipeline(table, pipeline, shuffles, nodeLimits, cancel, sink);
    }

    @Override
    public NodeFigures pipelineByNode(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                      Cancellation cancel, FileOutput output, Function<String, Consumer<Object[]>> sinkOfNode) {
        return readerOf(table, shuffles).pipelineByNode(table, pipeline, shuffles, nodeLimits, cancel, output, sinkOfNode);
    }

    @Override
    public boolean writesOnNodes(TableInfo table) {
        return readerOf(table).writesOnNodes(table);
    }

    /** Both sides' rows are read by one reader: the routed one when either side is routed. */
    @Override
    public NodeFigures shuffledJoin(ShuffledSide probe, ShuffledSide build, List<ShuffledSide> moreBuilds, JoinKind kind,
                                    Expr residual, List<PipelineStep> after, QueryLimits nodeLimits, Cancellation cancel,
                                    FileOutput output, Consumer<Object[]> sink) {
        boolean anyRouted = routed.test(build.table()) || moreBuilds.stream().anyMatch(b -> routed.test(b.table()));
        TableReader reader = anyRouted ? routedReader : readerOf(probe.table());
        return reader.shuffledJoin(probe, build, moreBuilds, kind, residual, after, nodeLimits, cancel, output, sink);
    }

    @Override
    public NodeFigures shuffledSteps(ShuffledSide rows, List<PipelineStep> steps, QueryLimits nodeLimits,
                                     Cancellation cancel, FileOutput output, Consumer<Object[]> sink) {
        return readerOf(rows.table()).shuffledSteps(rows, steps, nodeLimits, cancel, output, sink);
    }

    @Override
    public boolean mergesGroupsOnNodes(TableInfo table) {
        return readerOf(table).mergesGroupsOnNodes(table);
    }

    @Override
    public NodeFigures mergeGroups(TableInfo table, ScanPipeline producer, int keyCount, List<AggregateCall> aggregates,
                                   QueryLimits nodeLimits, Cancellation cancel, Consumer<Object[]> sink) {
        return readerOf(table).mergeGroups(table, producer, keyCount, aggregates, nodeLimits, cancel, sink);
    }

    /** The reader of a pipeline over {@code table} with rows shuffled to it: the routed one when any of their tables is routed. */
    private TableReader readerOf(TableInfo table, List<Shuffle> shuffles) {
        return shuffles.stream().anyMatch(s -> routed.test(s.table())) ? routedReader : readerOf(table);
    }

    private TableReader readerOf(TableInfo table) {
        return routed.test(table) ? routedReader : others;
    }
}
