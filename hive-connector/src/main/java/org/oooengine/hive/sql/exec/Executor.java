package org.oooengine.hive.sql.exec;

import org.oooengine.core.cluster.QueryLimits;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.oooengine.core.fragment.ExternalSort;
import org.oooengine.core.fragment.FinalAggregation;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.MemoryLimitExceededException;
import org.oooengine.core.cluster.FileOutput;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.RowBatches;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.RankLimit;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.fragment.RowListSink;
import org.oooengine.core.fragment.RowRuns;
import org.oooengine.core.fragment.SpooledRows;
import org.oooengine.core.fragment.TopRows;
import org.oooengine.core.fragment.WindowOperator;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.StatementMemory;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.PlanPrinter;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Runs a plan on the coordinator, each operator pushing its rows to the next a batch at a time
 * as they come: table scans and pipelines from the nodes through the {@link TableReader}, join
 * chains through the {@link IndexJoinRunner}. Only hash joins (their build side), aggregations
 * and sorts hold rows, against the statement's memory on the coordinator, and spill to disk
 * beyond it; the result is kept for the client the same way ({@link SpooledRows}). When one
 * operator needs room that others hold, those that can spill do ({@code QueryMemory.Revocable}).
 * Batches reach an operator from one thread at a time; the statement's cancellation is checked
 * between them.
 */
public final class Executor {
    private final TableReader tables;
    /**
     * {@link #tables}, told of the tables in files the plan running builds from beside those it
     * scans: set by each run, as the run's other state is (an executor runs one plan at a time).
     */
    private TableReader reader;
    private final IndexJoinRunner indexJoins;
    private final Cancellation cancel;
    private final QueryLimits nodeLimits;
    /** What this statement's operators hold here, on the coordinator. */
    private final QueryMemory memory;
    private Map<RelNode.Scan, BitSet> usage;
    /** Subplans that occur more than once alike, computed once ({@link SharedSubplans}). */
    private SharedSubplans shared;
    /** By shape, the rows of each shared subplan computed so far. */
    private final Map<Integer, SpooledRows> computed = new java.util.HashMap<>();
    /** The node whose rows go to the statement's result as they come ({@link #resultSource}): its chunks kept as they are. */
    private RelNode resultSource;
    /** By shape and columns read, the rows of each shared pipeline sent to every node so far. */
    private final Map<List<Object>, List<Object[]>> broadcastsComputed = new java.util.HashMap<>();
    /** The condition of the filter that alone reads a window's rows, by window: its ranks may bound what the window sorts. */
    private final Map<RelNode.Window, Expr> filterAbove = new IdentityHashMap<>();
    /** Per operator, when profiling (EXPLAIN ANALYZE): rows out and nanoseconds, its inputs included. */
    private Map<RelNode, OperatorFigures> profile;
    /** EXPLAIN ANALYZE: what each operator that holds rows on the coordinator held and spilled there. */
    private final Map<RelNode, OperatorFigures.Held> held = Collections.synchronizedMap(new IdentityHashMap<>());
    /** EXPLAIN ANALYZE: the operators holding rows being measured now, innermost last. */
    private final java.util.Deque<Watched> watching = new java.util.ArrayDeque<>();
    /** What the nodes did to look up the keys of each index join, where its runner knows. */
    private final Map<RelNode, IndexJoinRunner.Lookups> lookups = Collections.synchronizedMap(new IdentityHashMap<>());
    /** EXPLAIN ANALYZE: what the nodes reported of each pipeline they ran. */
    private final Map<RelNode, TableReader.NodeFigures> figures = Collections.synchronizedMap(new IdentityHashMap<>());
    /** Where the part of the plan {@link #writeOnNodes} runs has its rows written, and that part: nothing else writes. */
    private FileOutput writing;
    private RelNode writtenBy;
    /** The most one pipeline of the statement held at once on one node, as the nodes reported. */
    private final java.util.concurrent.atomic.AtomicLong nodePeakBytes = new java.util.concurrent.atomic.AtomicLong();

    public Executor(TableReader reader, IndexJoinRunner indexJoins, Cancellation cancel) {
        this(reader, indexJoins, cancel, QueryMemory.unbounded(), QueryLimits.DEFAULTS);
    }

    /**
     * @param memory        what the statement's operators may hold on the coordinator: hash join
     *                      builds, groups, sorted rows, the result not yet fetched
     * @param nodeLimits    what the operators of each node pipeline may hold and spill there (0: the node's default)
     */
    public Executor(TableReader reader, IndexJoinRunner indexJoins, Cancellation cancel, QueryMemory memory,
                    QueryLimits nodeLimits) {
        this.tables = reader;
        this.reader = reader;
        this.indexJoins = indexJoins;
        this.cancel = cancel;
        this.memory = memory;
        this.nodeLimits = nodeLimits;
    }

    /**
     * Runs the plan to its end and returns its rows, to be read once; they hold the statement's
     * memory (and any file they spilled to) until read to the end or closed.
     */
    public Rows run(RelNode root) {
        prepare(root);
        SpooledRows result = new SpooledRows(memory, "result rows not yet fetched");
        memory.revocable(result::revoke);
        try {
            produce(root, result);
            return new Rows(result.iterator(), memory, new StatementMemory(memory.peakBytes(), nodePeakBytes.get()));
        } catch (MemoryLimitExceededException e) {
            memory.close();
            throw new SqlException(SqlException.OUT_OF_MEMORY, e.getMessage(), e);
        } catch (org.oooengine.core.fragment.SpillLimitExceededException e) {
            memory.close(); // the spill files it wrote up to the limit
            throw new SqlException(SqlException.DISK_FULL, e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            memory.close(); // spill files a failed statement left
            throw e;
        }
    }

    /** The node whose rows go to the result as they come: the root, or what a LIMIT (without ORDER BY) cuts. */
    private static RelNode resultSource(RelNode root) {
        RelNode node = root;
        while (node instanceof RelNode.Limit l && !(l.input() instanceof RelNode.Sort)) {
            node = l.input();
        }
        return node;
    }

    private void prepare(RelNode root) {
        usage = ColumnUsage.of(root);
        reader = tables.knowing(ColumnUsage.slicedAlike(root));
        shared = SharedSubplans.of(root, usage);
        resultSource = resultSource(root);
        computed.clear();
        broadcastsComputed.clear();
        filterAbove.clear();
    }

    /**
     * Where the plan ends on the nodes ({@link PartsEndingOnNodes}), runs it with each node writing
     * the rows it ends with into files as {@code output} says, and returns the records of the files
     * written ({@link FileOutput#RECORD_COLUMNS}); empty, having run nothing, where the plan's rows
     * meet on the coordinator (a sort, a limit, a GROUP BY merged there) or it reads a table whose
     * rows are not read on the nodes.
     */
    public java.util.Optional<List<Object[]>> writeOnNodes(RelNode root, FileOutput output) {
        List<RelNode> parts = PartsEndingOnNodes.of(root);
        if (parts.isEmpty() || !parts.stream().allMatch(this::writesOnNodes)) {
            return java.util.Optional.empty();
        }
        prepare(root);
        List<Object[]> files = new ArrayList<>();
        try {
            for (RelNode part : parts) {
                writing = output;
                writtenBy = part;
                compute(part, files::addAll);
            }
        } catch (MemoryLimitExceededException e) {
            throw new SqlException(SqlException.OUT_OF_MEMORY, e.getMessage(), e);
        } catch (org.oooengine.core.fragment.SpillLimitExceededException e) {
            throw new SqlException(SqlException.DISK_FULL, e.getMessage(), e);
        } finally {
            writing = null;
            writtenBy = null;
            memory.close(); // the broadcast inputs' spill files
        }
        return java.util.Optional.of(List.copyOf(files));
    }

    /** Whether the nodes that run {@code part} to its end read every table it reads, and so can write what it ends with. */
    private boolean writesOnNodes(RelNode part) {
        List<RelNode.NodePipeline> pipelines = new ArrayList<>();
        if (part instanceof RelNode.NodePipeline p) {
            pipelines.add(p);
            p.shuffles().forEach(shuffle -> pipelines.add(shuffle.producer()));
        } else if (part instanceof RelNode.ShuffledJoin j) {
            pipelines.addAll(List.of(j.left(), j.right()));
            j.moreBuilds().forEach(b -> pipelines.add(b.producer()));
        } else if (part instanceof RelNode.ShuffledSteps w) {
            if (!tables.mergesGroupsOnNodes(w.input().scan().table())) {
                return false; // its steps would run here
            }
            pipelines.add(w.input());
        }
        return pipelines.stream().allMatch(p -> tables.writesOnNodes(p.scan().table()));
    }

    /** The files {@code part}'s nodes write the rows it ends with into: null where they send them here. */
    private FileOutput outputOf(RelNode part) {
        return part == writtenBy ? writing : null;
    }

    /** The subplans of {@code root} that running it computes once and replays where they occur again. */
    public static PlanPrinter.Shared sharedSubplans(RelNode root) {
        return SharedSubplans.of(root, ColumnUsage.of(root));
    }

    /** The subplans the last run computed once, each with the occurrence it computed. */
    public PlanPrinter.Shared sharedSubplans() {
        return shared;
    }

    /** Runs the plan and returns all of its rows in a list (an INSERT's SELECT). */
    public List<Object[]> runToList(RelNode root) {
        List<Object[]> out = new ArrayList<>();
        try (Rows rows = run(root)) {
            // held whole (an INSERT's rows before they are written): counted against the statement's
            // memory, so that too many fail naming the limit rather than fill the coordinator's heap
            while (rows.hasNext()) {
                Object[] row = rows.next();
                memory.reserve(ROWS_HELD, QueryMemory.rowBytes(row));
                out.add(row);
            }
        } catch (MemoryLimitExceededException e) {
            throw new SqlException(SqlException.OUT_OF_MEMORY, e.getMessage(), e);
        }
        return out;
    }

    /** What {@link #runToList} names when its rows outgrow the statement's memory. */
    static final String ROWS_HELD = "holding the rows a statement writes";

    /**
     * Runs the plan and returns, per operator, its rows and its time including its inputs'; for an
     * operator that holds rows here also what it held and spilled; for a pipeline of the nodes what
     * each node reported; for a shuffle's producers what they sent.
     */
    public Map<RelNode, OperatorFigures> profile(RelNode root) {
        profile = Collections.synchronizedMap(new IdentityHashMap<>()); // shuffles report from the network's threads
        run(root).close();
        figures.forEach((node, f) -> profile.computeIfPresent(node, (n, m) -> m.withNodes(f)));
        held.forEach((node, h) -> profile.computeIfPresent(node, (n, m) -> m.withHeld(h)));
        return profile;
    }

    /**
     * EXPLAIN ANALYZE's measure of one operator that holds rows here: the statement's peak while it
     * runs, and what it spilled itself (what operators measured inside it spilled is theirs).
     */
    private final class Watched {
        private final QueryMemory.Watch watch = memory.watch();
        private long spilledInside;

        Watched() {
            watching.addLast(this);
        }

        OperatorFigures.Held close() {
            watch.close();
            watching.removeLastOccurrence(this);
            Watched outer = watching.peekLast();
            if (outer != null) {
                outer.spilledInside += watch.spilledBytes();
            }
            return new OperatorFigures.Held(watch.peakBytes(), Math.max(0, watch.spilledBytes() - spilledInside));
        }
    }

    /** The operators that hold rows on the coordinator: hash joins, aggregations, sorts, windows. */
    private static boolean holdsRows(RelNode node) {
        return node instanceof RelNode.Join || node instanceof RelNode.Aggregate || node instanceof RelNode.Sort
                || node instanceof RelNode.Window || node instanceof RelNode.FinalAggregate a && !a.onNodes();
    }

    /** A statement's result rows; closing (or reading past the last) gives back what the statement held. */
    public static final class Rows implements RowRuns, AutoCloseable, StatementMemory.Measured {
        private final SpooledRows.Cursor rows;
        private final QueryMemory memory;
        private final StatementMemory held;
        private boolean closed;

        private Rows(SpooledRows.Cursor rows, QueryMemory memory, StatementMemory held) {
            this.rows = rows;
            this.memory = memory;
            this.held = held;
        }

        @Override
        public StatementMemory memory() {
            return held;
        }

        @Override
        public boolean hasNext() {
            if (closed) {
                return false;
            }
            if (rows.hasNext()) {
                return true;
            }
            close();
            return false;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return rows.next();
        }

        @Override
        public List<List<Object[]>> take(int max) {
            List<List<Object[]>> pieces = closed ? List.of() : rows.take(max);
            hasNext(); // closes at the end
            return pieces;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                memory.close();
            }
        }
    }

    /** Pushes {@code node}'s rows to {@code out}, a batch at a time, from one thread at a time. */
    private void produce(RelNode node, Consumer<List<Object[]>> out) {
        cancel.check();
        Consumer<List<Object[]>> checked = batch -> {
            cancel.check();
            out.accept(batch);
        };
        if (profile == null) {
            operator(node, checked);
            return;
        }
        long t0 = System.nanoTime();
        long[] rows = {0};
        Watched watched = holdsRows(node) ? new Watched() : null;
        try {
            operator(node, batch -> {
                rows[0] += batch.size();
                checked.accept(batch);
            });
        } finally {
            // also when a limit above stopped it
            profile.put(node, OperatorFigures.of(rows[0], System.nanoTime() - t0).withLookups(lookups.get(node)));
            if (watched != null) {
                held.put(node, watched.close());
            }
        }
    }

    private void operator(RelNode node, Consumer<List<Object[]>> out) {
        int key = shared.key(node);
        if (key < 0) {
            compute(node, out);
            return;
        }
        SpooledRows rows = computed.get(key);
        if (rows == null) { // held whole before any goes on: a limit above may stop reading early
            shared.computing(key, node);
            rows = new SpooledRows(memory, "rows of a subplan computed once for its " + shared.uses(key) + " uses");
            memory.revocable(rows::revoke);
            compute(node, rows);
            computed.put(key, rows);
        }
        Iterator<Object[]> it = rows.iterator();
        List<Object[]> batch = new ArrayList<>(Pipeline.BATCH_ROWS);
        while (it.hasNext()) {
            batch.add(it.next());
            if (batch.size() == Pipeline.BATCH_ROWS || !it.hasNext()) {
                out.accept(batch);
                batch = new ArrayList<>(Pipeline.BATCH_ROWS);
            }
        }
    }

    private void compute(RelNode node, Consumer<List<Object[]>> out) {
        if (node instanceof RelNode.Scan s) {
            // the filter runs where the rows are; they come back as table rows with the columns the plan reads
            List<PipelineStep> steps = s.filter() == null ? List.of() : List.of(new PipelineStep.Filter(s.filter()));
            fromManyThreads(out, node == resultSource, sink -> reader.pipeline(s.table(), ScanPipeline.of(s.table().storage(),
                    s.fields().size(), steps, usage.getOrDefault(s, new BitSet())), cancel, sink));
        } else if (node instanceof RelNode.NodePipeline p) {
            BitSet all = new BitSet();
            all.set(0, p.fields().size());
            fromManyThreads(out, node == resultSource, sink -> run(p, p, all, sink));
        } else if (node instanceof RelNode.Filter f) {
            if (f.input() instanceof RelNode.Window w && shared.key(w) < 0) { // read by this filter alone
                filterAbove.put(w, f.condition());
            }
            through(f.input(), new PipelineStep.Filter(f.condition()), Pipeline.BuildSource.ROWS_ONLY, out);
        } else if (node instanceof RelNode.Project p) {
            through(p.input(), new PipelineStep.Project(p.exprs()), Pipeline.BuildSource.ROWS_ONLY, out);
        } else if (node instanceof RelNode.Join j) {
            join(j, out);
        } else if (node instanceof RelNode.Aggregate a) {
            aggregate(a, out);
        } else if (node instanceof RelNode.Sort s && s.input() instanceof RelNode.NodePipeline p && sortedOnNodes(p)) {
            mergeSorted(p, s, out);
        } else if (node instanceof RelNode.Sort s) {
            ExternalSort sort = new ExternalSort(s.keys(), memory, "sort (ORDER BY)");
            memory.revocable(sort::revoke);
            produce(s.input(), sort::add);
            sort.finish(out);
        } else if (node instanceof RelNode.Limit l && l.input() instanceof RelNode.Sort s) {
            firstRows(s, l.offset(), l.count(), out);
        } else if (node instanceof RelNode.Limit l) {
            limit(l, out);
        } else if (node instanceof RelNode.Values v) {
            inBatches(v.rows(), out);
        } else if (node instanceof RelNode.IndexJoin j) {
            indexJoin(j, out);
        } else if (node instanceof RelNode.IndexJoinSteps s) {
            BitSet all = new BitSet();
            all.set(0, s.fields().size());
            List<PipelineStep> steps = withBroadcasts(s.steps(), s.join().fields().size(), s.broadcasts(), all, false);
            fromManyThreads(out, node == resultSource, sink -> looked(s, indexJoins.run(s, steps, cancel, sink)));
        } else if (node instanceof RelNode.SingleRow s) {
            singleRow(s, out);
        } else if (node instanceof RelNode.FinalAggregate a) {
            finalAggregate(a, out);
        } else if (node instanceof RelNode.ShuffledJoin j) {
            fromManyThreads(out, node == resultSource, sink -> shuffledJoin(j, sink));
        } else if (node instanceof RelNode.ShuffledSteps w) {
            shuffledSteps(w, out);
        } else if (node instanceof RelNode.Union u) {
            u.inputs().forEach(input -> produce(input, out));
        } else if (node instanceof RelNode.Window w) {
            window(w, out);
        } else if (node instanceof RelNode.Expand e) {
            through(e.input(), e.step(), Pipeline.BuildSource.ROWS_ONLY, out);
        } else if (node instanceof RelNode.Replicate r) {
            replicate(r, out);
        } else if (node instanceof RelNode.Generate g) {
            generate(g, out);
        } else {
            throw new IllegalStateException("no executor for " + node.getClass().getSimpleName());
        }
    }

    /**
     * Rows that arrive one at a time from several threads at once (the nodes', the network's) go
     * on in batches, one batch at a time.
     */
    private static void fromManyThreads(Consumer<List<Object[]>> out, Consumer<Consumer<Object[]>> source) {
        fromManyThreads(out, false, source);
    }

    /**
     * As above; where {@code keepsChunks} (the rows go to the result as they are), a chunk that came
     * as columns goes on as one, for the client's row set to read its columns. Elsewhere its rows
     * are made here, before the lock, as the next operator reads rows (and counts their memory).
     */
    private static void fromManyThreads(Consumer<List<Object[]>> out, boolean keepsChunks,
                                        Consumer<Consumer<Object[]>> source) {
        RowBatches batches = new RowBatches(out);
        source.accept(new RowListSink() {
            @Override
            public void accept(Object[] row) {
                synchronized (batches) {
                    batches.add(row);
                }
            }

            @Override
            public void acceptList(List<Object[]> rows) {
                List<Object[]> passed = keepsChunks ? rows : ColumnarRows.rowsOf(rows);
                synchronized (batches) {
                    batches.addAll(passed);
                }
            }
        });
        synchronized (batches) {
            batches.flush();
        }
    }

    private static void inBatches(List<Object[]> rows, Consumer<List<Object[]>> out) {
        for (int from = 0; from < rows.size(); from += Pipeline.BATCH_ROWS) {
            out.accept(rows.subList(from, Math.min(rows.size(), from + Pipeline.BATCH_ROWS)));
        }
    }

    /** {@code input}'s rows through one step of a pipeline, as a node would run it. */
    private void through(RelNode input, PipelineStep step, Pipeline.BuildSource builds, Consumer<List<Object[]>> out) {
        Pipeline pipeline = new Pipeline(List.of(step), input.fields().size(), builds, out, memory);
        produce(input, pipeline::accept);
        pipeline.finish();
    }

    private static boolean sortedOnNodes(RelNode.NodePipeline p) {
        return !p.steps().isEmpty() && p.steps().get(p.steps().size() - 1) instanceof PipelineStep.Sort;
    }

    /**
     * ORDER BY of rows each node sorted: each node's rows are kept apart as they arrive (in memory
     * while they fit, then on disk) and merged into one order when all are in, a row at a time
     * from the node whose next row comes first.
     */
    private void mergeSorted(RelNode.NodePipeline p, RelNode.Sort s, Consumer<List<Object[]>> out) {
        Map<String, SpooledRows> byNode = new java.util.TreeMap<>();
        Map<String, RowBatches> pending = new java.util.HashMap<>();
        Object lock = new Object(); // rows of different nodes arrive on different threads: one at a time here
        BitSet all = new BitSet();
        all.set(0, p.fields().size());
        long t0 = System.nanoTime();
        long[] rows = {0};
        runByNode(p, all, node -> row -> {
            synchronized (lock) {
                pending.computeIfAbsent(node, n -> {
                    SpooledRows spool = new SpooledRows(memory, "rows sorted on " + n);
                    byNode.put(n, spool);
                    return new RowBatches(batch -> {
                        cancel.check();
                        spool.accept(batch);
                    });
                }).add(row);
                rows[0]++;
            }
        });
        pending.values().forEach(RowBatches::flush);
        if (profile != null) {
            profile.put(p, OperatorFigures.of(rows[0], System.nanoTime() - t0));
        }
        java.util.Comparator<Object[]> order = org.oooengine.core.fragment.SortKey.order(s.keys());
        record Head(Object[] row, Iterator<Object[]> rest) {
        }
        java.util.PriorityQueue<Head> heads = new java.util.PriorityQueue<>((a, b) -> order.compare(a.row(), b.row()));
        for (SpooledRows node : byNode.values()) {
            Iterator<Object[]> it = node.iterator();
            if (it.hasNext()) {
                heads.add(new Head(it.next(), it));
            }
        }
        List<Object[]> batch = new ArrayList<>(Pipeline.BATCH_ROWS);
        while (!heads.isEmpty()) {
            Head head = heads.poll();
            batch.add(head.row());
            if (head.rest().hasNext()) {
                heads.add(new Head(head.rest().next(), head.rest()));
            }
            if (batch.size() == Pipeline.BATCH_ROWS) {
                out.accept(batch);
                batch = new ArrayList<>(Pipeline.BATCH_ROWS);
            }
        }
        if (!batch.isEmpty()) {
            out.accept(batch);
        }
    }

    /**
     * A hash join: the right side built (spilled, with the left side's rows, when it does not
     * fit), the left side probing it. A cross join takes its left rows one at a time: each may
     * meet a whole table.
     */
    private void join(RelNode.Join j, Consumer<List<Object[]>> out) {
        PipelineStep.HashJoin step = new PipelineStep.HashJoin(new JoinBuild.Gathered(0), j.kind(), ints(j.leftKeys()),
                ints(j.rightKeys()), j.residual(), j.right().fields().size());
        // on column batches where the rows' values and the join fit them, else row by row; a probe row
        // that meets many rows makes them a batch at a time: the statement's cancellation is checked between
        PartitionPipeline.OverTypedRows pipeline = new PartitionPipeline.OverTypedRows(List.of(step),
                j.left().fields().stream().map(Field::type).toList(),
                Pipeline.BuildSource.ofRows((build, rows) -> produce(j.right(), rows)), out, memory, () -> {
                    cancel.check();
                    return false;
                });
        produce(j.left(), pipeline::accept);
        pipeline.finish();
    }

    private static List<Integer> ints(int[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }

    /**
     * {@code p} run on the nodes, reading only {@code neededAfter} of its output: its broadcast
     * inputs are computed here first and their rows put in the pipeline; its shuffles' producing
     * pipelines run on the nodes beside it.
     */
    private void run(RelNode.NodePipeline p, RelNode reportAs, BitSet neededAfter, Consumer<Object[]> sink) {
        runByNode(p, reportAs, neededAfter, node -> sink);
    }

    /** As {@link #run}, each node's rows to a sink of its own, in the order the node sent them. */
    private void runByNode(RelNode.NodePipeline p, BitSet neededAfter,
                           java.util.function.Function<String, Consumer<Object[]>> sinkOfNode) {
        runByNode(p, p, neededAfter, sinkOfNode);
    }

    private void runByNode(RelNode.NodePipeline p, RelNode reportAs, BitSet neededAfter,
                           java.util.function.Function<String, Consumer<Object[]>> sinkOfNode) {
        int width = p.scan().fields().size();
        Map<JoinBuild, BitSet> carried = ScanPipeline.sentColumns(width, p.steps(), neededAfter);
        List<TableReader.Shuffle> shuffles = new ArrayList<>();
        for (int slot = 0; slot < p.shuffles().size(); slot++) {
            RelNode.Shuffle shuffle = p.shuffles().get(slot);
            RelNode.NodePipeline producer = shuffle.producer();
            BitSet read = carried.getOrDefault(new JoinBuild.Shuffled(slot), new BitSet());
            if (!producer.shuffles().isEmpty()) {
                throw new IllegalStateException("a shuffle's producer shuffles again: not planned");
            }
            long t0 = System.nanoTime();
            shuffles.add(new TableReader.Shuffle(producer.scan().table(), withBroadcasts(onlyRead(producer, read), read),
                    shuffle.keyColumn(), producer.fields().get(shuffle.keyColumn()).type(),
                    keepsEveryBuildRow(p.steps(), new JoinBuild.Shuffled(slot)), sent -> {
                        if (profile != null) { // EXPLAIN ANALYZE: what the producers sent, and when they were done
                            profile.put(producer, OperatorFigures.of(sent.rows(), System.nanoTime() - t0).withSent(sent));
                        }
                    }));
        }
        TableReader.NodeFigures f = reader.pipelineByNode(p.scan().table(), withBroadcasts(p, neededAfter), shuffles,
                nodeLimits, cancel, outputOf(p), sinkOfNode);
        noted(reportAs, f);
    }

    /** Whether the join of {@code steps} that builds from {@code build} outputs each of its rows, met or not. */
    private static boolean keepsEveryBuildRow(List<PipelineStep> steps, JoinBuild build) {
        return steps.stream().anyMatch(step -> step instanceof PipelineStep.HashJoin j && j.build().equals(build)
                && (j.kind() == JoinKind.RIGHT || j.kind() == JoinKind.FULL || j.kind() == JoinKind.RIGHT_ANTI));
    }

    /** Both sides of {@code j} shuffled by key to the nodes, which join them and run the steps after. */
    private void shuffledJoin(RelNode.ShuffledJoin j, Consumer<Object[]> sink) {
        List<TableReader.ShuffledSide> more = j.moreBuilds().stream()
                .map(b -> side(b.producer(), b.keys(), b.arrival().steps())).toList();
        TableReader.NodeFigures f = reader.shuffledJoin(side(j.left(), j.leftKeys(), j.leftArrival().steps()),
                side(j.right(), j.rightKeys(), j.rightArrival().steps()), more, j.kind(), j.residual(), j.after(), nodeLimits,
                cancel, outputOf(j), sink);
        noted(j, f);
    }

    /**
     * A window's rows shuffled by its partition keys to the nodes, which compute it and run the
     * steps after it; where the rows do not live on nodes, the same steps here over the rows.
     */
    private void shuffledSteps(RelNode.ShuffledSteps w, Consumer<List<Object[]>> out) {
        if (!reader.mergesGroupsOnNodes(w.input().scan().table())) {
            if (outputOf(w) != null) {
                throw new IllegalStateException("steps to write on the nodes over rows that are not on them");
            }
            Pipeline here = new Pipeline(w.steps(), w.input().fields().size(), Pipeline.BuildSource.ROWS_ONLY, out, memory);
            produce(w.input(), here::accept);
            here.finish();
            return;
        }
        fromManyThreads(out, w == resultSource, sink -> {
            TableReader.NodeFigures f = reader.shuffledSteps(side(w.input(), w.keys().stream().mapToInt(Integer::intValue)
                    .toArray(), List.of()), w.steps(), nodeLimits, cancel, outputOf(w), sink);
            noted(w, f);
        });
    }

    /** What the nodes reported of the pipeline run for {@code node}: its peak counted, its figures kept for EXPLAIN ANALYZE. */
    private void noted(RelNode node, TableReader.NodeFigures f) {
        if (f != null) {
            nodePeakBytes.accumulateAndGet(f.peakMemoryBytes(), Math::max);
        }
        if (profile != null) {
            figures.put(node, f);
        }
    }

    private TableReader.ShuffledSide side(RelNode.NodePipeline p, int[] keys, List<PipelineStep> onArrival) {
        if (!p.shuffles().isEmpty()) {
            throw new IllegalStateException("a shuffled join's side shuffles again: not planned");
        }
        BitSet all = new BitSet();
        all.set(0, p.fields().size());
        long t0 = System.nanoTime();
        return new TableReader.ShuffledSide(p.scan().table(), withBroadcasts(p, all), ints(keys), p.fields().size(), sent -> {
            if (profile != null) { // EXPLAIN ANALYZE: what the producers sent, and when they were done
                profile.put(p, OperatorFigures.of(sent.rows(), System.nanoTime() - t0).withSent(sent));
            }
        }, onArrival);
    }

    /** What the nodes run for {@code p}, its broadcast inputs (also those its local builds join) computed here and put in. */
    private ScanPipeline withBroadcasts(RelNode.NodePipeline p, BitSet neededAfter) {
        int width = p.scan().fields().size();
        return ScanPipeline.of(p.scan().table().storage(), width, withBroadcasts(p.steps(), width, p.broadcasts(),
                neededAfter, reader.mergesGroupsOnNodes(p.scan().table())), neededAfter).slicedBy(p.slicedBy());
    }

    /**
     * {@code steps} over rows {@code width} wide with each join's broadcast input computed here
     * and put in as its rows, with only the columns read of them after; {@code routes}: whether
     * the rows live on partitioned nodes, so that a routed broadcast's rows each go to one of them.
     */
    private List<PipelineStep> withBroadcasts(List<PipelineStep> steps, int width, List<RelNode> broadcasts,
                                              BitSet neededAfter, boolean routes) {
        Map<JoinBuild, BitSet> carried = ScanPipeline.sentColumns(width, steps, neededAfter);
        Map<JoinBuild, List<Object[]>> computed = new java.util.HashMap<>();
        BitSet none = new BitSet();
        return new ScanPipeline("", width, none, steps).withBuilds(build -> {
            if (!(build instanceof JoinBuild.Broadcast b)) {
                return build;
            }
            RelNode input = broadcasts.get(b.slot());
            List<Object[]> rows = computed.computeIfAbsent(b, x -> broadcastRows(input, carried.getOrDefault(b, new BitSet())));
            if (routes && b.byRanges()) { // the probe rows are a table's files, each node's splits a range of the key
                return new JoinBuild.Routed(rows, b.routeColumn(), input.fields().get(b.routeColumn()).type(), b.rangeColumn());
            }
            return routes && b.routed()
                    ? new JoinBuild.Routed(rows, b.routeColumn(), input.fields().get(b.routeColumn()).type())
                    : new JoinBuild.Rows(rows);
        }).steps();
    }

    /**
     * A broadcast input's rows, with only {@code columns} read when it is a pipeline of the nodes:
     * held here, to be sent to every node.
     */
    private List<Object[]> broadcastRows(RelNode input, BitSet columns) {
        List<Object[]> rows = new ArrayList<>();
        Consumer<List<Object[]>> hold = batch -> {
            memory.reserve("rows gathered to send to every node", QueryMemory.rowsBytes(batch));
            rows.addAll(batch);
        };
        if (!(input instanceof RelNode.NodePipeline p)) {
            produce(input, hold);
            return rows;
        }
        int key = shared.key(p);
        List<Object> shape = List.of(key, columns.clone());
        if (key >= 0 && broadcastsComputed.containsKey(shape)) {
            return broadcastsComputed.get(shape);
        }
        long t0 = System.nanoTime();
        fromManyThreads(hold, sink -> run(onlyRead(p, columns), p, columns, sink));
        if (profile != null) {
            profile.put(p, OperatorFigures.of(rows.size(), System.nanoTime() - t0));
        }
        if (key >= 0) {
            broadcastsComputed.put(shape, rows);
        }
        return rows;
    }

    /**
     * {@code p} ending in a projection that keeps the columns read of its rows and nulls the others
     * (in their places): rows sent to every node or shuffled carry, and are held as, no more.
     */
    private static RelNode.NodePipeline onlyRead(RelNode.NodePipeline p, BitSet read) {
        List<Expr> kept = new ArrayList<>();
        for (int i = 0; i < p.fields().size(); i++) {
            SqlType type = p.fields().get(i).type();
            kept.add(read.get(i) ? new Expr.Column(i, type) : new Expr.Literal(null, type));
        }
        List<PipelineStep> steps = new ArrayList<>(p.steps());
        steps.add(new PipelineStep.Project(kept));
        return new RelNode.NodePipeline(p.scan(), steps, p.broadcasts(), p.shuffles(), p.fields(), p.slicedBy(), p.slicedAlike());
    }

    /** Merges the groups' partial states as the nodes send them, or has the nodes merge them. */
    private void finalAggregate(RelNode.FinalAggregate a, Consumer<List<Object[]>> out) {
        if (a.onNodes() && a.input() instanceof RelNode.NodePipeline p && reader.mergesGroupsOnNodes(p.scan().table())) {
            BitSet all = new BitSet();
            all.set(0, p.fields().size());
            long t0 = System.nanoTime();
            long[] groups = {0};
            fromManyThreads(batch -> {
                groups[0] += batch.size();
                out.accept(batch);
            }, sink -> {
                TableReader.NodeFigures f = reader.mergeGroups(p.scan().table(), withBroadcasts(p, all), a.keyCount(),
                        a.aggregates(), nodeLimits, cancel, sink);
                noted(p, f);
            });
            if (profile != null) {
                profile.put(p, OperatorFigures.of(groups[0], System.nanoTime() - t0));
            }
            return;
        }
        FinalAggregation merge = new FinalAggregation(a.keyCount(), a.aggregates(), memory);
        memory.revocable(merge::revoke);
        produce(a.input(), merge::acceptAll);
        merge.finish(out);
    }

    /**
     * GROUP BY on the coordinator as its input's rows arrive (groups that outgrow the memory spill,
     * but DISTINCT's sets of values cannot).
     */
    private void aggregate(RelNode.Aggregate a, Consumer<List<Object[]>> out) {
        Expr[] keys = a.keys().toArray(Expr[]::new);
        FinalAggregation whole = new FinalAggregation(keys.length, a.aggregates(), memory);
        memory.revocable(whole::revoke);
        produce(a.input(), batch -> {
            for (Object[] row : batch) {
                Object[] keyValues = new Object[keys.length];
                for (int i = 0; i < keyValues.length; i++) {
                    keyValues[i] = keys[i].eval(row);
                }
                whole.add(keyValues, row);
            }
        });
        whole.finish(out);
    }

    /**
     * Window functions on the coordinator over the rows its input gathers: sorted by partition and
     * order (spilling sorted runs), then a partition at a time (spilling one that does not fit).
     */
    private void window(RelNode.Window w, Consumer<List<Object[]>> out) {
        int width = w.input().fields().size();
        WindowOperator window = new WindowOperator(width, w.partitionKeys(), w.orderKeys(), w.calls(),
                RankLimit.of(width, w.calls(), filterAbove.get(w)), memory, "window functions (OVER)");
        memory.revocable(window::revoke);
        produce(w.input(), window::add);
        window.finish(out);
    }

    private void indexJoin(RelNode.IndexJoin j, Consumer<List<Object[]>> out) {
        int width = j.fields().size();
        fromManyThreads(out, sink -> looked(j, indexJoins.run(j, cancel, stored -> {
            Object[] row = new Object[width];
            for (int i = 0; i < width; i++) {
                row[i] = j.fields().get(i).type().fromStored(stored[i]);
            }
            sink.accept(row);
        })));
    }

    private void looked(RelNode join, IndexJoinRunner.Lookups l) {
        if (l != null) {
            lookups.put(join, l);
        }
    }

    /** Each row as many times as its count column says, in batches (a count may be large). */
    private void replicate(RelNode.Replicate r, Consumer<List<Object[]>> out) {
        RowBatches batches = new RowBatches(out);
        produce(r.input(), batch -> {
            for (Object[] row : batch) {
                long copies = row[r.countColumn()] instanceof Number n ? n.longValue() : 0;
                for (long i = 0; i < copies; i++) {
                    batches.add(row);
                }
            }
        });
        batches.flush();
    }

    /** LATERAL VIEW: each row once per row its generator makes of it. */
    private void generate(RelNode.Generate g, Consumer<List<Object[]>> out) {
        RowBatches batches = new RowBatches(out);
        produce(g.input(), batch -> {
            for (Object[] row : batch) {
                g.generator().generate(row, batches::add);
            }
        });
        batches.flush();
    }

    private void singleRow(RelNode.SingleRow s, Consumer<List<Object[]>> out) {
        List<Object[]> rows = new ArrayList<>();
        produce(s.input(), batch -> {
            rows.addAll(batch);
            if (rows.size() > 1) {
                throw new SqlException("21000", "a scalar subquery returned more than one row");
            }
        });
        out.accept(rows.isEmpty() ? List.<Object[]>of(new Object[s.fields().size()]) : rows);
    }

    /** LIMIT without ORDER BY: the rows after the first {@code offset}, up to {@code count}; the rest are dropped. */
    private void limit(RelNode.Limit l, Consumer<List<Object[]>> out) {
        long end = l.offset() + l.count() < 0 ? Long.MAX_VALUE : l.offset() + l.count();
        long[] seen = {0};
        Enough enough = new Enough();
        try {
            produce(l.input(), batch -> {
                if (seen[0] >= end) {
                    throw enough;
                }
                long from = Math.max(0, Math.min(batch.size(), l.offset() - seen[0]));
                long to = Math.max(from, Math.min(batch.size(), end - seen[0]));
                seen[0] += batch.size();
                if (to > from) {
                    out.accept(batch.subList((int) from, (int) to));
                }
                if (seen[0] >= end) {
                    throw enough; // its input stops here (and the nodes working for it are cancelled)
                }
            });
        } catch (RuntimeException e) {
            if (!enough.in(e)) {
                throw e;
            }
        }
    }

    /**
     * Thrown by a LIMIT once its rows came: the operators below it stop (a cross join would go on
     * making rows no one reads). It may reach the limit wrapped, by a reader of the nodes' rows.
     */
    private static final class Enough extends RuntimeException {
        Enough() {
            super("the limit has its rows", null, false, false);
        }

        /** Whether {@code e} is this, or was caused by it. */
        boolean in(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t == this) {
                    return true;
                }
                if (t.getCause() == t) {
                    return false;
                }
            }
            return false;
        }
    }

    /**
     * ORDER BY ... LIMIT: the first {@code offset + count} rows in the sort's order, kept as the
     * input's rows arrive, so the coordinator holds no more than those.
     */
    private void firstRows(RelNode.Sort s, long offset, long count, Consumer<List<Object[]>> out) {
        long kept = offset + count;
        if (kept < 0 || kept > Integer.MAX_VALUE - 8) {
            limit(new RelNode.Limit(s, offset, count), out);
            return;
        }
        long t0 = System.nanoTime();
        Watched watched = profile != null ? new Watched() : null;
        TopRows top = new TopRows(s.keys(), kept, memory, "sort (ORDER BY ... LIMIT " + count + ")");
        List<Object[]> first;
        try {
            produce(s.input(), top::add);
            first = top.sorted();
        } finally {
            if (watched != null) {
                held.put(s, watched.close());
            }
        }
        if (profile != null) {
            profile.put(s, OperatorFigures.of(first.size(), System.nanoTime() - t0));
        }
        inBatches(first.subList((int) Math.min(first.size(), offset), first.size()), out);
    }
}
