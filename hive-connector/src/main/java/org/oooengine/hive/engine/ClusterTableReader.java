package org.oooengine.hive.engine;

import org.oooengine.core.cluster.QueryLimits;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.FileOutput;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.HedgedPartitions;
import org.oooengine.core.cluster.ServingNodes;
import org.oooengine.core.cluster.TransactionalReads;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.RowListSink;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.net.RemoteException;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.files.SplitScheduling;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;
import org.oooengine.hive.sql.exec.TableReader;

/**
 * Reads a table on every node of the cluster at once: each node runs the pipeline over its
 * partition (at least the scan: it decodes the needed columns into SQL values) and sends what
 * comes out. A cancelled statement stops the nodes' work. Transactional tables are read on the
 * nodes too, within the transaction {@link Reads} names.
 */
public final class ClusterTableReader implements TableReader {
    private static final long CANCEL_POLL_MILLIS = 100;

    /** The transaction the transactional tables among those a request reads are read in. */
    public interface Reads {
        /** No transaction: a statement that reads no transactional table. */
        Reads NONE = tables -> TransactionalReads.NONE;

        TransactionalReads of(List<TableInfo> tables);

        /** Counts {@code node} among the transaction's participants: a part that reads within it starts there. */
        default void readOn(String node) {
        }
    }

    private final ClusterSession cluster;
    private final Reads reads;
    /** The splits of a table held in files, assigned to the cluster's nodes; none when no catalog holds such tables. */
    private final Optional<FileTableReader> files;
    private final SplitScheduling scheduling;
    /** Tables in files that joins build from on each node in slices cut as the scanned table's, by storage name. */
    private final Map<String, TableInfo> slicedAlike;

    public ClusterTableReader(ClusterSession cluster) {
        this(cluster, Reads.NONE, Optional.empty(), SplitScheduling.DEFAULT);
    }

    public ClusterTableReader(ClusterSession cluster, Reads reads) {
        this(cluster, reads, Optional.empty(), SplitScheduling.DEFAULT);
    }

    /** Reads the tables {@code files} holds from their files' splits, on the nodes too, shared out as {@code scheduling} says. */
    public ClusterTableReader(ClusterSession cluster, Reads reads, Optional<FileTableReader> files,
                              SplitScheduling scheduling) {
        this(cluster, reads, files, scheduling, Map.of());
    }

    private ClusterTableReader(ClusterSession cluster, Reads reads, Optional<FileTableReader> files,
                               SplitScheduling scheduling, Map<String, TableInfo> slicedAlike) {
        this.cluster = cluster;
        this.reads = reads;
        this.files = files;
        this.scheduling = scheduling;
        this.slicedAlike = slicedAlike;
    }

    @Override
    public TableReader knowing(List<TableInfo> tables) {
        Map<String, TableInfo> byStorage = new HashMap<>();
        tables.forEach(t -> byStorage.put(t.storage(), t));
        return new ClusterTableReader(cluster, reads, files, scheduling, Map.copyOf(byStorage));
    }

    /**
     * Fails, naming the table, when the nodes do not agree on its layout. A transactional table's
     * rows are not in the nodes' stores, nor are a table's held in files: the catalog's layout is the one.
     */
    private void requireAgreedLayout(TableInfo table) {
        if (!DdlAnalyzer.transactional(table) && !FileTableReader.holds(table)) {
            StoredRows.schema(cluster, table.storage());
        }
    }

    /**
     * The splits {@code pipeline} reads of {@code table} when it is held in files, each assigned to a
     * node, without the partitions the pipeline's leading filters rule out; none otherwise. Each
     * request gets its own: two scans of one table may keep different partitions. A pipeline that
     * needs a column's equal values on one node ({@link ScanPipeline#slicedBy}) has each node read
     * a slice of them.
     */
    private FileReads filesOf(TableInfo table, ScanPipeline pipeline) {
        if (!FileTableReader.holds(table)) {
            return FileReads.NONE;
        }
        FileTableReader reader = files.orElseThrow(() -> new IllegalStateException("table " + table.name()
                + " is held in files, which this reader was given no way to list"));
        int rangeColumn = rangeColumn(pipeline);
        if (pipeline.slicedBy() >= 0) {
            SliceBuilds builds = SliceBuilds.of(table, pipeline);
            // a join building from the same slice of the table reads it too: its partitions are not the scan's to prune
            Expr kept = builds.own() ? null : leadingFilter(pipeline);
            List<FileTableReader.SlicedAlike> alike = new ArrayList<>();
            // a table read by several joins keeps every partition: one read's filter is not the others'
            builds.others().forEach((storage, built) -> alike.add(new FileTableReader.SlicedAlike(tableAlike(storage),
                    built.size() == 1 ? leadingFilter(built.get(0)) : null, built.get(0).slicedBy())));
            Map<String, FileReads.Scan> scans = new HashMap<>();
            reader.onNodesBySlices(table, cluster.spec().nodes(), kept, pipeline.slicedBy(), rangeColumn, alike)
                    .forEach((storage, scan) -> scans.put(storage, scan.cached(scheduling.cached())));
            return new FileReads(scans);
        }
        return new FileReads(Map.of(table.storage(), (rangeColumn < 0
                ? reader.onNodes(table, cluster.spec().nodes(), leadingFilter(pipeline), scheduling)
                : reader.onNodesByRanges(table, cluster.spec().nodes(), leadingFilter(pipeline), scheduling, rangeColumn))
                .cached(scheduling.cached())));
    }

    /**
     * The column of the pipeline's table by whose ranges its joins' build rows are routed
     * ({@link JoinBuild.Routed#byRanges}), or -1: its splits are then read where they are assigned.
     */
    private static int rangeColumn(ScanPipeline pipeline) {
        Set<Integer> columns = new TreeSet<>();
        pipeline.withBuilds(build -> {
            if (build instanceof JoinBuild.Routed r && r.byRanges()) {
                columns.add(r.rangeColumn());
            }
            return build;
        });
        if (columns.size() > 1) {
            throw new IllegalStateException("rows routed by the ranges of several columns of one scan: " + columns);
        }
        return columns.isEmpty() ? -1 : columns.iterator().next();
    }

    /** A table in files a join builds from in slices cut alike, as the plan told this reader ({@link #knowing}). */
    private TableInfo tableAlike(String storage) {
        TableInfo t = slicedAlike.get(storage);
        if (t == null) {
            throw new IllegalStateException("a join builds from " + storage + " in slices, a table this reader was not told of");
        }
        return t;
    }

    /**
     * What the joins of a pipeline read in slices of {@code table}'s values build from on each
     * node: whether from the same slice of that table ({@code own}), and the pipelines that read
     * slices of other tables in files, cut alike, by table.
     */
    private record SliceBuilds(boolean own, Map<String, List<ScanPipeline>> others) {
        static SliceBuilds of(TableInfo table, ScanPipeline pipeline) {
            boolean[] own = {false};
            Map<String, List<ScanPipeline>> others = new LinkedHashMap<>();
            walk(table, pipeline, pipeline.slicedBy(), own, others);
            return new SliceBuilds(own[0], others);
        }

        private static void walk(TableInfo table, ScanPipeline pipeline, int slicedBy, boolean[] own,
                                 Map<String, List<ScanPipeline>> others) {
            for (PipelineStep step : pipeline.steps()) {
                if (step instanceof PipelineStep.HashJoin j && j.build() instanceof JoinBuild.Local local) {
                    ScanPipeline built = local.pipeline();
                    if (built.slicedBy() >= 0) {
                        if (!built.table().equals(table.storage())) {
                            others.computeIfAbsent(built.table(), t -> new ArrayList<>()).add(built);
                        } else if (built.slicedBy() != slicedBy) {
                            throw new IllegalStateException("a join of " + table.name() + " read in slices builds from "
                                    + "it in slices of another column: not planned");
                        } else {
                            own[0] = true;
                        }
                    }
                    walk(table, built, slicedBy, own, others);
                }
            }
        }
    }

    /** The conditions a pipeline's rows meet before anything else changes them, over the table's columns; null: none. */
    private static Expr leadingFilter(ScanPipeline pipeline) {
        List<Expr> conditions = new ArrayList<>();
        for (PipelineStep step : pipeline.steps()) {
            if (!(step instanceof PipelineStep.Filter f)) {
                break;
            }
            conditions.add(f.condition());
        }
        return conditions.isEmpty() ? null : org.oooengine.core.sql.expr.Exprs.and(conditions);
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        pipeline(table, new ScanPipeline(table.storage(), table.columns().size(), needed, List.of()), cancel, sink);
    }

    @Override
    public void pipeline(TableInfo table, ScanPipeline pipeline, Cancellation cancel, Consumer<Object[]> sink) {
        pipeline(table, pipeline, List.of(), QueryLimits.DEFAULTS, cancel, sink);
    }

    /**
     * Runs {@code pipeline} on every node with its shuffles: each shuffle's producing pipeline runs
     * on every node too, sending its rows to the nodes that own their keys of this table; the
     * pipeline's join on each node builds from what it was sent, once every producer is done. A
     * failure anywhere (a producer, a receiver, a lost node) fails the statement naming it and
     * stops the rest.
     */
    @Override
    public NodeFigures pipeline(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                Cancellation cancel, Consumer<Object[]> sink) {
        return pipelineByNode(table, pipeline, shuffles, nodeLimits, cancel, null, node -> sink);
    }

    @Override
    public NodeFigures pipelineByNode(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                      Cancellation cancel, FileOutput output,
                                      Function<String, Consumer<Object[]>> sinkOfNode) {
        if (!shuffles.isEmpty()) {
            return shuffled(table, pipeline, shuffles, nodeLimits, cancel, output, sinkOfNode);
        }
        String name = table.storage();
        requireAgreedLayout(table);
        TransactionalReads read = reads.of(List.of(table));
        FileReads inFiles = filesOf(table, pipeline);
        List<ServingNodes.Served> served = servedParts(table);
        // the copies the table was created with where it says (a table created a moment ago is in no heartbeat yet)
        if (read.transaction() == null && served.stream().allMatch(part -> part.partition() >= 0)
                && TransactionalTableLayout.storedCopies(table, cluster.serving()) > 1) {
            return hedged(name, served, pipeline, nodeLimits, inFiles, cancel, output, sinkOfNode);
        }
        List<CompletableFuture<PartitionPipeline.Summary>> nodeParts = new ArrayList<>();
        // a node that cannot be reached fails at once, one that does not answer when its deadline passes
        runTogether(cancel, sinkOfNode, failure("scan of " + name, output), (rowsOf, parts) -> {
            // every partition is asked for, also of a node the catalog found silent: it answers now, or its part times out naming it
            for (ServingNodes.Served part : served) {
                nodeParts.add(pipelineOn(part, pipeline, nodeLimits, read, inFiles, output, rowsOf.apply(runName(part))));
            }
            parts.addAll(nodeParts);
        });
        return figures(nodesOf(served), nodeParts);
    }

    /**
     * Every table this reader reads is read on the nodes. A part read hedged ({@link #hedged})
     * writes its files twice where it runs twice, but only the records of the run whose rows
     * count arrive: the other run's files stay in the statement's staging directory, deleted with it.
     */
    @Override
    public boolean writesOnNodes(TableInfo table) {
        return true;
    }

    /** What a statement's failure on the nodes says: what failed, and whether it was writing its rows into files. */
    private static String failure(String what, FileOutput output) {
        return (output == null ? what : "writing the rows of a " + what + " into files") + " failed: ";
    }

    /**
     * The pipeline over each partition of a table kept with copies, read outside a transaction: a
     * run that loses its node, or is late, runs again on another holder ({@link HedgedPartitions}).
     */
    private NodeFigures hedged(String name, List<ServingNodes.Served> served, ScanPipeline pipeline, QueryLimits nodeLimits,
                               FileReads inFiles, Cancellation cancel, FileOutput output,
                               Function<String, Consumer<Object[]>> sinkOfNode) {
        List<CompletableFuture<HedgedPartitions.Ran>> runs = new ArrayList<>();
        runTogether(cancel, sinkOfNode, failure("scan of " + name, output), (rowsOf, parts) -> {
            HedgedPartitions started = HedgedPartitions.start(cluster.serving(), name, served,
                    (part, rows) -> cluster.pipeline(part.node(), part.partition(), pipeline, nodeLimits,
                            TransactionalReads.NONE, inFiles, output, rows),
                    part -> rowsOf.apply(runName(part)), cluster.hedging());
            runs.addAll(started.runs());
            parts.addAll(runs);
        });
        List<ServingNodes.Served> ran = runs.stream().map(r -> r.join().part()).toList();
        return figures(nodesOf(ran), runs.stream().map(r -> r.thenApply(HedgedPartitions.Ran::summary)).toList());
    }

    /**
     * Where a pipeline over {@code table} runs: over each partition of a table in the nodes' stores,
     * or of a transactional table kept on as many nodes, on the node serving it now (its owner, or
     * a replica's holder where the owner is down); on every node, over what it holds, for a table
     * held in files, a transactional table kept once or read from its analytical copies (which
     * each node keeps of its own rows).
     */
    private List<ServingNodes.Served> servedParts(TableInfo table) {
        boolean onHolders = DdlAnalyzer.transactional(table)
                ? TransactionalTableLayout.copiedAsTheClusterPlaces(table, cluster.spec())
                        && !reads.of(List.of(table)).fromCopy(table.storage())
                : !FileTableReader.holds(table);
        if (!onHolders) {
            return cluster.spec().nodes().stream().map(n -> new ServingNodes.Served(ServingNodes.OWN_PARTITION, n.id())).toList();
        }
        return cluster.serving().of(table.storage(), TransactionalTableLayout.storedCopies(table, cluster.serving()));
    }

    /** Runs {@code pipeline} over {@code part} on its node, counted among the participants of the transaction it reads in. */
    private CompletableFuture<PartitionPipeline.Summary> pipelineOn(ServingNodes.Served part, ScanPipeline pipeline,
                                                                   QueryLimits limits, TransactionalReads read,
                                                                   FileReads files, FileOutput output,
                                                                   Consumer<List<Object[]>> rows) {
        readingOn(part.node(), read);
        return cluster.pipeline(part.node(), part.partition(), pipeline, limits, read, files, output, rows);
    }

    /** Runs a shuffle's producer over {@code part} on its node, counted as {@link #pipelineOn} says. */
    private CompletableFuture<PartitionPipeline.Summary> shuffleOn(ServingNodes.Served part, ScanPipeline producer,
                                                                  ShuffleTarget target, QueryLimits limits,
                                                                  TransactionalReads read, FileReads files) {
        readingOn(part.node(), read);
        return cluster.shuffle(part.node(), part.partition(), producer, target, limits, read, files);
    }

    private void readingOn(String node, TransactionalReads read) {
        if (read.transaction() != null) {
            reads.readOn(node);
        }
    }

    /**
     * The name a run's rows are kept apart under: its node's, with the partition where it has one
     * (a node serving its own partition and a copy of another's runs two, each sorted apart).
     */
    private static String runName(ServingNodes.Served part) {
        return part.partition() < 0 ? part.node() : part.node() + " partition " + part.partition();
    }

    private static List<String> nodesOf(List<ServingNodes.Served> served) {
        return served.stream().map(ServingNodes.Served::node).toList();
    }

    /**
     * The nodes' summaries of their runs of one pipeline, {@code parts} in the order of {@code nodes};
     * a node that ran it over two partitions (its own and a replica) has both added up.
     */
    private static NodeFigures figures(List<String> nodes, List<CompletableFuture<PartitionPipeline.Summary>> parts) {
        java.util.SortedMap<String, PartitionPipeline.Summary> byNode = new java.util.TreeMap<>();
        for (int i = 0; i < parts.size(); i++) {
            byNode.merge(nodes.get(i), parts.get(i).join(), ClusterTableReader::sideBySide);
        }
        return new NodeFigures(byNode);
    }

    /** Two runs on one node at once: what both read, sent, held (their peaks added up, at most that) and spilled. */
    private static PartitionPipeline.Summary sideBySide(PartitionPipeline.Summary a, PartitionPipeline.Summary b) {
        return new PartitionPipeline.Summary(a.rowsScanned() + b.rowsScanned(), a.rowsOut() + b.rowsOut(),
                Math.max(a.nanos(), b.nanos()), a.peakMemoryBytes() + b.peakMemoryBytes(), a.spilledBytes() + b.spilledBytes(),
                a.spilledRows() + b.spilledRows(), a.bytesOut() + b.bytesOut(), a.rowsUngrouped() + b.rowsUngrouped(),
                a.bytesRead() + b.bytesRead(), a.bytesCached() + b.bytesCached(), a.splits().plus(b.splits()));
    }

    /**
     * A node's producer of partial groups and its merger, which run at once with memory of their
     * own: what the node read (rows, and bytes of files) and sent on, the most both held (their
     * peaks added up, at most that), what both spilled and the rows their partial aggregates sent on
     * ungrouped.
     */
    private static PartitionPipeline.Summary alongside(PartitionPipeline.Summary producer, PartitionPipeline.Summary merger) {
        return new PartitionPipeline.Summary(producer.rowsScanned(), merger.rowsOut(), Math.max(producer.nanos(), merger.nanos()),
                producer.peakMemoryBytes() + merger.peakMemoryBytes(), producer.spilledBytes() + merger.spilledBytes(),
                producer.spilledRows() + merger.spilledRows(), producer.bytesOut() + merger.bytesOut(),
                producer.rowsUngrouped() + merger.rowsUngrouped(), producer.bytesRead(), producer.bytesCached(), producer.splits());
    }

    @Override
    public boolean mergesGroupsOnNodes(TableInfo table) {
        return true;
    }

    /**
     * Starts a group merger on every node and the producers together: each producer sends its
     * groups' partial rows to the node their key hashes to; the mergers' results come here. The
     * first failure anywhere fails the statement and cancels the rest (a merger waits for every
     * producer).
     */
    @Override
    public NodeFigures mergeGroups(TableInfo table, ScanPipeline producer, int keyCount, List<AggregateCall> aggregates,
                                   QueryLimits nodeLimits, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.storage();
        requireAgreedLayout(table);
        TransactionalReads read = reads.of(List.of(table));
        FileReads inFiles = filesOf(table, producer);
        List<ServingNodes.Served> served = servedParts(table);
        List<String> ids = cluster.serving().liveNodes();
        String exchange = UUID.randomUUID() + "/groups";
        ShuffleTarget target = ShuffleTarget.byGroup(exchange, java.util.stream.IntStream.range(0, keyCount).boxed().toList(),
                ids);
        List<CompletableFuture<PartitionPipeline.Summary>> producers = new ArrayList<>();
        List<CompletableFuture<PartitionPipeline.Summary>> mergers = new ArrayList<>();
        runTogether(cancel, node -> sink, "aggregation of " + name + " merged on the nodes failed: ", (rowsOf, parts) -> {
            for (String node : ids) {
                mergers.add(cluster.mergeGroups(node, exchange, served.size(), keyCount, aggregates, nodeLimits,
                        rowsOf.apply(node)));
            }
            parts.addAll(mergers);
            for (ServingNodes.Served part : served) {
                producers.add(shuffleOn(part, producer, target, nodeLimits, read, inFiles));
            }
            parts.addAll(producers);
        });
        java.util.SortedMap<String, PartitionPipeline.Summary> produced = figures(nodesOf(served), producers).byNode();
        List<CompletableFuture<PartitionPipeline.Summary>> both = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            PartitionPipeline.Summary merged = mergers.get(i).join();
            PartitionPipeline.Summary sent = produced.get(ids.get(i));
            both.add(CompletableFuture.completedFuture(sent == null ? merged : alongside(sent, merged)));
        }
        return figures(ids, both);
    }

    /**
     * Starts the receiving steps on every node and the producers together: each producer sends
     * its rows to the node their keys hash to (nulls included), whose steps run over them as they
     * arrive; what those send comes here. The first failure anywhere fails the statement and
     * cancels the rest (a receiver waits for every producer).
     */
    @Override
    public NodeFigures shuffledSteps(ShuffledSide rows, List<PipelineStep> steps, QueryLimits nodeLimits,
                                     Cancellation cancel, FileOutput output, Consumer<Object[]> sink) {
        requireAgreedLayout(rows.table());
        TransactionalReads read = reads.of(List.of(rows.table()));
        List<String> ids = cluster.serving().liveNodes();
        List<ServingNodes.Served> producers = servedParts(rows.table());
        String exchange = UUID.randomUUID() + "/partitions";
        BitSet all = new BitSet();
        all.set(0, rows.width());
        ScanPipeline receiving = new ScanPipeline(rows.table().storage(), rows.width(), all, steps);
        List<CompletableFuture<PartitionPipeline.Summary>> receivers = new ArrayList<>();
        runTogether(cancel, node -> sink, failure("rows of " + rows.table().name() + " shuffled by key", output), (rowsOf, parts) -> {
            for (String node : ids) {
                receivers.add(cluster.exchanged(node, exchange, producers.size(), receiving, nodeLimits, output,
                        rowsOf.apply(node)));
            }
            parts.addAll(receivers);
            parts.addAll(produce(rows, ShuffleTarget.byGroup(exchange, rows.keys(), ids), producers, nodeLimits, read));
        });
        return figures(ids, receivers);
    }

    /**
     * Starts a join on every node and both sides' producers: the build side's first, each row to
     * the node its key hashes to, then — once every build producer is done, so that probe rows
     * do not wait in the nodes' inboxes while the hash tables are built — the probe side's. The
     * first failure anywhere fails the statement and cancels the rest.
     */
    @Override
    public NodeFigures shuffledJoin(ShuffledSide probe, ShuffledSide build, List<ShuffledSide> moreBuilds, JoinKind kind,
                                    Expr residual, List<PipelineStep> after, QueryLimits nodeLimits, Cancellation cancel,
                                    FileOutput output, Consumer<Object[]> sink) {
        List<ShuffledSide> builds = new ArrayList<>(List.of(build));
        builds.addAll(moreBuilds);
        List<TableInfo> tables = new ArrayList<>(List.of(probe.table()));
        builds.forEach(b -> tables.add(b.table()));
        tables.forEach(this::requireAgreedLayout);
        TransactionalReads read = reads.of(tables);
        List<String> ids = cluster.serving().liveNodes();
        List<ServingNodes.Served> probers = servedParts(probe.table());
        List<List<ServingNodes.Served>> builders = builds.stream().map(b -> servedParts(b.table())).toList();
        String query = UUID.randomUUID().toString();
        String probeExchange = query + "/probe";
        List<String> buildExchanges = new ArrayList<>();
        for (int b = 0; b < builds.size(); b++) {
            buildExchanges.add(query + "/build" + b);
        }
        List<PipelineStep> steps = new ArrayList<>(probe.onArrival());
        steps.add(new PipelineStep.HashJoin(exchanged(buildExchanges.get(0), builders.get(0).size(), build), kind,
                probe.keys(), build.keys(), residual, build.joinedWidth()));
        // the joins after it build from the further sides, each sent to its exchange alike
        steps.addAll(new ScanPipeline(probe.table().storage(), probe.width(), new BitSet(), after).withBuilds(
                b -> b instanceof JoinBuild.Shuffled s ? exchanged(buildExchanges.get(s.slot() + 1),
                        builders.get(s.slot() + 1).size(), builds.get(s.slot() + 1)) : b).steps());
        BitSet all = new BitSet();
        all.set(0, probe.width());
        ScanPipeline joins = new ScanPipeline(probe.table().storage(), probe.width(), all, steps);
        List<CompletableFuture<PartitionPipeline.Summary>> receivers = new ArrayList<>();
        String name = probe.table().name() + " and " + build.table().name();
        runTogether(cancel, node -> sink, failure("join of " + name + " shuffled by key", output), (rowsOf, parts) -> {
            for (String node : ids) {
                receivers.add(cluster.exchanged(node, probeExchange, probers.size(), joins, nodeLimits, output,
                        rowsOf.apply(node)));
            }
            parts.addAll(receivers);
            List<CompletableFuture<PartitionPipeline.Summary>> building = new ArrayList<>();
            for (int b = 0; b < builds.size(); b++) {
                building.addAll(produce(builds.get(b), ShuffleTarget.byGroup(buildExchanges.get(b), builds.get(b).keys(), ids),
                        builders.get(b), nodeLimits, read));
            }
            parts.addAll(building);
            CompletableFuture<Void> probing = new CompletableFuture<>();
            parts.add(probing);
            CompletableFuture.allOf(building.toArray(CompletableFuture[]::new)).thenRun(() -> {
                if (probing.isDone()) {
                    return; // the statement failed or was cancelled meanwhile
                }
                List<CompletableFuture<PartitionPipeline.Summary>> probes = produce(probe,
                        ShuffleTarget.byGroup(probeExchange, probe.keys(), ids), probers, nodeLimits, read);
                parts.addAll(probes);
                probes.forEach(p -> p.whenComplete((v, e) -> {
                    if (e != null) {
                        probing.completeExceptionally(e);
                    }
                }));
                CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new)).thenRun(() -> probing.complete(null));
            });
        });
        return figures(ids, receivers);
    }

    /** The rows of {@code side} as a join's build, from {@code exchange}: merged as they arrive where the side says so. */
    private static JoinBuild.Exchanged exchanged(String exchange, int producers, ShuffledSide side) {
        BitSet sent = new BitSet();
        sent.set(0, side.width());
        ScanPipeline onArrival = side.onArrival().isEmpty() ? null
                : new ScanPipeline(side.table().storage(), side.width(), sent, side.onArrival());
        return new JoinBuild.Exchanged(exchange, producers, true, onArrival);
    }

    /** Starts {@code side}'s producers over every partition, their rows going to {@code target}; reports what they sent when done. */
    private List<CompletableFuture<PartitionPipeline.Summary>> produce(ShuffledSide side, ShuffleTarget target,
                                                                       List<ServingNodes.Served> served,
                                                                       QueryLimits nodeLimits, TransactionalReads read) {
        FileReads inFiles = filesOf(side.table(), side.producer());
        List<CompletableFuture<PartitionPipeline.Summary>> producers = new ArrayList<>();
        for (ServingNodes.Served part : served) {
            producers.add(shuffleOn(part, side.producer(), target, nodeLimits, read, inFiles));
        }
        CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).thenRun(() -> side.sent().accept(
                new TableReader.Sent(producers.stream().mapToLong(f -> f.join().rowsOut()).sum(),
                        producers.stream().mapToLong(f -> f.join().bytesOut()).sum())));
        return producers;
    }

    /** Starts the parts of a statement that run on the nodes at once, given where each node's rows go. */
    private interface Parts {
        void start(Function<String, Consumer<List<Object[]>>> rowsOfNode, List<CompletableFuture<?>> parts);
    }

    /**
     * Starts {@code parts} and waits for all of them, each node's rows going to its sink; the first
     * failure anywhere (a part, a lost connection, a sink) fails the statement, described by
     * {@code failure}, and cancels the rest, as does cancelling the statement.
     */
    private void runTogether(Cancellation cancel, Function<String, Consumer<Object[]>> sinkOfNode, String failure,
                             Parts start) {
        // parts may start later, from a callback (a join's probe side once its build side is done)
        List<CompletableFuture<?>> parts = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Void> sinkFailed = new CompletableFuture<>();
        try {
            start.start(node -> delivered(sinkOfNode.apply(node), cancel, sinkFailed), parts);
            awaitOrCancel(firstFailureOrAll(parts, sinkFailed), cancel);
        } catch (CompletionException | RemoteException e) {
            throw Faults.of(failure, e);
        } finally {
            parts.forEach(p -> p.cancel(false));
        }
        cancel.check();
    }

    /** Starts the receiving pipelines and every shuffle's producers together; see {@link #pipeline(TableInfo, ScanPipeline, List, QueryLimits, Cancellation, Consumer)}. */
    private NodeFigures shuffled(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                 Cancellation cancel, FileOutput output, Function<String, Consumer<Object[]>> sinkOfNode) {
        String name = table.storage();
        requireAgreedLayout(table);
        List<TableInfo> read = new ArrayList<>(List.of(table));
        shuffles.forEach(shuffle -> read.add(shuffle.table()));
        TransactionalReads inTransaction = reads.of(read);
        if (FileTableReader.holds(table)) {
            throw new IllegalStateException("rows shuffled to the partitions of " + table.name()
                    + ", which is held in files: its rows are in no partition");
        }
        List<String> owners = cluster.spec().owners(name);
        List<ServingNodes.Served> receiving = servedParts(table);
        // rows go to the node serving their partition, to that partition's own exchange
        List<String> servers = receiving.stream().map(part -> part.node()).toList();
        List<List<ServingNodes.Served>> producing = shuffles.stream().map(shuffle -> servedParts(shuffle.table())).toList();
        String query = UUID.randomUUID().toString();
        List<CompletableFuture<PartitionPipeline.Summary>> receivers = new ArrayList<>();
        runTogether(cancel, sinkOfNode, failure("join of " + name + " with rows shuffled to it", output), (rowsOf, parts) -> {
            for (ServingNodes.Served part : receiving) {
                int partition = part.partition() == ServingNodes.OWN_PARTITION ? owners.indexOf(part.node()) : part.partition();
                ScanPipeline consumer = pipeline.withBuilds(build -> build instanceof JoinBuild.Shuffled s
                        ? new JoinBuild.Exchanged(ShuffleTarget.partitionExchange(query + "/" + s.slot(), partition),
                                producing.get(s.slot()).size()) : build);
                receivers.add(pipelineOn(part, consumer, nodeLimits, inTransaction,
                        FileReads.NONE, output, rowsOf.apply(runName(part))));
            }
            parts.addAll(receivers);
            for (int slot = 0; slot < shuffles.size(); slot++) {
                Shuffle shuffle = shuffles.get(slot);
                requireAgreedLayout(shuffle.table());
                ShuffleTarget toOwners = ShuffleTarget.toPartitionOf(query + "/" + slot, shuffle.keyColumn(), shuffle.keyType(),
                        servers);
                ShuffleTarget target = shuffle.keepsNulls() ? toOwners.keepingNulls() : toOwners;
                List<CompletableFuture<PartitionPipeline.Summary>> producers = new ArrayList<>();
                FileReads inFiles = filesOf(shuffle.table(), shuffle.producer());
                for (ServingNodes.Served part : producing.get(slot)) {
                    producers.add(shuffleOn(part, shuffle.producer(), target, nodeLimits,
                            inTransaction, inFiles));
                }
                parts.addAll(producers);
                CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).thenRun(() -> shuffle.sent().accept(
                        new TableReader.Sent(producers.stream().mapToLong(f -> f.join().rowsOut()).sum(),
                                producers.stream().mapToLong(f -> f.join().bytesOut()).sum())));
            }
        });
        return figures(servers, receivers);
    }

    /**
     * Hands the rows that arrive (on the connection's threads) to {@code sink} until the statement
     * is cancelled or the sink fails — a memory limit, say: its failure is the statement's, and
     * never reaches the connection, which other statements share.
     */
    private static Consumer<List<Object[]>> delivered(Consumer<Object[]> sink, Cancellation cancel,
                                                     CompletableFuture<Void> sinkFailed) {
        return rows -> {
            if (cancel.isCancelled() || sinkFailed.isDone()) {
                return;
            }
            try {
                RowListSink.send(sink, rows);
            } catch (RuntimeException e) {
                sinkFailed.completeExceptionally(e);
            }
        };
    }

    /**
     * Done when every part is, or failed as soon as one fails (or the rows' sink does): a receiver
     * waits for every producer, so one that failed would leave the others waiting.
     */
    private static CompletableFuture<Void> firstFailureOrAll(List<? extends CompletableFuture<?>> parts,
                                                             CompletableFuture<Void> sinkFailed) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        sinkFailed.whenComplete((v, e) -> done.completeExceptionally(e));
        parts.forEach(p -> p.whenComplete((v, e) -> {
            if (e != null) {
                done.completeExceptionally(e);
            }
        }));
        CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenRun(() -> done.complete(null));
        return done;
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
