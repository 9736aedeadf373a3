package org.oooengine.optimizer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.CostTerms;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.AccessPath;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;
import org.oooengine.optimizer.plan.PlanNode;

/**
 * Left-deep dynamic programming over join orders (System R, as seed 004 extends it): for every set
 * of tables joined so far it keeps the cheapest plan per property — how the rows are held and on
 * which columns they are partitioned — and grows each by one table at a time along a join
 * predicate, with every join method the cost models allow there. A plan that is worse for one set
 * can be the start of the best plan for a larger one only through a different property, which is
 * why each property keeps its own best (the principle of optimality per interesting property); an
 * index-join pipeline, whose time is the busier of its disk and its CPU, keeps every pipeline not
 * dominated in both.
 *
 * <p>Plans take the shape the executors run: the driving table through an index range scan and a
 * pipeline of index joins on the daemons, then PSMJ jobs for the remaining joins; or PSMJ from the
 * start, its first job scanning the driving table in full (the access-path choice).
 */
public final class JoinOptimizer {
    /** Tasks in flight per node for out-of-order index joins unless told otherwise. */
    public static final int DEFAULT_BUDGET = 128;

    private final CostModel model;
    private final Map<String, TableFacts> tables;
    private final int oooBudget;

    /** How the rows of a partial plan are held. */
    enum Holding {
        /** Streaming through the daemons' index-join pipeline. */
        PIPELINE,
        /** Not read yet: the driving table, for the mappers of the first PSMJ job to scan. */
        UNREAD,
        /** Written by a PSMJ job, partitioned by its join value. */
        FILES
    }

    /** The interesting property a partial plan is kept per. */
    record Property(Holding holding, JoinMethod indexMethod, Set<String> partitionedOn) {
    }

    /**
     * A partial plan: its operators, and the work of its index-join pipeline and that work's time —
     * so far while rows stream through it, all of it once PSMJ jobs read what it wrote; null
     * without index joins.
     */
    private record Partial(long mask, Property property, PlanNode node, CostModel.Work work, CostModel.PipelineTime time) {
    }

    public JoinOptimizer(CostModel model, Map<String, TableFacts> tables) {
        this(model, tables, DEFAULT_BUDGET);
    }

    public JoinOptimizer(CostModel model, Map<String, TableFacts> tables, int oooBudget) {
        this.model = model;
        this.tables = Map.copyOf(tables);
        this.oooBudget = oooBudget;
    }

    /** The cheapest plan using only the {@code allowed} join methods. */
    public Plan optimize(JoinGraph graph, Set<JoinMethod> allowed) {
        List<Plan> all = candidates(graph, allowed);
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no plan for " + graph.name() + " with join methods " + allowed
                    + ": an index join needs the probed column to lead the primary key or a GLOBAL index");
        }
        return all.stream().min((a, b) -> Double.compare(a.estimatedSeconds(), b.estimatedSeconds())).orElseThrow();
    }

    /** The cheapest plan over all methods: out-of-order index joins and PSMJ. */
    public Plan optimize(JoinGraph graph) {
        return optimize(graph, EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ));
    }

    /** The best complete plan per property: what the search keeps at its last level. */
    public List<Plan> candidates(JoinGraph graph, Set<JoinMethod> allowed) {
        List<String> aliases = graph.aliases();
        long full = (1L << aliases.size()) - 1;
        Map<Long, Map<Property, List<Partial>>> best = new HashMap<>();
        for (Partial p : starts(graph, allowed)) {
            keep(best, p);
        }
        for (int size = 1; size < aliases.size(); size++) {
            List<Partial> level = new ArrayList<>();
            for (Map.Entry<Long, Map<Property, List<Partial>>> e : best.entrySet()) {
                if (Long.bitCount(e.getKey()) == size) {
                    e.getValue().values().forEach(level::addAll);
                }
            }
            for (Partial p : level) {
                for (int a = 0; a < aliases.size(); a++) {
                    if ((p.mask() & (1L << a)) == 0) {
                        for (Partial next : extend(graph, p, aliases.get(a), 1L << a, allowed)) {
                            keep(best, next);
                        }
                    }
                }
            }
        }
        // per property, the cheapest of the complete plans kept
        Collection<List<Partial>> done = best.getOrDefault(full, Map.of()).values();
        return done.stream().map(kept -> kept.stream().min(Comparator.comparingDouble(p -> p.node().seconds())).orElseThrow())
                .map(p -> plan(graph, p)).toList();
    }

    /**
     * The cost of one given plan: {@code order} the aliases after the driving one, {@code methods}
     * the method of each join; null when the executors cannot run that combination (an index join
     * after a PSMJ job, or on a column no index serves). The search's answer is the cheapest of these.
     */
    public Plan evaluate(JoinGraph graph, List<String> order, List<JoinMethod> methods) {
        Set<JoinMethod> allowed = EnumSet.copyOf(methods);
        JoinMethod first = methods.get(0);
        Partial p = starts(graph, allowed).stream()
                .filter(s -> first == JoinMethod.PSMJ ? s.property().holding() == Holding.UNREAD
                        : s.property().indexMethod() == first)
                .findFirst().orElse(null);
        List<String> aliases = graph.aliases();
        for (int k = 0; k < order.size() && p != null; k++) {
            JoinMethod m = methods.get(k);
            p = extend(graph, p, order.get(k), 1L << aliases.indexOf(order.get(k)), allowed).stream()
                    .filter(next -> ((PlanNode.Join) next.node()).method() == m).findFirst().orElse(null);
        }
        return p == null ? null : plan(graph, p);
    }

    private Plan plan(JoinGraph graph, Partial complete) {
        return new Plan(graph, (PlanNode.Join) complete.node(), budgetOf(complete.property().indexMethod()),
                complete.time());
    }

    /**
     * Keeps {@code p} if it may start the best plan for its property. Written rows are kept by their
     * time alone. A pipeline's time is the busier of its disk and its CPU, which later steps both
     * add to, and its later steps miss the cache more the more its earlier steps touched: a
     * pipeline cheaper now can end dearer, so every pipeline not dominated — in each part of its
     * time and in its touches of each object — is kept (a Pareto set, small in practice).
     */
    private void keep(Map<Long, Map<Property, List<Partial>>> best, Partial p) {
        List<Partial> kept = best.computeIfAbsent(p.mask(), m -> new HashMap<>())
                .computeIfAbsent(p.property(), k -> new ArrayList<>());
        if (p.property().holding() != Holding.PIPELINE) {
            if (kept.isEmpty() || p.node().seconds() < kept.get(0).node().seconds()) {
                kept.clear();
                kept.add(p);
            }
            return;
        }
        if (kept.stream().anyMatch(k -> dominates(k, p))) {
            return;
        }
        kept.removeIf(k -> dominates(p, k));
        kept.add(p);
    }

    private boolean dominates(Partial a, Partial b) {
        return a.time().dominates(b.time()) && a.work().touchesAtMost(b.work());
    }

    private int budgetOf(JoinMethod indexMethod) {
        return indexMethod == JoinMethod.INORDER_PNLJ ? 1 : oooBudget;
    }

    /** The driving table read both ways: by its range index for index joins, in full for PSMJ. */
    private List<Partial> starts(JoinGraph graph, Set<JoinMethod> allowed) {
        String alias = graph.driving();
        TableFacts t = table(graph, alias);
        double rows = graph.rangeRows() != null ? Math.max(1, graph.rangeRows()) : t.rows() * t.rangeFraction(graph.range());
        String predicate = graph.range().describe(t.type(graph.range().column()));
        List<Partial> out = new ArrayList<>();
        boolean indexed = t.index(graph.range().column()).isPresent();
        for (JoinMethod m : List.of(JoinMethod.OOO_PNLJ, JoinMethod.INORDER_PNLJ)) {
            if (allowed.contains(m) && indexed) {
                CostModel.Work w = model.indexRangeScan(t, graph.range().column(), rows);
                CostModel.PipelineTime time = model.pnljTime(w, budgetOf(m));
                PlanNode scan = new PlanNode.Scan(alias, t.name(), graph.range(), predicate, AccessPath.INDEX_RANGE, rows,
                        time.seconds());
                out.add(new Partial(1L, new Property(Holding.PIPELINE, m, Set.of(alias + "." + t.primaryKeyLead())), scan, w,
                        time));
            }
        }
        if (allowed.contains(JoinMethod.PSMJ)) {
            PlanNode scan = new PlanNode.Scan(alias, t.name(), graph.range(), predicate, AccessPath.FULL_SCAN, rows, 0);
            out.add(new Partial(1L, new Property(Holding.UNREAD, null, Set.of()), scan, null, null));
        }
        return out;
    }

    /** {@code p} joined with {@code alias} by every allowed method, if a predicate connects them. */
    private List<Partial> extend(JoinGraph graph, Partial p, String alias, long bit, Set<JoinMethod> allowed) {
        List<String> aliases = graph.aliases();
        JoinGraph.Edge edge = graph.edges().stream()
                .filter(e -> e.sideOf(alias) != null && (p.mask() & (1L << aliases.indexOf(JoinGraph.Edge.alias(e.otherSide(alias))))) != 0)
                .findFirst().orElse(null);
        if (edge == null) {
            return List.of(); // no predicate yet: a cross product is never a left-deep step here
        }
        String from = edge.otherSide(alias);
        String column = JoinGraph.Edge.column(edge.sideOf(alias));
        TableFacts fromTable = table(graph, JoinGraph.Edge.alias(from));
        TableFacts t = table(graph, alias);
        double inRows = p.node().rows();
        double rows = inRows * t.rows()
                / Math.max(fromTable.distinct(JoinGraph.Edge.column(from)), t.distinct(column));
        long mask = p.mask() | bit;
        List<Partial> out = new ArrayList<>();
        Property prop = p.property();
        if (prop.holding() == Holding.PIPELINE && t.probeable(column)) {
            // The pipeline's rows sit on the node of their driving row: partitioned on its key and the columns equal to it.
            boolean colocated = prop.partitionedOn().contains(from) && t.primaryKeyLead().equals(column)
                    && fromTable.type(JoinGraph.Edge.column(from)).equals(t.type(column));
            CostModel.Work w = model.probe(p.work(), t, column, inRows, rows, colocated);
            CostModel.PipelineTime time = model.pnljTime(w, budgetOf(prop.indexMethod()));
            PlanNode join = new PlanNode.Join(p.node(), alias, t.name(), from, column, prop.indexMethod(), rows,
                    time.seconds(), List.of());
            out.add(new Partial(mask, prop, join, w, time));
        }
        if (allowed.contains(JoinMethod.PSMJ) && !(prop.holding() == Holding.PIPELINE && p.node() instanceof PlanNode.Scan)) {
            List<CostTerms> jobs = new ArrayList<>();
            double before;
            double leftBytes;
            if (prop.holding() == Holding.UNREAD) {
                before = 0;
                leftBytes = fromTable.stats().bytes();
            } else if (prop.holding() == Holding.PIPELINE) {
                jobs.add(model.pnljJob(p.time(), inRows));
                before = jobs.get(0).seconds();
                leftBytes = inRows * carriedBytes(graph, p.mask());
            } else {
                before = p.node().seconds();
                leftBytes = inRows * carriedBytes(graph, p.mask());
            }
            CostTerms stage = model.psmjStage(leftBytes + t.stats().bytes(), inRows + t.rows(), rows);
            jobs.add(stage);
            PlanNode join = new PlanNode.Join(p.node(), alias, t.name(), from, column, JoinMethod.PSMJ, rows,
                    before + stage.seconds(), jobs);
            out.add(new Partial(mask, new Property(Holding.FILES, prop.indexMethod(), Set.of(from, alias + "." + column)),
                    join, p.work(), p.time()));
        }
        return out;
    }

    /**
     * Bytes per row a job writes after joining the tables in {@code mask}: their output columns and
     * the join columns still to come, at the width of their types.
     */
    private double carriedBytes(JoinGraph graph, long mask) {
        List<String> aliases = graph.aliases();
        Set<String> carried = new java.util.LinkedHashSet<>();
        for (String c : graph.output()) {
            if ((mask & (1L << aliases.indexOf(JoinGraph.Edge.alias(c)))) != 0) {
                carried.add(c);
            }
        }
        for (JoinGraph.Edge e : graph.edges()) {
            for (String side : List.of(e.left(), e.right())) {
                if ((mask & (1L << aliases.indexOf(JoinGraph.Edge.alias(side)))) != 0) {
                    carried.add(side);
                }
            }
        }
        double bytes = 0;
        for (String c : carried) {
            bytes += TableFacts.width(table(graph, JoinGraph.Edge.alias(c)).type(JoinGraph.Edge.column(c)));
        }
        return Math.max(1, bytes);
    }

    private TableFacts table(JoinGraph graph, String alias) {
        String name = graph.tables().get(alias);
        TableFacts t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no statistics for table " + name + "; run 'ooo analyze'");
        }
        return t;
    }
}
