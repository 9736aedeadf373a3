package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.UnaryOperator;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprCodec;
import org.oooengine.core.sql.expr.Exprs;

/**
 * The work a node does on its own partition of one table before anything crosses the network:
 * scan it, decoding only {@code columns} into rows of {@code width} SQL values (the table's
 * declared columns, the others left null), then apply {@code steps} in order. The rows that come
 * out (for a partial aggregate: its groups' states) are what the node sends.
 *
 * <p>{@code slicedBy}: the column of the table whose equal values the steps need on one node (a
 * GROUP BY or window by it run whole on each node, a join building from the same slice of the
 * table), or -1. The engine's own tables are
 * partitioned so already; a table held in files is read in slices of that column's values, one
 * per node. The coordinator alone reads it: it is not sent.
 */
public record ScanPipeline(String table, int width, BitSet columns, List<PipelineStep> steps, int slicedBy) {
    public ScanPipeline {
        columns = (BitSet) columns.clone();
        steps = List.copyOf(steps);
        if (columns.length() > width) {
            throw new IllegalArgumentException("column " + (columns.length() - 1) + " of a table of " + width + " columns");
        }
        if (slicedBy < -1 || slicedBy >= width) {
            throw new IllegalArgumentException("sliced by column " + slicedBy + " of a table of " + width + " columns");
        }
    }

    /** A pipeline whose steps need no column's equal values on one node. */
    public ScanPipeline(String table, int width, BitSet columns, List<PipelineStep> steps) {
        this(table, width, columns, steps, -1);
    }

    /** This pipeline, its steps needing the equal values of {@code column} (-1: of none) on one node. */
    public ScanPipeline slicedBy(int column) {
        return new ScanPipeline(table, width, columns, steps, column);
    }

    /** This pipeline with every join's build source (also those of the pipelines that build its joins) mapped. */
    public ScanPipeline withBuilds(UnaryOperator<JoinBuild> map) {
        List<PipelineStep> mapped = new ArrayList<>(steps.size());
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.HashJoin j) {
                JoinBuild build = j.build() instanceof JoinBuild.Local local
                        ? new JoinBuild.Local(local.pipeline().withBuilds(map)) : map.apply(j.build());
                step = new PipelineStep.HashJoin(build, j.kind(), j.probeKeys(), j.buildKeys(), j.residual(), j.buildWidth());
            }
            mapped.add(step);
        }
        return new ScanPipeline(table, width, columns, mapped, slicedBy);
    }

    /** The ids of the staged rows this pipeline's joins build from. */
    public List<String> stagedIds() {
        return ids(build -> build instanceof JoinBuild.Staged staged ? staged.id() : null);
    }

    /** The exchanges this pipeline's joins build from. */
    public List<String> exchangeIds() {
        return ids(build -> build instanceof JoinBuild.Exchanged e ? e.exchangeId() : null);
    }

    /** Whether one of its joins (or theirs, for a local build's pipeline) builds from such a source. */
    public boolean buildsFrom(java.util.function.Predicate<JoinBuild> source) {
        return !ids(build -> source.test(build) ? "" : null).isEmpty();
    }

    private List<String> ids(java.util.function.Function<JoinBuild, String> idOf) {
        List<String> ids = new ArrayList<>();
        withBuilds(build -> {
            String id = idOf.apply(build);
            if (id != null) {
                ids.add(id);
            }
            return build;
        });
        return ids;
    }

    /**
     * A pipeline that reads what {@code steps} need of the table, and also {@code neededAfter}
     * when its rows leave as table rows (no projection or aggregate ends it). The pipelines that
     * build its joins are made to read what the join and the steps after it need of them.
     */
    public static ScanPipeline of(String table, int width, List<PipelineStep> steps, BitSet neededAfter) {
        List<PipelineStep> resolved = new ArrayList<>(steps);
        BitSet columns = columnsRead(width, resolved, neededAfter);
        return new ScanPipeline(table, width, columns, resolved);
    }

    /**
     * The input columns {@code steps} read, walking back from the end: a projection needs the
     * inputs of its outputs read after it, an aggregate only its own inputs, a join its keys, its residual and what comes after. Replaces each
     * local build's pipeline by one that reads only what the join needs of it.
     */
    static BitSet columnsRead(int inputWidth, List<PipelineStep> steps, BitSet neededAfter) {
        return columnsRead(inputWidth, steps, neededAfter, new java.util.HashMap<>());
    }

    /** The input columns {@code steps} read when {@code neededAfter} of their output columns are read after them. */
    public static BitSet inputsRead(int inputWidth, List<PipelineStep> steps, BitSet neededAfter) {
        return columnsRead(inputWidth, new ArrayList<>(steps), neededAfter);
    }

    /**
     * The columns each build of {@code steps} that other members send ({@link JoinBuild.Broadcast},
     * {@link JoinBuild.Shuffled}) must carry, by that placeholder: what its join and the steps
     * after the join read of it. Only these are read and sent.
     */
    public static java.util.Map<JoinBuild, BitSet> sentColumns(int inputWidth, List<PipelineStep> steps,
                                                               BitSet neededAfter) {
        java.util.Map<JoinBuild, BitSet> byBuild = new java.util.HashMap<>();
        columnsRead(inputWidth, new ArrayList<>(steps), neededAfter, byBuild);
        return byBuild;
    }

    private static BitSet columnsRead(int inputWidth, List<PipelineStep> steps, BitSet neededAfter,
                                      java.util.Map<JoinBuild, BitSet> sentNeeds) {
        int[] widths = new int[steps.size() + 1];
        widths[0] = inputWidth;
        for (int i = 0; i < steps.size(); i++) {
            widths[i + 1] = Pipeline.widthAfter(steps.get(i), widths[i]);
        }
        BitSet need = (BitSet) neededAfter.clone();
        for (int i = steps.size() - 1; i >= 0; i--) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.Filter f) {
                need.or(Exprs.columns(f.condition()));
            } else if (step instanceof PipelineStep.DropRepeats d) {
                for (Expr k : d.keys()) {
                    need.or(Exprs.columns(k));
                }
            } else if (step instanceof PipelineStep.Project p) {
                // only the outputs read after it: the others evaluate over nulls, and are not read
                BitSet read = new BitSet();
                for (int k = need.nextSetBit(0); k >= 0 && k < p.exprs().size(); k = need.nextSetBit(k + 1)) {
                    read.or(Exprs.columns(p.exprs().get(k)));
                }
                need = read;
            } else if (step instanceof PipelineStep.Expand e) {
                BitSet read = new BitSet();
                for (List<Expr> p : e.projections()) {
                    for (int k = need.nextSetBit(0); k >= 0 && k < p.size(); k = need.nextSetBit(k + 1)) {
                        read.or(Exprs.columns(p.get(k)));
                    }
                }
                need = read;
            } else if (step instanceof PipelineStep.MergePartials m) {
                need = new BitSet();
                need.set(0, m.inputWidth()); // a partial row is read whole
            } else if (step instanceof PipelineStep.Window w) {
                need = need.get(0, widths[i]); // the calls' columns are made here
                need.or(w.columnsRead());
            } else if (step instanceof PipelineStep.TopN t) {
                for (SortKey k : t.keys()) {
                    need.set(k.column());
                }
            } else if (step instanceof PipelineStep.Sort sort) {
                for (SortKey k : sort.keys()) {
                    need.set(k.column());
                }
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                need = aggregateInputs(a.keys(), a.aggregates());
            } else if (step instanceof PipelineStep.Aggregate a) {
                need = aggregateInputs(a.keys(), a.aggregates());
            } else if (step instanceof PipelineStep.HashJoin j) {
                int w = widths[i];
                BitSet joined = j.kind().leftOnly() ? need.get(0, w)
                        : j.kind().rightOnly() ? shifted(need, w) : (BitSet) need.clone();
                j.probeKeys().forEach(joined::set);
                j.buildKeys().forEach(k -> joined.set(w + k));
                if (j.residual() != null) {
                    joined.or(Exprs.columns(j.residual()));
                }
                need = joined.get(0, w);
                if (j.build() instanceof JoinBuild.Broadcast || j.build() instanceof JoinBuild.Shuffled) {
                    sentNeeds.merge(j.build(), joined.get(w, w + j.buildWidth()), (x, y) -> {
                        x.or(y);
                        return x;
                    });
                }
                if (j.build() instanceof JoinBuild.Local local) {
                    ScanPipeline b = local.pipeline();
                    List<PipelineStep> buildSteps = new ArrayList<>(b.steps());
                    BitSet buildColumns = columnsRead(b.width(), buildSteps, joined.get(w, w + j.buildWidth()), sentNeeds);
                    steps.set(i, new PipelineStep.HashJoin(new JoinBuild.Local(new ScanPipeline(b.table(), b.width(),
                            buildColumns, buildSteps, b.slicedBy())), j.kind(), j.probeKeys(), j.buildKeys(), j.residual(),
                            j.buildWidth()));
                }
            }
        }
        return need;
    }

    /** {@code bits} moved up by {@code by}. */
    private static BitSet shifted(BitSet bits, int by) {
        BitSet out = new BitSet();
        bits.stream().forEach(b -> out.set(b + by));
        return out;
    }

    private static BitSet aggregateInputs(List<Expr> keys, List<AggregateCall> aggregates) {
        BitSet need = new BitSet();
        for (Expr e : keys) {
            need.or(Exprs.columns(e));
        }
        for (AggregateCall call : aggregates) {
            if (call.arg() != null) {
                need.or(Exprs.columns(call.arg()));
            }
        }
        return need;
    }

    private static final byte FILTER = 1;
    private static final byte PROJECT = 2;
    private static final byte PARTIAL_AGGREGATE = 3;
    private static final byte HASH_JOIN = 4;
    private static final byte AGGREGATE = 5;
    private static final byte TOP_N = 6;
    private static final byte LIMIT = 7;
    private static final byte SORT = 8;
    private static final byte EXPAND = 9;
    /** Added after EXPAND; a node without it refuses the step by its tag (the frame version is unchanged). */
    private static final byte WINDOW = 10;
    /** Added with WINDOW: a window over a GROUP BY merged on the nodes (the frame version is unchanged). */
    private static final byte MERGE_PARTIALS = 11;
    /** An EXPAND whose copies the partial aggregate after it groups set by set (the frame version is unchanged). */
    private static final byte EXPAND_CASCADED = 12;
    /** A partial aggregate that may stop grouping (the frame version is unchanged; one that never does is PARTIAL_AGGREGATE). */
    private static final byte SKIPPING_PARTIAL_AGGREGATE = 13;
    /** Added after SKIPPING_PARTIAL_AGGREGATE (the frame version is unchanged). */
    private static final byte DROP_REPEATS = 14;
    private static final byte BUILD_LOCAL = 1;
    private static final byte BUILD_ROWS = 2;
    private static final byte BUILD_STAGED = 3;
    private static final byte BUILD_EXCHANGED = 4;
    /** Exchanged rows the node runs steps over before it builds (the frame version is unchanged). */
    private static final byte BUILD_EXCHANGED_MERGED = 5;
    /** Pipelines building joins of pipelines building joins...: more than any plan makes. */
    private static final int MAX_NESTING = 32;

    public byte[] toBytes() {
        PayloadWriter w = new PayloadWriter(256).putString(table).putVarInt(width);
        w.putBytes(columns.toByteArray()).putVarInt(steps.size());
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.Filter f) {
                w.put(FILTER);
                ExprCodec.write(w, f.condition());
            } else if (step instanceof PipelineStep.Project p) {
                w.put(PROJECT);
                ExprCodec.writeList(w, p.exprs());
            } else if (step instanceof PipelineStep.DropRepeats d) {
                w.put(DROP_REPEATS);
                ExprCodec.writeList(w, d.keys());
                w.putVarInt(d.keepPercent());
            } else if (step instanceof PipelineStep.Expand e) {
                w.put(e.cascaded() ? EXPAND_CASCADED : EXPAND).putVarInt(e.projections().size());
                e.projections().forEach(p -> ExprCodec.writeList(w, p));
            } else if (step instanceof PipelineStep.Window win) {
                w.put(WINDOW);
                WindowCodec.write(w, win);
            } else if (step instanceof PipelineStep.MergePartials m) {
                w.put(MERGE_PARTIALS).putVarInt(m.keyCount()).putVarInt(m.aggregates().size());
                m.aggregates().forEach(call -> ExprCodec.writeAggregate(w, call));
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                boolean skips = a.skipPercent() != PipelineStep.PartialAggregate.NEVER_SKIP;
                w.put(skips ? SKIPPING_PARTIAL_AGGREGATE : PARTIAL_AGGREGATE);
                writeAggregation(w, a.keys(), a.aggregates());
                if (skips) {
                    w.putVarInt(a.skipPercent());
                }
            } else if (step instanceof PipelineStep.Aggregate a) {
                w.put(AGGREGATE);
                writeAggregation(w, a.keys(), a.aggregates());
            } else if (step instanceof PipelineStep.TopN t) {
                w.put(TOP_N);
                writeSortKeys(w, t.keys());
                w.putVarInt((int) t.count());
            } else if (step instanceof PipelineStep.Sort sort) {
                w.put(SORT);
                writeSortKeys(w, sort.keys());
            } else if (step instanceof PipelineStep.Limit l) {
                w.put(LIMIT).putLong(l.count());
            } else if (step instanceof PipelineStep.HashJoin j) {
                w.put(HASH_JOIN);
                writeBuild(w, j.build());
                w.putVarInt(j.kind().ordinal());
                writeInts(w, j.probeKeys());
                writeInts(w, j.buildKeys());
                ExprCodec.writeOptional(w, j.residual());
                w.putVarInt(j.buildWidth());
            }
        }
        return w.toByteArray();
    }

    private static void writeBuild(PayloadWriter w, JoinBuild build) {
        if (build instanceof JoinBuild.Local l) {
            w.put(BUILD_LOCAL).putBytes(l.pipeline().toBytes());
        } else if (build instanceof JoinBuild.Rows rows) {
            w.put(BUILD_ROWS);
            ColumnarRows.write(w, rows.rows());
        } else if (build instanceof JoinBuild.Staged staged) {
            w.put(BUILD_STAGED).putString(staged.id());
        } else if (build instanceof JoinBuild.Exchanged e) {
            w.put(e.onArrival() == null ? BUILD_EXCHANGED : BUILD_EXCHANGED_MERGED).putString(e.exchangeId())
                    .putVarInt(e.producers()).put(e.byJoinKey() ? 1 : 0);
            if (e.onArrival() != null) {
                w.putBytes(e.onArrival().toBytes());
            }
        } else {
            Object named = build instanceof JoinBuild.Routed ? "rows routed by key" : build; // not its thousands of rows
            throw new IllegalStateException("the rows of " + named + " were not computed before the pipeline was sent");
        }
    }

    private static JoinBuild readBuild(PayloadReader r, int nesting) {
        byte tag = r.get();
        return switch (tag) {
            case BUILD_LOCAL -> new JoinBuild.Local(read(new PayloadReader(r.getBytes()), nesting + 1));
            case BUILD_ROWS -> new JoinBuild.Rows(ColumnarRows.readChunk(r));
            case BUILD_STAGED -> new JoinBuild.Staged(r.getString());
            case BUILD_EXCHANGED, BUILD_EXCHANGED_MERGED -> {
                String exchange = r.getString();
                int producers = r.getVarInt();
                if (producers < 1) {
                    throw new ProtocolException("an exchange with " + producers + " producers");
                }
                boolean byJoinKey = r.get() != 0;
                ScanPipeline onArrival = tag == BUILD_EXCHANGED ? null : read(new PayloadReader(r.getBytes()), nesting + 1);
                yield new JoinBuild.Exchanged(exchange, producers, byJoinKey, onArrival);
            }
            default -> throw new ProtocolException("unknown join build " + tag);
        };
    }

    private static void writeAggregation(PayloadWriter w, List<Expr> keys, List<AggregateCall> aggregates) {
        ExprCodec.writeList(w, keys);
        w.putVarInt(aggregates.size());
        aggregates.forEach(call -> ExprCodec.writeAggregate(w, call));
    }

    private static List<AggregateCall> readAggregates(PayloadReader r) {
        int calls = r.getCount(1);
        List<AggregateCall> aggregates = new ArrayList<>(calls);
        for (int c = 0; c < calls; c++) {
            aggregates.add(ExprCodec.readAggregate(r));
        }
        return aggregates;
    }

    private static void writeInts(PayloadWriter w, List<Integer> values) {
        w.putVarInt(values.size());
        values.forEach(w::putVarInt);
    }

    private static List<Integer> readInts(PayloadReader r) {
        int n = r.getCount(1);
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(r.getVarInt());
        }
        return out;
    }

    public static ScanPipeline read(PayloadReader r) {
        return read(r, 0);
    }

    private static ScanPipeline read(PayloadReader r, int nesting) {
        if (nesting > MAX_NESTING) {
            throw new ProtocolException("pipelines nested deeper than " + MAX_NESTING);
        }
        String table = r.getString();
        int width = r.getVarInt();
        BitSet columns = BitSet.valueOf(r.getBytes());
        int n = r.getCount(1);
        List<PipelineStep> steps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte tag = r.get();
            steps.add(switch (tag) {
                case FILTER -> new PipelineStep.Filter(ExprCodec.read(r));
                case PROJECT -> new PipelineStep.Project(ExprCodec.readList(r));
                case DROP_REPEATS -> {
                    var keys = ExprCodec.readList(r);
                    int percent = r.getVarInt();
                    yield valid(() -> new PipelineStep.DropRepeats(keys, percent));
                }
                case EXPAND, EXPAND_CASCADED -> {
                    int count = r.getCount(1);
                    List<List<Expr>> projections = new ArrayList<>(count);
                    for (int p = 0; p < count; p++) {
                        projections.add(ExprCodec.readList(r));
                    }
                    yield valid(() -> new PipelineStep.Expand(projections, tag == EXPAND_CASCADED));
                }
                case WINDOW -> WindowCodec.read(r);
                case MERGE_PARTIALS -> {
                    int keyCount = r.getVarInt();
                    var aggregates = readAggregates(r);
                    yield valid(() -> new PipelineStep.MergePartials(keyCount, aggregates));
                }
                case PARTIAL_AGGREGATE -> {
                    var keys = ExprCodec.readList(r);
                    var aggregates = readAggregates(r);
                    yield valid(() -> new PipelineStep.PartialAggregate(keys, aggregates));
                }
                case SKIPPING_PARTIAL_AGGREGATE -> {
                    var keys = ExprCodec.readList(r);
                    var aggregates = readAggregates(r);
                    int percent = r.getVarInt();
                    yield valid(() -> new PipelineStep.PartialAggregate(keys, aggregates, percent));
                }
                case AGGREGATE -> {
                    var keys = ExprCodec.readList(r);
                    var aggregates = readAggregates(r);
                    yield valid(() -> new PipelineStep.Aggregate(keys, aggregates));
                }
                case HASH_JOIN -> {
                    JoinBuild build = readBuild(r, nesting);
                    int kind = r.getVarInt();
                    if (kind < 0 || kind >= JoinKind.values().length) {
                        throw new ProtocolException("unknown join kind " + kind);
                    }
                    List<Integer> probeKeys = readInts(r);
                    List<Integer> buildKeys = readInts(r);
                    Expr residual = ExprCodec.readOptional(r);
                    int buildWidth = r.getVarInt();
                    yield valid(() -> new PipelineStep.HashJoin(build, JoinKind.values()[kind], probeKeys, buildKeys,
                            residual, buildWidth));
                }
                case TOP_N -> {
                    List<SortKey> keys = readSortKeys(r);
                    long count = r.getVarInt();
                    yield valid(() -> new PipelineStep.TopN(keys, count));
                }
                case SORT -> {
                    List<SortKey> keys = readSortKeys(r);
                    yield valid(() -> new PipelineStep.Sort(keys));
                }
                case LIMIT -> {
                    long count = r.getLong();
                    yield valid(() -> new PipelineStep.Limit(count));
                }
                default -> throw new ProtocolException("unknown pipeline step " + tag);
            });
        }
        return valid(() -> new ScanPipeline(table, width, columns, steps));
    }

    private static void writeSortKeys(PayloadWriter w, List<SortKey> keys) {
        w.putVarInt(keys.size());
        for (SortKey k : keys) {
            w.putVarInt(k.column()).put((k.ascending() ? 1 : 0) | (k.nullsFirst() ? 2 : 0));
        }
    }

    private static List<SortKey> readSortKeys(PayloadReader r) {
        int keyCount = r.getCount(2);
        List<SortKey> keys = new ArrayList<>(keyCount);
        for (int k = 0; k < keyCount; k++) {
            int column = r.getVarInt();
            byte flags = r.get();
            if (column < 0 || (flags & ~3) != 0) {
                throw new ProtocolException("a sort key on column " + column + " with flags " + flags);
            }
            keys.add(new SortKey(column, (flags & 1) != 0, (flags & 2) != 0));
        }
        return keys;
    }

    /** A part of a pipeline made from the wire: one its own checks refuse is a protocol error. */
    private static <T> T valid(java.util.function.Supplier<T> part) {
        try {
            return part.get();
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("a pipeline that cannot run: " + e.getMessage());
        }
    }
}
