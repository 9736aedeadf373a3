package org.oooengine.hive.sql.analyze;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.IndexJoinMatcher;
import org.oooengine.optimizer.rel.JoinGraph;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Plans a group of inner-joined relations with their conditions (ON clauses and WHERE). A
 * conjunct on one relation filters it before any join (a scan applies it while reading); the
 * relations are then joined left-deep in FROM order, each next relation preferring one linked to
 * those joined by an equality, and each conjunct is applied at the first join where all its
 * columns are present — as a hash key when it equates the two sides. When the group is a chain
 * the engine's index join can run, the plan offers both ({@link RelNode.IndexJoinCandidate}); the
 * physical planning chooses.
 */
final class JoinPlanner {
    private JoinPlanner() {
    }

    /** {@code leaves} inner-joined under {@code conditions}, conjuncts over their concatenated columns. */
    static RelNode plan(List<RelNode> leaves, List<Expr> conditions) {
        List<Field> all = new ArrayList<>();
        int[] offset = new int[leaves.size() + 1];
        for (int i = 0; i < leaves.size(); i++) {
            offset[i] = all.size();
            all.addAll(leaves.get(i).fields());
        }
        offset[leaves.size()] = all.size();
        List<Expr> conjuncts = new ArrayList<>();
        conditions.forEach(c -> conjuncts.addAll(Exprs.conjuncts(c)));
        for (Expr c : List.copyOf(conjuncts)) {
            if (c instanceof Expr.Or or) {
                Exprs.commonConjuncts(or).stream().filter(x -> !conjuncts.contains(x)).forEach(conjuncts::add);
                impliedPerLeaf(or, offset, leaves.size()).stream().filter(x -> !conjuncts.contains(x)).forEach(conjuncts::add);
            }
        }
        return new JoinPlanner.Group(leaves, offset, conjuncts, all).plan();
    }

    /**
     * For each relation that every branch of {@code or} filters, the OR of those filters: a
     * condition on that relation alone which the OR implies. {@code (n1 = 'FRANCE' AND n2 = 'GERMANY')
     * OR (n1 = 'GERMANY' AND n2 = 'FRANCE')} implies {@code n1 = 'FRANCE' OR n1 = 'GERMANY'}, which
     * filters n1 before any join while the OR itself still runs where both are joined.
     */
    static List<Expr> impliedPerLeaf(Expr.Or or, int[] offset, int leaves) {
        List<Expr> implied = new ArrayList<>();
        if (Exprs.columns(or).stream().map(c -> JoinGraph.leafOf(offset, c)).distinct().count() < 2) {
            return implied; // a filter of one relation already
        }
        for (int l = 0; l < leaves; l++) {
            int leaf = l;
            Expr own = Exprs.implied(or, term -> {
                BitSet cols = Exprs.columns(term);
                return !cols.isEmpty() && cols.stream().allMatch(c -> JoinGraph.leafOf(offset, c) == leaf);
            });
            if (own != null) {
                implied.add(own);
            }
        }
        return implied;
    }

    private static final class Group {
        private final List<RelNode> leaves;
        private final int[] offset;
        private final List<Expr> pending;
        private final List<Field> fields;

        Group(List<RelNode> leaves, int[] offset, List<Expr> conjuncts, List<Field> fields) {
            this.leaves = new ArrayList<>(leaves);
            this.offset = offset;
            this.pending = new ArrayList<>(conjuncts);
            this.fields = fields;
        }

        private BitSet leavesOf(Expr e) {
            BitSet out = new BitSet();
            Exprs.columns(e).stream().forEach(c -> out.set(JoinGraph.leafOf(offset, c)));
            return out;
        }

        RelNode plan() {
            pushDownSingleLeafConjuncts();
            int[] order = joinOrder();
            RelNode hashJoins = new JoinGraph(leaves, pending).leftDeep(order);
            IndexJoinMatcher.Match match = IndexJoinMatcher.match(leaves, offset, pending);
            if (match == null) {
                return hashJoins;
            }
            List<Integer> fromColumns = new ArrayList<>(); // the hash joins' columns: each table's, in join order
            for (int leaf : order) {
                for (int c = offset[leaf]; c < offset[leaf + 1]; c++) {
                    fromColumns.add(c);
                }
            }
            return new RelNode.IndexJoinCandidate(hashJoins, match.spec(), fields, fromColumns, recheck(match));
        }

        /** The tables in the order the hash joins join them: FROM order, each next preferring one linked to those joined. */
        private int[] joinOrder() {
            int n = leaves.size();
            int[] order = new int[n];
            BitSet joined = new BitSet();
            joined.set(0);
            for (int i = 1; i < n; i++) {
                order[i] = nextLeaf(joined);
                joined.set(order[i]);
            }
            return order;
        }

        /**
         * What runs again above the group run as one index join: every condition but the probes'
         * equalities (the join's range may be wider than the SQL predicate); null for none.
         */
        private Expr recheck(IndexJoinMatcher.Match match) {
            List<Expr> conditions = new ArrayList<>();
            for (int i = 0; i < leaves.size(); i++) {
                Expr f = ((RelNode.Scan) leaves.get(i)).filter();
                int shift = offset[i];
                if (f != null) {
                    conditions.add(Exprs.remap(f, x -> x + shift));
                }
            }
            pending.stream().filter(c -> !match.probeConditions().contains(c)).forEach(conditions::add);
            return conditions.isEmpty() ? null : Exprs.and(conditions);
        }

        /** The first leaf in FROM order linked to the joined ones by an equality; else the first not joined. */
        private int nextLeaf(BitSet joined) {
            JoinGraph graph = new JoinGraph(leaves, pending);
            for (int j = joined.nextClearBit(0); j < leaves.size(); j = joined.nextClearBit(j + 1)) {
                if (graph.linked(j, joined)) {
                    return j;
                }
            }
            return joined.nextClearBit(0);
        }

        /** Conjuncts on one relation become its filter (a scan's, or a Filter above a subquery). */
        private void pushDownSingleLeafConjuncts() {
            for (int i = 0; i < leaves.size(); i++) {
                List<Expr> local = new ArrayList<>();
                for (Expr c : List.copyOf(pending)) {
                    BitSet used = leavesOf(c);
                    if (used.cardinality() == 1 && used.get(i)) {
                        int shift = offset[i];
                        local.add(Exprs.remap(c, x -> x - shift));
                        pending.remove(c);
                    }
                }
                if (!local.isEmpty()) {
                    Expr filter = Exprs.and(local);
                    RelNode leaf = leaves.get(i);
                    leaves.set(i, leaf instanceof RelNode.Scan s && s.filter() == null ? s.withFilter(filter)
                            : new RelNode.Filter(leaf, filter));
                }
            }
        }
    }
}
