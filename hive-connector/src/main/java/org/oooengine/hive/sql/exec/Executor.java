package org.oooengine.hive.sql.exec;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.oooengine.core.fragment.SortKey;
import org.oooengine.core.fragment.TopRows;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.fragment.FinalAggregation;
import org.oooengine.core.fragment.MemoryLimitExceededException;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.fragment.GroupTable;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Runs a plan on the coordinator: table scans stream in from the {@link TableReader} (filtered
 * and pruned as they arrive), join chains from the nodes through the {@link IndexJoinRunner};
 * hash joins, aggregation and sorting run in memory over the rows that remain. Checks for
 * cancellation between batches of rows.
 */
public final class Executor {
    private static final int CHECK_EVERY = 4096;

    private final TableReader reader;
    private final IndexJoinRunner indexJoins;
    private final Cancellation cancel;
    private final long memoryPerNode;
    /** What this statement's operators hold here, on the coordinator. */
    private final QueryMemory memory;
    private Map<RelNode.Scan, BitSet> usage;
    /** Per operator, when profiling (EXPLAIN ANALYZE): rows out and nanoseconds, its inputs included. */
    private Map<RelNode, long[]> profile;
    /** EXPLAIN ANALYZE: what the nodes reported of each pipeline they ran. */
    private final Map<RelNode, TableReader.NodeFigures> figures = Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    public Executor(TableReader reader, IndexJoinRunner indexJoins, Cancellation cancel) {
        this(reader, indexJoins, cancel, QueryMemory.unbounded(), 0);
    }

    /**
     * @param memory        what the statement's operators may hold on the coordinator: gathered rows, hash
     *                      join builds, groups
     * @param memoryPerNode what the operators of each node pipeline may hold there (0: the node's default)
     */
    public Executor(TableReader reader, IndexJoinRunner indexJoins, Cancellation cancel, QueryMemory memory,
                    long memoryPerNode) {
        this.reader = reader;
        this.indexJoins = indexJoins;
        this.cancel = cancel;
        this.memory = memory;
        this.memoryPerNode = memoryPerNode;
    }

    public List<Object[]> run(RelNode root) {
        usage = ColumnUsage.of(root);
        try {
            return eval(root);
        } catch (MemoryLimitExceededException e) {
            throw new SqlException(SqlException.OUT_OF_MEMORY, e.getMessage(), e);
        } finally {
            memory.close(); // spill files a failed statement left
        }
    }

    /**
     * Runs the plan and returns, per operator, its rows and its time including its inputs'; for a
     * pipeline of the nodes also the rows they read, the slowest node's time and the bytes spilled.
     */
    public Map<RelNode, long[]> profile(RelNode root) {
        profile = Collections.synchronizedMap(new java.util.IdentityHashMap<>()); // shuffles report from the network's threads
        run(root);
        figures.forEach((node, f) -> {
            long[] m = profile.get(node);
            if (m != null && f != TableReader.NodeFigures.NONE) {
                profile.put(node, new long[] {m[0], m[1], f.rowsScanned(), f.slowestNanos(), f.spilledBytes()});
            }
        });
        return profile;
    }

    private List<Object[]> eval(RelNode node) {
        if (profile == null) {
            return evalOperator(node);
        }
        long t0 = System.nanoTime();
        List<Object[]> rows = evalOperator(node);
        profile.put(node, new long[] {rows.size(), System.nanoTime() - t0});
        return rows;
    }

    private List<Object[]> evalOperator(RelNode node) {
        cancel.check();
        if (node instanceof RelNode.Scan s) {
            return collect(s);
        } else if (node instanceof RelNode.Filter f) {
            return filter(eval(f.input()), f.condition());
        } else if (node instanceof RelNode.Project p) {
            return project(eval(p.input()), p.exprs());
        } else if (node instanceof RelNode.Join j) {
            return HashJoin.run(j, eval(j.left()), eval(j.right()), cancel, memory);
        } else if (node instanceof RelNode.Aggregate a) {
            return aggregate(a);
        } else if (node instanceof RelNode.Sort s) {
            return sort(eval(s.input()), s.keys());
        } else if (node instanceof RelNode.Limit l && l.input() instanceof RelNode.Sort s) {
            return firstRows(s, l.offset(), l.count());
        } else if (node instanceof RelNode.Limit l) {
            List<Object[]> in = eval(l.input());
            int from = (int) Math.min(in.size(), l.offset());
            return in.subList(from, (int) Math.min(in.size(), from + l.count()));
        } else if (node instanceof RelNode.Values v) {
            return v.rows();
        } else if (node instanceof RelNode.IndexJoin j) {
            return indexJoin(j);
        } else if (node instanceof RelNode.SingleRow s) {
            return singleRow(eval(s.input()), s.fields().size());
        } else if (node instanceof RelNode.NodePipeline p) {
            return collect(p);
        } else if (node instanceof RelNode.FinalAggregate a) {
            return finalAggregate(a);
        } else if (node instanceof RelNode.Union u) {
            List<Object[]> all = new ArrayList<>();
            for (RelNode input : u.inputs()) {
                all.addAll(eval(input));
            }
            return all;
        }
        throw new IllegalStateException("no executor for " + node.getClass().getSimpleName());
    }

    /**
     * Feeds a chain of scan, filters and projections to {@code sink} row by row as the nodes send
     * them (from several threads at once); any other operator runs first and is then fed.
     */
    private void stream(RelNode node, Consumer<Object[]> sink) {
        if (node instanceof RelNode.Scan s) {
            // the filter runs where the rows are; they come back as table rows with the columns the plan reads
            List<PipelineStep> steps = s.filter() == null ? List.of() : List.of(new PipelineStep.Filter(s.filter()));
            reader.pipeline(s.table(), ScanPipeline.of(s.table().storage(), s.fields().size(), steps,
                    usage.getOrDefault(s, new BitSet())), cancel, sink);
        } else if (node instanceof RelNode.NodePipeline p) {
            BitSet all = new BitSet();
            all.set(0, p.fields().size());
            run(p, p, all, sink);
        } else if (node instanceof RelNode.Filter f) {
            stream(f.input(), row -> {
                if (Boolean.TRUE.equals(f.condition().eval(row))) {
                    sink.accept(row);
                }
            });
        } else if (node instanceof RelNode.Project p) {
            stream(p.input(), row -> {
                Object[] out = new Object[p.exprs().size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = p.exprs().get(i).eval(row);
                }
                sink.accept(out);
            });
        } else {
            eval(node).forEach(sink);
        }
    }

    /**
     * Runs {@code p} on the nodes, reading only {@code neededAfter} of its output: its broadcast
     * inputs are computed here first and their rows put in the pipeline; its shuffles' producing
     * pipelines run on the nodes beside it.
     */
    private void run(RelNode.NodePipeline p, RelNode reportAs, BitSet neededAfter, Consumer<Object[]> sink) {
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
                    shuffle.keyColumn(), producer.fields().get(shuffle.keyColumn()).type(), sent -> {
                        if (profile != null) { // EXPLAIN ANALYZE: what the producers sent, and when they were done
                            profile.put(producer, new long[] {sent.rows(), System.nanoTime() - t0, sent.bytes()});
                        }
                    }));
        }
        TableReader.NodeFigures f = reader.pipeline(p.scan().table(), withBroadcasts(p, neededAfter), shuffles, memoryPerNode,
                cancel, sink);
        if (profile != null) {
            figures.put(reportAs, f);
        }
    }

    /** What the nodes run for {@code p}, its broadcast inputs (also those its local builds join) computed here and put in. */
    private ScanPipeline withBroadcasts(RelNode.NodePipeline p, BitSet neededAfter) {
        int width = p.scan().fields().size();
        Map<JoinBuild, BitSet> carried = ScanPipeline.sentColumns(width, p.steps(), neededAfter);
        Map<JoinBuild, List<Object[]>> computed = new java.util.HashMap<>();
        return ScanPipeline.of(p.scan().table().storage(), width, p.steps(), neededAfter).withBuilds(build ->
                build instanceof JoinBuild.Broadcast b
                        ? new JoinBuild.Rows(computed.computeIfAbsent(b, x -> broadcastRows(p.broadcasts().get(b.slot()),
                        carried.getOrDefault(b, new BitSet()))))
                        : build);
    }

    /** A broadcast input's rows, with only {@code columns} read when it is a pipeline of the nodes. */
    private List<Object[]> broadcastRows(RelNode input, BitSet columns) {
        if (!(input instanceof RelNode.NodePipeline p)) {
            return eval(input);
        }
        long t0 = System.nanoTime();
        List<Object[]> rows = Collections.synchronizedList(new ArrayList<>());
        run(onlyRead(p, columns), p, columns, rows::add);
        if (profile != null) {
            profile.put(p, new long[] {rows.size(), System.nanoTime() - t0});
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
        return new RelNode.NodePipeline(p.scan(), steps, p.broadcasts(), p.shuffles(), p.fields());
    }

    /** The rows of a scan or a pipeline on the nodes, as they arrive. */
    private List<Object[]> collect(RelNode node) {
        List<Object[]> out = Collections.synchronizedList(new ArrayList<>());
        stream(node, row -> {
            memory.reserve("rows gathered", QueryMemory.rowBytes(row));
            out.add(row);
        });
        return out;
    }

    /** Merges the groups' partial states as the nodes send them, or has the nodes merge them. */
    private List<Object[]> finalAggregate(RelNode.FinalAggregate a) {
        RelNode.NodePipeline p = a.input();
        if (a.onNodes() && reader.mergesGroupsOnNodes(p.scan().table())) {
            BitSet all = new BitSet();
            all.set(0, p.fields().size());
            List<Object[]> out = Collections.synchronizedList(new ArrayList<>());
            TableReader.NodeFigures f = reader.mergeGroups(p.scan().table(), withBroadcasts(p, all), a.keyCount(),
                    a.aggregates(), memoryPerNode, cancel, row -> {
                        memory.reserve("rows gathered", QueryMemory.rowBytes(row));
                        out.add(row);
                    });
            if (profile != null) {
                figures.put(p, f);
                profile.put(p, new long[] {out.size(), 0});
            }
            return out;
        }
        FinalAggregation merge = new FinalAggregation(a.keyCount(), a.aggregates(), memory);
        if (profile == null) {
            stream(a.input(), merge::accept);
        } else {
            eval(a.input()).forEach(merge::accept); // EXPLAIN ANALYZE counts the gathered rows
        }
        cancel.check();
        return merge.results();
    }

    private List<Object[]> indexJoin(RelNode.IndexJoin j) {
        List<Object[]> out = Collections.synchronizedList(new ArrayList<>());
        int width = j.fields().size();
        indexJoins.run(j, cancel, stored -> {
            Object[] row = new Object[width];
            for (int i = 0; i < width; i++) {
                row[i] = j.fields().get(i).type().fromStored(stored[i]);
            }
            out.add(row);
        });
        cancel.check();
        return out;
    }

    private static List<Object[]> singleRow(List<Object[]> rows, int width) {
        if (rows.size() > 1) {
            throw new SqlException("21000", "a scalar subquery returned " + rows.size() + " rows, not one");
        }
        return rows.isEmpty() ? List.<Object[]>of(new Object[width]) : rows;
    }

    private List<Object[]> filter(List<Object[]> in, Expr condition) {
        List<Object[]> out = new ArrayList<>();
        int n = 0;
        for (Object[] row : in) {
            if (++n % CHECK_EVERY == 0) {
                cancel.check();
            }
            if (Boolean.TRUE.equals(condition.eval(row))) {
                out.add(row);
            }
        }
        return out;
    }

    private List<Object[]> project(List<Object[]> in, List<Expr> exprs) {
        List<Object[]> out = new ArrayList<>(in.size());
        int n = 0;
        for (Object[] row : in) {
            if (++n % CHECK_EVERY == 0) {
                cancel.check();
            }
            Object[] r = new Object[exprs.size()];
            for (int i = 0; i < r.length; i++) {
                r[i] = exprs.get(i).eval(row);
            }
            out.add(r);
        }
        return out;
    }

    /**
     * GROUP BY as its input's rows arrive: a scan with its filters and projections is not kept in
     * memory first (TPC-H Q1 reads six million rows at SF 1 into four groups). Rows may come from
     * several nodes at once; only the groups' update is serialised.
     */
    private List<Object[]> aggregate(RelNode.Aggregate a) {
        GroupTable groups = new GroupTable(a.aggregates(), memory, "aggregation");
        Expr[] keys = a.keys().toArray(Expr[]::new);
        Consumer<Object[]> add = row -> {
            Object[] keyValues = new Object[keys.length];
            for (int i = 0; i < keyValues.length; i++) {
                keyValues[i] = keys[i].eval(row);
            }
            synchronized (groups) {
                groups.group(keyValues).add(row);
            }
        };
        if (profile == null) {
            stream(a.input(), add);
        } else {
            eval(a.input()).forEach(add); // EXPLAIN ANALYZE counts every operator's rows
        }
        cancel.check();
        if (groups.isEmpty() && keys.length == 0) {
            groups.group(new Object[0]);
        }
        List<Object[]> out = new ArrayList<>(groups.groups().size());
        groups.groups().forEach(g -> out.add(g.result()));
        return out;
    }

    private List<Object[]> sort(List<Object[]> in, List<SortKey> keys) {
        List<Object[]> out = new ArrayList<>(in);
        out.sort(SortKey.order(keys));
        cancel.check();
        return out;
    }

    /**
     * ORDER BY ... LIMIT: the first {@code offset + count} rows in the sort's order, kept as the
     * input's rows arrive, so the coordinator holds no more than those.
     */
    private List<Object[]> firstRows(RelNode.Sort s, long offset, long count) {
        long kept = offset + count;
        if (kept < 0 || kept > Integer.MAX_VALUE - 8) {
            return sort(eval(s.input()), s.keys());
        }
        long t0 = System.nanoTime();
        TopRows top = new TopRows(s.keys(), kept, memory, "sort (ORDER BY ... LIMIT " + count + ")");
        Consumer<Object[]> add = row -> {
            synchronized (top) {
                top.add(row);
            }
        };
        if (profile == null) {
            stream(s.input(), add);
        } else {
            eval(s.input()).forEach(add); // EXPLAIN ANALYZE counts every operator's rows
        }
        cancel.check();
        List<Object[]> first = top.sorted();
        if (profile != null) {
            profile.put(s, new long[] {first.size(), System.nanoTime() - t0});
        }
        return first.subList((int) Math.min(first.size(), offset), first.size());
    }
}
