package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A pipeline's steps over column batches. Runs of filters, projections, hash joins,
 * grouping sets' copies ({@link VectorExpand}), ended by an aggregate, a top-N or the pipeline's end, are
 * {@link VectorSegment}s; a step vectors cannot run (another join kind or key type, a distinct
 * aggregate) runs on rows of SQL values in a row {@link Pipeline} of its own, whose output becomes
 * the next segment's batches.
 */
final class VectorPipeline {
    private final VectorSegment head;
    /** Every stage after the head in order, to finish in that order: a finishing stage may still send rows on. */
    private final List<Runnable> finishers = new ArrayList<>();
    private final List<VectorSegment> segments = new ArrayList<>();
    private final List<Pipeline> rowStages = new ArrayList<>();
    private final BuildRows.Cache built;

    /** A run of steps for a segment, or (when {@link #rowStep} is set) one step on rows. */
    private record Stage(List<PipelineStep> steps, SqlType[] inputTypes, PipelineStep rowStep, int width) {
    }

    /**
     * @param inputTypes per input column its type, null for the columns the scan does not read
     * @param builds     what the joins build from
     */
    VectorPipeline(List<PipelineStep> steps, SqlType[] inputTypes, Pipeline.BuildSource builds,
                   Consumer<List<Object[]>> out, QueryMemory memory) {
        this.built = new BuildRows.Cache(builds, memory);
        Map<PipelineStep, VectorHashJoin> joins = new IdentityHashMap<>();
        Map<PipelineStep, VectorExpand> expands = new IdentityHashMap<>();
        List<Stage> stages = new ArrayList<>();
        List<PipelineStep> run = new ArrayList<>();
        SqlType[] runTypes = inputTypes.clone();
        SqlType[] types = runTypes;
        boolean endedByBuildRows = false;
        for (int i = 0; i < steps.size(); i++) {
            PipelineStep step = steps.get(i);
            int width = types.length;
            boolean vectorized = false;
            if (step instanceof PipelineStep.Filter f) {
                vectorized = f.condition().type().kind() == SqlType.Kind.BOOLEAN && VectorCompiler.compile(f.condition()) != null;
            } else if (step instanceof PipelineStep.DropRepeats d) {
                vectorized = VectorRepeatsDropped.of(d, QueryMemory.unbounded()) != null;
            } else if (step instanceof PipelineStep.Project p) {
                vectorized = p.exprs().stream().allMatch(e -> VectorCompiler.compile(e) != null);
                if (vectorized) {
                    types = p.exprs().stream().map(Expr::type).toArray(SqlType[]::new);
                }
            } else if (step instanceof PipelineStep.Expand e && VectorExpand.of(e) != null) {
                expands.put(e, VectorExpand.of(e));
                vectorized = true;
                types = e.projections().get(0).stream().map(Expr::type).toArray(SqlType[]::new);
            } else if (step instanceof PipelineStep.TopN && i == steps.size() - 1) {
                // not right after a step on rows or an aggregate: its rows come untyped, batches would gain nothing
                vectorized = !run.isEmpty() || stages.isEmpty();
            } else if (step instanceof PipelineStep.PartialAggregate p && i == steps.size() - 1) {
                vectorized = VectorAggregation.of(p, QueryMemory.unbounded(), rows -> { }) != null;
            } else if (step instanceof PipelineStep.Aggregate a && VectorAggregation.of(a, QueryMemory.unbounded(), rows -> { }) != null) {
                // a whole aggregate ends its run: its groups go on to the next when the input ends (as batches, see VectorSegment.input)
                run.add(step);
                stages.add(new Stage(run, runTypes, null, 0));
                run = new ArrayList<>();
                runTypes = typesRead(steps, i + 1, Pipeline.widthAfter(step, width));
                groupKeysProbed(a, laterJoinKeys(steps, i + 1), runTypes);
                types = runTypes;
                continue;
            } else if (step instanceof PipelineStep.HashJoin j && built.of(j, width).inMemory()) {
                BuildRows build = built.of(j, width);
                // a semi or anti join's output is its probe rows: only its residual reads the build columns;
                // a right semi or anti join's is the build rows, in the build's places
                boolean buildOut = j.kind().rightOnly();
                SqlType[] after = j.kind().leftOnly() ? new SqlType[width + j.buildWidth()]
                        : buildOut ? shifted(typesRead(steps, i + 1, j.buildWidth()), width)
                        : typesRead(steps, i + 1, width + j.buildWidth());
                if (j.residual() != null) {
                    columnTypes(List.of(j.residual()), after);
                }
                SqlType[] buildTypes = Arrays.copyOfRange(after, width, width + j.buildWidth());
                boolean[] read = j.kind().leftOnly() || buildOut ? null : columnsRead(steps, i + 1, width + j.buildWidth());
                ColumnarRows.Chunk columns = build.columns();
                List<Object[]> rows = columns != null ? null : build.rows();
                // a right semi or anti join's rows go on as the build's columns: typed where its values tell,
                // they leave as they came, not boxed
                List<Integer> typedFromValues = buildOut ? java.util.stream.IntStream.range(0, j.buildWidth()).boxed().toList()
                        : laterJoinKeys(steps, i + 1).stream().map(key -> key - width).toList();
                for (int c : typedFromValues) {
                    if (c >= 0 && c < buildTypes.length && buildTypes[c] == null) {
                        buildTypes[c] = columns != null ? keyType(columns.columns()[c]) : keyType(rows, c);
                    }
                }
                VectorHashJoin vj = columns != null ? VectorHashJoin.of(j, columns, types, buildTypes, read)
                        : VectorHashJoin.of(j, rows, types, buildTypes, read);
                if (vj != null && reserveTable(vj, build, memory)) {
                    joins.put(j, vj);
                    vectorized = true;
                    types = vj.outputTypes(types);
                }
                if (vj != null && buildOut && vectorized) {
                    // its rows come out when the input ends: to a run of the steps after it, or (the last
                    // step) to the output as they are
                    run.add(step);
                    stages.add(new Stage(run, runTypes, null, 0));
                    run = new ArrayList<>();
                    runTypes = typesRead(steps, i + 1, j.buildWidth());
                    types = runTypes;
                    endedByBuildRows = i == steps.size() - 1;
                    continue;
                }
            }
            if (vectorized) {
                run.add(step);
                continue;
            }
            stages.add(new Stage(run, runTypes, null, 0));
            stages.add(new Stage(null, null, step, width));
            int widthAfter = Pipeline.widthAfter(step, width);
            run = new ArrayList<>();
            runTypes = typesRead(steps, i + 1, widthAfter);
            types = runTypes;
        }
        if (!endedByBuildRows) { // (else the join's segment hands its batches to the output itself)
            stages.add(new Stage(run, runTypes, null, 0));
        }
        // Wire from the end: each stage sends its rows to the one after it.
        Consumer<List<Object[]>> next = out;
        List<Runnable> reversed = new ArrayList<>();
        VectorSegment segment = null;
        for (int s = stages.size() - 1; s >= 0; s--) {
            Stage stage = stages.get(s);
            if (stage.rowStep() == null) {
                segment = new VectorSegment(stage.steps(), stage.inputTypes(), joins, expands, built, next, memory);
                segments.add(segment);
                next = segment.input();
                if (s > 0) {
                    reversed.add(segment::finish);
                }
            } else {
                Pipeline rowStage = new Pipeline(List.of(stage.rowStep()), stage.width(), built, next, memory);
                rowStages.add(rowStage);
                reversed.add(rowStage::finish);
                next = rowStage::accept;
            }
        }
        this.head = segment;
        for (int i = reversed.size() - 1; i >= 0; i--) {
            finishers.add(reversed.get(i));
        }
    }

    /**
     * Has the joins stop making rows once {@code stop} says so (the rows wanted came out), or
     * throw from it (the pipeline was cancelled).
     */
    void stopWhen(java.util.function.BooleanSupplier stop) {
        segments.forEach(s -> s.stopWhen(stop));
        rowStages.forEach(p -> p.stopWhen(stop));
    }

    /**
     * The build rows of {@code join}, one of its steps, when they are held in memory (as columns
     * where they came so); else null.
     */
    ColumnarRows.Chunk buildRows(PipelineStep.HashJoin join) {
        return built.held(join);
    }

    /** How many of its steps run on rows rather than on batches. */
    int rowSteps() {
        return rowStages.size();
    }

    /** Runs a batch of input rows through the steps. */
    void accept(Batch batch) {
        head.accept(batch);
    }

    /** Runs input rows of SQL values through the steps: as batches where their values fit vectors, else row by row. */
    void acceptRows(List<Object[]> rows) {
        head.acceptRows(rows);
    }

    /** The rows its partial aggregate sent on ungrouped, once grouping them barely reduced them. */
    long rowsUngrouped() {
        return segments.stream().mapToLong(VectorSegment::rowsUngrouped).sum()
                + rowStages.stream().mapToLong(Pipeline::rowsUngrouped).sum();
    }

    /** The input has ended: each stage in turn sends what it held back (groups, unmatched build rows). */
    void finish() {
        head.finish();
        finishers.forEach(Runnable::run);
    }

    /**
     * Which columns of rows {@code width} wide the steps from {@code from} need, up to the first
     * step that makes new columns (a projection or an aggregate): null when all may be, because the
     * rows leave the pipeline as they are or a step that reads whole rows comes first. A join keeps
     * its probe side's positions, so the steps after it count too.
     */
    static boolean[] columnsRead(List<PipelineStep> steps, int from, int width) {
        boolean[] read = new boolean[width];
        for (int i = from; i < steps.size(); i++) {
            PipelineStep step = steps.get(i);
            List<Expr> exprs;
            boolean last = true;
            if (step instanceof PipelineStep.Filter f) {
                exprs = List.of(f.condition());
                last = false;
            } else if (step instanceof PipelineStep.DropRepeats d) {
                exprs = d.keys();
                last = false;
            } else if (step instanceof PipelineStep.HashJoin j) {
                j.probeKeys().stream().filter(k -> k < width).forEach(k -> read[k] = true);
                exprs = j.residual() == null ? List.of() : List.of(j.residual());
                last = j.kind().rightOnly();
            } else if (step instanceof PipelineStep.Project p) {
                exprs = p.exprs();
            } else if (step instanceof PipelineStep.Expand e) {
                exprs = e.projections().stream().flatMap(List::stream).toList();
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                exprs = aggregateInputs(a.keys(), a.aggregates());
            } else if (step instanceof PipelineStep.Aggregate a) {
                exprs = aggregateInputs(a.keys(), a.aggregates());
            } else {
                return null;
            }
            for (Expr e : exprs) {
                org.oooengine.core.sql.expr.Exprs.columns(e).stream().filter(c -> c < width).forEach(c -> read[c] = true);
            }
            if (last) {
                return read;
            }
        }
        return null;
    }

    private static List<Expr> aggregateInputs(List<Expr> keys, List<AggregateCall> calls) {
        List<Expr> all = new ArrayList<>(keys);
        calls.stream().map(AggregateCall::arg).filter(java.util.Objects::nonNull).forEach(all::add);
        return all;
    }

    /**
     * The probe keys of the joins from step {@code from} on, as long as columns keep their places (a
     * projection or a GROUP BY moves them). A step carries no key types: where such a key is a column
     * an earlier join's build brings, its type comes from the build's values ({@link #keyType}), so
     * that the later join runs on vectors too (TPC-H Q09's supplier join on lineitem's l_suppkey,
     * which the co-located join with orders brings, ran on rows).
     */
    static List<Integer> laterJoinKeys(List<PipelineStep> steps, int from) {
        List<Integer> keys = new ArrayList<>();
        for (int i = from; i < steps.size(); i++) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.HashJoin j && !j.kind().rightOnly()) {
                keys.addAll(j.probeKeys());
            } else if (!(step instanceof PipelineStep.Filter || step instanceof PipelineStep.DropRepeats)) {
                break;
            }
        }
        return keys;
    }

    /** {@code types} moved {@code by} places on: the build's columns behind the probe's in a pair. */
    private static SqlType[] shifted(SqlType[] types, int by) {
        SqlType[] out = new SqlType[by + types.length];
        System.arraycopy(types, 0, out, by, types.length);
        return out;
    }

    /**
     * The type of a column a chunk holds as integers, dates or strings; null for another (a
     * decimal's scale may differ in the next chunk, which a vector typed from this one would round).
     */
    static SqlType keyType(ColumnarRows.Column column) {
        if (column.held() == ColumnarRows.Held.STRINGS) {
            return SqlType.STRING;
        }
        if (column.held() != ColumnarRows.Held.LONGS) {
            return null;
        }
        return switch (column.longKind()) {
            case INT -> SqlType.INT;
            case LONG -> SqlType.BIGINT;
            case DATE -> SqlType.DATE;
            default -> null;
        };
    }

    /**
     * The type of column {@code c} of {@code rows}, from its first value: integers, dates or
     * strings; null for another or none.
     */
    private static SqlType keyType(List<Object[]> rows, int c) {
        for (Object[] row : rows) {
            Object v = c < row.length ? row[c] : null;
            if (v != null) {
                return v instanceof Integer ? SqlType.INT : v instanceof Long ? SqlType.BIGINT
                        : v instanceof java.time.LocalDate ? SqlType.DATE : v instanceof String ? SqlType.STRING : null;
            }
        }
        return null;
    }

    /**
     * The types of the columns (of rows {@code width} wide) that the steps from {@code from} read by
     * position, up to the first step that makes new columns (a projection, an aggregate or a merge
     * of partial groups); null for the others. Windows, sorts and limits keep their input's
     * positions, and a join its probe side's, so the steps after them count too.
     */
    static SqlType[] typesRead(List<PipelineStep> steps, int from, int width) {
        SqlType[] types = new SqlType[width];
        for (int i = from; i < steps.size(); i++) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.Filter f) {
                columnTypes(List.of(f.condition()), types);
            } else if (step instanceof PipelineStep.DropRepeats d) {
                columnTypes(d.keys(), types);
            } else if (step instanceof PipelineStep.HashJoin j) {
                if (j.residual() != null) {
                    columnTypes(List.of(j.residual()), types);
                }
                if (j.kind().rightOnly()) {
                    break;
                }
            } else if (step instanceof PipelineStep.Project p) {
                columnTypes(p.exprs(), types);
                break;
            } else if (step instanceof PipelineStep.Expand e) {
                e.projections().forEach(p -> columnTypes(p, types));
                break;
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                aggregateTypes(a.keys(), a.aggregates(), types);
                break;
            } else if (step instanceof PipelineStep.Aggregate a) {
                aggregateTypes(a.keys(), a.aggregates(), types);
                break;
            } else if (step instanceof PipelineStep.MergePartials) {
                break; // its groups are new columns: what follows reads those
            }
        }
        return types;
    }

    /**
     * Types the columns of {@code a}'s groups that the joins after it probe with ({@code probed}),
     * as the aggregate makes them: typed, the groups' rows become batches that the joins take
     * (TPC-DS Q23's sales counted per item and day, then joined with the items).
     */
    private static void groupKeysProbed(PipelineStep.Aggregate a, List<Integer> probed, SqlType[] into) {
        for (int c : probed) {
            SqlType type = c < a.keys().size() ? a.keys().get(c).type()
                    : c - a.keys().size() < a.aggregates().size() ? a.aggregates().get(c - a.keys().size()).type() : null;
            if (c < into.length && into[c] == null && type != null && Vector.representation(type) != null) {
                into[c] = type;
            }
        }
    }

    private static void aggregateTypes(List<Expr> keys, List<AggregateCall> calls, SqlType[] into) {
        columnTypes(keys, into);
        columnTypes(calls.stream().map(AggregateCall::arg).filter(java.util.Objects::nonNull).toList(), into);
    }

    /** Records the type of each column {@code exprs} read that lies within {@code into}. */
    static void columnTypes(List<Expr> exprs, SqlType[] into) {
        for (Expr e : exprs) {
            if (e instanceof Expr.Column c && c.index() < into.length && Vector.representation(c.type()) != null) {
                into[c.index()] = c.type();
            }
            columnTypes(e.children(), into);
        }
    }

    /**
     * Reserves what {@code join}'s table takes beyond the entry a row its build rows reserved as they
     * came. Where it does not fit and the join may spill, its rows go to disk instead and the join
     * runs on the row engine a partition at a time (false); where it may not, the query is refused
     * naming the table.
     */
    private static boolean reserveTable(VectorHashJoin join, BuildRows build, QueryMemory memory) {
        try {
            memory.reserve("hash join table of " + join.buildRows() + " rows",
                    Math.max(0, join.tableBytes() - HashJoinTable.ENTRY_BYTES * join.buildRows()));
            return true;
        } catch (MemoryLimitExceededException tooLarge) {
            if (!build.canSpill()) {
                throw tooLarge;
            }
            build.spillHeld();
            return false;
        }
    }
}
