package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.wire.ColumnarRows;

/**
 * Runs the steps of a {@link ScanPipeline} over batches of rows: filters and projections batch by
 * batch, passing each batch on; a join hands on what a probe makes a batch at a time; a partial
 * aggregate at the end keeps its groups until {@link #finish} and then sends their states, or
 * sooner when they fill their share of the memory. Rows are SQL values (see {@code SqlType}).
 */
public final class Pipeline {
    /** Rows per batch: large enough to amortise a call per step, small enough to stay in cache. */
    public static final int BATCH_ROWS = 1024;
    /** A partial aggregate's groups go on once they hold more than this share (a fraction) of the query's memory. */
    static final int PARTIAL_SHARE = 4;

    private final List<PipelineStep> steps;
    /** Per step, its hash table when it is a join whose build rows fit in memory, else null. */
    private final HashJoinTable[] joins;
    /** Per step, its partitions on disk when it is a join whose build rows did not fit, else null. */
    private final SpilledHashJoin[] spilledJoins;
    /** Per step, its groups when it is a whole aggregate (spilled when they outgrow the memory), else null. */
    private final FinalAggregation[] groupsAt;
    /** Per step, its groups when it merges partial rows, else null. */
    private final FinalAggregation[] mergesAt;
    /** Per step, its rows sorted by partition when it is a window, else null. */
    private final WindowOperator[] windowsAt;
    /** Per step, the keys it saw when it drops repeats, else null. */
    private final RepeatsDropped[] repeatsAt;
    private final PipelineStep.PartialAggregate aggregate;
    /** A partial aggregate's groups since it last sent them on. */
    private GroupTable groups;
    /**
     * A partial aggregate's rows grouped and groups made until it weighed them, whether it stopped
     * grouping then, and the rows it sent on ungrouped since.
     */
    private long rowsGrouped;
    private long groupsMade;
    private boolean ungrouped;
    private long rowsUngrouped;
    private final QueryMemory memory;
    /** The most a partial aggregate's groups hold before it sends them on: a share of the query's memory. */
    private final long partialShare;
    /** When the pipeline ends in a {@link PipelineStep.TopN}: the rows it keeps. */
    private final TopRows top;
    /** When the pipeline ends in a {@link PipelineStep.Sort}: the rows so far. */
    private final ExternalSort sorted;
    /** When the pipeline ends in a {@link PipelineStep.Limit}: how many more rows it lets out. */
    private final java.util.concurrent.atomic.AtomicLong remaining;
    private final Consumer<List<Object[]>> out;
    /** Counted apart: filters and projections may take batches from several threads at once. */
    private final LongAdder rowsIn = new LongAdder();
    private final LongAdder rowsOut = new LongAdder();
    private volatile java.util.function.BooleanSupplier stop = () -> false;

    /** Where a join's build rows come from: rows sent along, or a pipeline over another local table. */
    @FunctionalInterface
    public interface BuildSource {
        BuildSource ROWS_ONLY = ofRows((build, rows) -> {
            if (build instanceof JoinBuild.Rows r) {
                rows.accept(r.rows());
                return;
            }
            throw new IllegalArgumentException("no rows for " + build + " here");
        });

        /**
         * Hands {@code build}'s rows to {@code chunks} a chunk at a time: columns as they came over
         * the wire, or rows.
         */
        void read(JoinBuild build, Consumer<ColumnarRows.Chunk> chunks);

        /** As {@link #read}, each chunk as rows of SQL values. */
        default void readRows(JoinBuild build, Consumer<List<Object[]>> rows) {
            read(build, chunk -> rows.accept(chunk.rows()));
        }

        /** A source whose {@code reader} hands each build's rows on as rows. */
        static BuildSource ofRows(java.util.function.BiConsumer<JoinBuild, Consumer<List<Object[]>>> reader) {
            return (build, chunks) -> reader.accept(build, rows -> chunks.accept(ColumnarRows.Chunk.ofRows(rows)));
        }
    }

    /** A pipeline of filters, projections and partial aggregates only. */
    public Pipeline(List<PipelineStep> steps, Consumer<List<Object[]>> out) {
        this(steps, 0, BuildSource.ROWS_ONLY, out);
    }

    /**
     * A pipeline over rows of {@code inputWidth} columns whose joins build their tables from
     * {@code builds} now, before any row arrives.
     */
    public Pipeline(List<PipelineStep> steps, int inputWidth, BuildSource builds, Consumer<List<Object[]>> out) {
        this(steps, inputWidth, builds, out, QueryMemory.unbounded());
    }

    /**
     * As above, its hash tables and groups held against {@code memory}: the build rows and each
     * table's entries, each group. A join whose build rows do not fit spills them, and its probe
     * rows, to disk and joins them when the input ends ({@link SpilledHashJoin}).
     */
    public Pipeline(List<PipelineStep> steps, int inputWidth, BuildSource builds, Consumer<List<Object[]>> out,
                    QueryMemory memory) {
        this(steps, inputWidth, new BuildRows.Cache(builds, memory), out, memory);
    }

    /** As above, its joins' build rows those {@code builds} read or has read. */
    Pipeline(List<PipelineStep> steps, int inputWidth, BuildRows.Cache builds, Consumer<List<Object[]>> out,
             QueryMemory memory) {
        int last = steps.size() - 1;
        for (int i = 0; i < last; i++) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.PartialAggregate || step instanceof PipelineStep.TopN
                    || step instanceof PipelineStep.Limit || step instanceof PipelineStep.Sort) {
                throw new IllegalArgumentException("a partial aggregate, a top-N, a sort or a limit ends a pipeline");
            }
        }
        this.aggregate = last >= 0 && steps.get(last) instanceof PipelineStep.PartialAggregate a ? a : null;
        PipelineStep.TopN topN = last >= 0 && steps.get(last) instanceof PipelineStep.TopN t ? t : null;
        this.top = topN == null ? null : new TopRows(topN.keys(), topN.count(), memory, "top-N");
        PipelineStep.Limit limit = last >= 0 && steps.get(last) instanceof PipelineStep.Limit l ? l : null;
        this.remaining = limit == null ? null : new java.util.concurrent.atomic.AtomicLong(limit.count());
        PipelineStep.Sort sort = last >= 0 && steps.get(last) instanceof PipelineStep.Sort o ? o : null;
        this.sorted = sort == null ? null : new ExternalSort(sort.keys(), memory, "sort");
        boolean ended = aggregate != null || top != null || limit != null || sort != null;
        this.steps = ended ? List.copyOf(steps.subList(0, last)) : List.copyOf(steps);
        this.groups = aggregate == null ? null : new GroupTable(aggregate.aggregates(), memory, "partial aggregation");
        this.memory = memory;
        this.partialShare = Math.max(1 << 20, memory.limit() / PARTIAL_SHARE);
        this.out = out;
        this.joins = new HashJoinTable[this.steps.size()];
        this.spilledJoins = new SpilledHashJoin[this.steps.size()];
        this.groupsAt = new FinalAggregation[this.steps.size()];
        this.windowsAt = new WindowOperator[this.steps.size()];
        this.mergesAt = new FinalAggregation[this.steps.size()];
        this.repeatsAt = new RepeatsDropped[this.steps.size()];
        int width = inputWidth;
        for (int i = 0; i < this.steps.size(); i++) {
            PipelineStep step = this.steps.get(i);
            if (step instanceof PipelineStep.Aggregate a) {
                groupsAt[i] = new FinalAggregation(a.keys().size(), a.aggregates(), memory, "aggregation");
            }
            if (step instanceof PipelineStep.DropRepeats d) {
                repeatsAt[i] = new RepeatsDropped(d, memory);
            }
            if (step instanceof PipelineStep.MergePartials m) {
                mergesAt[i] = new FinalAggregation(m.keyCount(), m.aggregates(), memory, "aggregation merged on the node");
            }
            if (step instanceof PipelineStep.Window w) {
                // a filter next on its ranks lets it drop the rows that filter would
                Expr next = i + 1 < this.steps.size() && this.steps.get(i + 1) instanceof PipelineStep.Filter f
                        ? f.condition() : null;
                windowsAt[i] = new WindowOperator(width, w.partitionKeys(), w.orderKeys(), w.calls(),
                        RankLimit.of(width, w.calls(), next), memory, "window functions (OVER)");
            }
            if (inputWidth > 0) {
                checkColumns(step, i, width);
            }
            if (step instanceof PipelineStep.HashJoin j) {
                BuildRows built = builds.of(j, width);
                if (built.spilled() != null) {
                    spilledJoins[i] = built.spilled();
                } else {
                    joins[i] = new HashJoinTable(j.kind(), built.rows(), ints(j.buildKeys()), ints(j.probeKeys()),
                            j.residual(), width, j.buildWidth());
                }
            }
            width = widthAfter(step, width);
        }
    }

    /** A step that reads a column its input rows do not have is refused before it runs, by name. */
    private static void checkColumns(PipelineStep step, int index, int width) {
        BitSet read;
        int limit = width;
        if (step instanceof PipelineStep.HashJoin j) {
            read = new BitSet();
            j.probeKeys().forEach(read::set);
            j.buildKeys().forEach(k -> read.set(width + k));
            if (j.residual() != null) {
                read.or(Exprs.columns(j.residual()));
            }
            limit = width + j.buildWidth();
        } else {
            read = ScanPipeline.columnsRead(width, List.of(step), new BitSet());
        }
        if (read.length() > limit) {
            throw new IllegalArgumentException("step " + (index + 1) + " of the pipeline reads column " + (read.length() - 1)
                    + " of rows of " + limit);
        }
    }

    /** The width of a step's rows given its input's. */
    public static int widthAfter(PipelineStep step, int inputWidth) {
        if (step instanceof PipelineStep.Project p) {
            return p.exprs().size();
        }
        if (step instanceof PipelineStep.Expand e) {
            return e.width();
        }
        if (step instanceof PipelineStep.Window w) {
            return inputWidth + w.calls().size();
        }
        if (step instanceof PipelineStep.MergePartials m) {
            return m.keyCount() + m.aggregates().size();
        }
        if (step instanceof PipelineStep.Aggregate a) {
            return a.keys().size() + a.aggregates().size();
        }
        if (step instanceof PipelineStep.PartialAggregate a) {
            return a.keys().size() + a.aggregates().size() * AggregateCall.PARTIAL_WIDTH;
        }
        if (step instanceof PipelineStep.HashJoin j) {
            return j.kind().leftOnly() ? inputWidth : j.kind().rightOnly() ? j.buildWidth() : inputWidth + j.buildWidth();
        }
        return inputWidth;
    }

    private static int[] ints(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    public void accept(List<Object[]> batch) {
        rowsIn.add(batch.size());
        push(batch, 0);
    }

    /** Runs {@code rows} through the steps from {@code first} on. */
    private void push(List<Object[]> batch, int first) {
        List<Object[]> rows = batch;
        for (int i = first; i < steps.size(); i++) {
            if (rows.isEmpty() || enough()) {
                return;
            }
            if (groupsAt[i] != null) {
                addToWhole(groupsAt[i], ((PipelineStep.Aggregate) steps.get(i)).keys(), rows);
                return; // its groups go on when the input ends
            }
            if (mergesAt[i] != null) {
                mergesAt[i].acceptAll(rows);
                return; // its groups go on when the input ends
            }
            if (windowsAt[i] != null) {
                synchronized (windowsAt[i]) {
                    windowsAt[i].add(rows);
                }
                return; // its partitions go on when the input ends
            }
            if (spilledJoins[i] != null) {
                spilledJoins[i].addProbe(rows);
                return; // joined when the input ends
            }
            if (joins[i] != null) {
                int next = i + 1;
                joins[i].probe(rows, joined -> push(joined, next), this::enough);
                return; // each batch the probe made went on through the steps after it
            }
            rows = repeatsAt[i] != null ? repeatsAt[i].kept(rows) : apply(steps.get(i), rows);
        }
        if (aggregate != null) {
            aggregateBatch(rows);
        } else if (top != null) {
            synchronized (top) {
                top.add(rows);
            }
        } else if (sorted != null) {
            synchronized (sorted) {
                sorted.add(rows);
            }
        } else if (!rows.isEmpty()) {
            rows = firstOf(rows);
            if (!rows.isEmpty()) {
                rowsOut.add(rows.size());
                out.accept(rows);
            }
        }
    }

    /**
     * Whether no row need be made any more: a limit at the end let its rows out, or what takes
     * the rows has had enough ({@link #stopWhen}).
     */
    private boolean enough() {
        return remaining != null && remaining.get() == 0 || stop.getAsBoolean();
    }

    /**
     * Has the pipeline stop making rows, between the batches its joins make, once {@code stop}
     * says so (what takes its rows needs no more); {@code stop} may also throw (a
     * {@link java.util.concurrent.CancellationException}: the query was cancelled), so that a
     * join that multiplies its rows stops within a batch.
     */
    public void stopWhen(java.util.function.BooleanSupplier stop) {
        this.stop = stop;
    }

    /** The rows of a batch a limit at the end still lets out: all without one. */
    private List<Object[]> firstOf(List<Object[]> rows) {
        if (remaining == null) {
            return rows;
        }
        long before = remaining.getAndAccumulate(rows.size(), (left, n) -> Math.max(0, left - n));
        return before >= rows.size() ? rows : rows.subList(0, (int) before);
    }

    /** The input has ended: a partial aggregate sends its groups (one group without keys, even empty). */
    public void finish() {
        for (int i = 0; i < joins.length; i++) {
            int next = i + 1;
            if (joins[i] != null) {
                joins[i].buildRowsAtEnd(rows -> push(rows, next));
            } else if (spilledJoins[i] != null) {
                spilledJoins[i].finish(rows -> push(rows, next));
            } else if (groupsAt[i] != null) {
                groupsAt[i].finish(rows -> push(rows, next));
            } else if (windowsAt[i] != null) {
                windowsAt[i].finish(rows -> push(rows, next));
            } else if (mergesAt[i] != null) {
                mergesAt[i].finish(rows -> push(rows, next));
            }
        }
        if (top != null) {
            List<Object[]> first = top.sorted();
            for (int from = 0; from < first.size(); from += BATCH_ROWS) {
                emit(first.subList(from, Math.min(first.size(), from + BATCH_ROWS)));
            }
        }
        if (sorted != null) {
            sorted.finish(this::emit);
        }
        if (aggregate == null) {
            return;
        }
        synchronized (this) {
            if (groups.isEmpty() && aggregate.keys().isEmpty()) {
                groups.group(new Object[0]);
            }
            sendPartials();
        }
    }

    public long rowsIn() {
        return rowsIn.sum();
    }

    public long rowsOut() {
        return rowsOut.sum();
    }

    /** The rows its partial aggregate sent on as groups of their own, once grouping them barely reduced them. */
    public synchronized long rowsUngrouped() {
        return rowsUngrouped;
    }

    private void emit(List<Object[]> batch) {
        if (!batch.isEmpty()) {
            rowsOut.add(batch.size());
            out.accept(batch);
        }
    }

    private static List<Object[]> apply(PipelineStep step, List<Object[]> rows) {
        if (step instanceof PipelineStep.Filter f) {
            List<Object[]> kept = new ArrayList<>(rows.size());
            Expr condition = f.condition();
            for (Object[] row : rows) {
                if (Boolean.TRUE.equals(condition.eval(row))) {
                    kept.add(row);
                }
            }
            return kept;
        }
        if (step instanceof PipelineStep.Project p) {
            Expr[] exprs = p.exprs().toArray(Expr[]::new);
            List<Object[]> projected = new ArrayList<>(rows.size());
            for (Object[] row : rows) {
                Object[] r = new Object[exprs.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = exprs[i].eval(row);
                }
                projected.add(r);
            }
            return projected;
        }
        if (step instanceof PipelineStep.Expand e) {
            return expanded(e, rows);
        }
        throw new IllegalStateException("no batch form of " + step);
    }

    /** Each row once per projection of {@code e}, a row's copies one after the other. */
    private static List<Object[]> expanded(PipelineStep.Expand e, List<Object[]> rows) {
        Expr[][] projections = e.projections().stream().map(p -> p.toArray(Expr[]::new)).toArray(Expr[][]::new);
        List<Object[]> out = new ArrayList<>(rows.size() * projections.length);
        for (Object[] row : rows) {
            for (Expr[] exprs : projections) {
                Object[] r = new Object[exprs.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = exprs[i].eval(row);
                }
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Adds rows to the partial aggregate's groups. When they outgrow their share of the query's
     * memory (or the memory has no room for another), they go on as partial states and it starts
     * over empty: what merges them takes a group's states from anywhere, so sending early is right.
     */
    private synchronized void aggregateBatch(List<Object[]> rows) {
        Expr[] keys = aggregate.keys().toArray(Expr[]::new);
        if (ungrouped) {
            sendUngrouped(keys, rows); // as VectorAggregation does
            return;
        }
        for (Object[] row : rows) {
            Object[] keyValues = new Object[keys.length];
            for (int i = 0; i < keys.length; i++) {
                keyValues[i] = keys[i].eval(row);
            }
            GroupTable.Group g;
            int before = groups.size();
            try {
                g = groups.group(keyValues);
            } catch (MemoryLimitExceededException full) {
                if (groups.isEmpty()) {
                    throw full;
                }
                sendPartials();
                before = 0;
                g = groups.group(keyValues);
            }
            if (groups.size() > before) {
                groupsMade++;
            }
            g.add(row);
            if (groups.reservedBytes() > partialShare) {
                sendPartials();
            }
        }
        if (rowsGrouped < VectorAggregation.SKIP_SAMPLE_ROWS) {
            rowsGrouped += rows.size();
            if (rowsGrouped >= VectorAggregation.SKIP_SAMPLE_ROWS
                    && 100 * groupsMade > (long) aggregate.skipPercent() * rowsGrouped && keys.length > 0) {
                ungrouped = true;
                sendPartials();
            }
        }
    }

    /** Sends each row on as a group of its own: its keys, then every aggregate's state of that one row. */
    private void sendUngrouped(Expr[] keys, List<Object[]> rows) {
        List<Object[]> batch = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] keyValues = new Object[keys.length];
            for (int i = 0; i < keys.length; i++) {
                keyValues[i] = keys[i].eval(row);
            }
            GroupTable.Group g = new GroupTable.Group(keyValues, aggregate.aggregates());
            g.add(row);
            batch.add(g.partial());
        }
        rowsUngrouped += rows.size();
        emit(batch);
    }

    /** Sends the partial aggregate's groups on as partial states and starts over without them. */
    private void sendPartials() {
        GroupTable sent = groups;
        groups = new GroupTable(aggregate.aggregates(), memory, "partial aggregation");
        sendPartials(sent);
        memory.release(sent.reservedBytes());
    }

    private void sendPartials(GroupTable table) {
        List<Object[]> batch = new ArrayList<>(BATCH_ROWS);
        for (GroupTable.Group g : table.groups()) {
            batch.add(g.partial());
            if (batch.size() == BATCH_ROWS) {
                emit(batch);
                batch = new ArrayList<>(BATCH_ROWS);
            }
        }
        emit(batch);
    }

    private static void addToWhole(FinalAggregation whole, List<Expr> keyExprs, List<Object[]> rows) {
        Expr[] keys = keyExprs.toArray(Expr[]::new);
        for (Object[] row : rows) {
            Object[] keyValues = new Object[keys.length];
            for (int i = 0; i < keys.length; i++) {
                keyValues[i] = keys[i].eval(row);
            }
            whole.add(keyValues, row);
        }
    }
}
