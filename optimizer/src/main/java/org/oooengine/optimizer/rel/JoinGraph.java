package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * Relations inner-joined under conjuncts over their concatenated row (relation 0's columns, then
 * relation 1's, ...): what any order of joining them must satisfy. {@link #leftDeep} joins them
 * in a given order, each conjunct applied at the first join where all its columns are present —
 * as a hash key when it equates the two sides.
 */
public final class JoinGraph {
    private final List<RelNode> leaves;
    private final int[] offset;
    private final List<Expr> conjuncts;

    public JoinGraph(List<RelNode> leaves, List<Expr> conjuncts) {
        this.leaves = List.copyOf(leaves);
        this.conjuncts = List.copyOf(conjuncts);
        this.offset = new int[leaves.size() + 1];
        for (int i = 0; i < leaves.size(); i++) {
            offset[i + 1] = offset[i] + leaves.get(i).fields().size();
        }
    }

    /**
     * The relations under a tree of inner (and cross) joins, left to right, and its conditions over
     * their concatenated row, which is the tree's row: keys as equalities, residuals as conjuncts.
     */
    public static JoinGraph ofInnerJoins(RelNode.Join tree) {
        List<RelNode> leaves = new ArrayList<>();
        List<Expr> conjuncts = new ArrayList<>();
        flatten(tree, leaves, conjuncts);
        return new JoinGraph(leaves, conjuncts);
    }

    /** Whether {@code node} is a join that {@link #ofInnerJoins} takes apart. */
    public static boolean isInnerJoin(RelNode node) {
        return node instanceof RelNode.Join j && (j.kind() == JoinKind.INNER || j.kind() == JoinKind.CROSS);
    }

    private static void flatten(RelNode node, List<RelNode> leaves, List<Expr> conjuncts) {
        if (!isInnerJoin(node)) {
            leaves.add(node);
            return;
        }
        RelNode.Join j = (RelNode.Join) node;
        int base = leaves.stream().mapToInt(l -> l.fields().size()).sum();
        flatten(j.left(), leaves, conjuncts);
        int middle = leaves.stream().mapToInt(l -> l.fields().size()).sum();
        flatten(j.right(), leaves, conjuncts);
        List<Field> fields = j.fields();
        for (int i = 0; i < j.leftKeys().length; i++) {
            int l = j.leftKeys()[i];
            int r = j.left().fields().size() + j.rightKeys()[i];
            conjuncts.add(new Expr.Call(ScalarFunction.EQ, List.of(new Expr.Column(base + l, fields.get(l).type()),
                    new Expr.Column(middle + j.rightKeys()[i], fields.get(r).type())), SqlType.BOOLEAN));
        }
        if (j.residual() != null) {
            Exprs.conjuncts(Exprs.remap(j.residual(), c -> base + c)).forEach(conjuncts::add);
        }
    }

    /** This graph with each relation replaced by {@code replace} of it, which keeps its columns. */
    public JoinGraph withLeaves(java.util.function.UnaryOperator<RelNode> replace) {
        return new JoinGraph(leaves.stream().map(replace).toList(), conjuncts);
    }

    public List<RelNode> leaves() {
        return leaves;
    }

    public List<Expr> conjuncts() {
        return conjuncts;
    }

    /** The relations whose columns {@code e} reads. */
    public BitSet leavesOf(Expr e) {
        BitSet out = new BitSet();
        Exprs.columns(e).stream().forEach(c -> out.set(leafOf(c)));
        return out;
    }

    /** Where relation {@code leaf}'s columns start in the concatenated row. */
    public int start(int leaf) {
        return offset[leaf];
    }

    /** The relation a column of the concatenated row belongs to. */
    public int leafOf(int column) {
        return leafOf(offset, column);
    }

    /** The relation a column of the concatenated row belongs to; {@code offset[i]} is where relation i starts. */
    public static int leafOf(int[] offset, int column) {
        int i = 0;
        while (offset[i + 1] <= column) {
            i++;
        }
        return i;
    }

    /** Whether an equality conjunct links relation {@code leaf} to one of {@code joined}. */
    public boolean linked(int leaf, BitSet joined) {
        for (Expr c : conjuncts) {
            BitSet used = leavesOf(c);
            if (isEquality(c) && used.get(leaf) && used.cardinality() == 2 && used.intersects(joined)) {
                return true;
            }
        }
        return false;
    }

    /** Pairs {@code [column of a, column of b]} (each within its relation) that a conjunct equates. */
    public List<int[]> equalities(int a, int b) {
        List<int[]> out = new ArrayList<>();
        for (Expr c : conjuncts) {
            if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ
                    && call.args().get(0) instanceof Expr.Column l && call.args().get(1) instanceof Expr.Column r) {
                if (leafOf(l.index()) == a && leafOf(r.index()) == b) {
                    out.add(new int[] {l.index() - offset[a], r.index() - offset[b]});
                } else if (leafOf(l.index()) == b && leafOf(r.index()) == a) {
                    out.add(new int[] {r.index() - offset[a], l.index() - offset[b]});
                }
            }
        }
        return out;
    }

    /** A graph of the same conjuncts with relation {@code leaf} replaced by one of the same columns. */
    public JoinGraph withLeaf(int leaf, RelNode replacement) {
        List<RelNode> changed = new ArrayList<>(leaves);
        changed.set(leaf, replacement);
        return new JoinGraph(changed, conjuncts);
    }

    /** Whether a conjunct equates column {@code a} of relation {@code leafA} with column {@code b} of relation {@code leafB}. */
    public boolean equates(int leafA, int a, int leafB, int b) {
        int x = offset[leafA] + a;
        int y = offset[leafB] + b;
        for (Expr c : conjuncts) {
            if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ
                    && call.args().get(0) instanceof Expr.Column l && call.args().get(1) instanceof Expr.Column r
                    && ((l.index() == x && r.index() == y) || (l.index() == y && r.index() == x))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The relations joined left-deep in {@code order} (a permutation of all of them); the output
     * has their columns in that order, and conjuncts without columns filter the result.
     */
    public RelNode leftDeep(int[] order) {
        int[] position = new int[offset[leaves.size()]];
        BitSet joined = new BitSet();
        List<Expr> pending = new ArrayList<>(conjuncts);
        EqualColumns applied = new EqualColumns();
        RelNode current = null;
        for (int next : order) {
            int width = current == null ? 0 : current.fields().size();
            for (int c = offset[next]; c < offset[next + 1]; c++) {
                position[c] = width + c - offset[next];
            }
            joined.set(next);
            List<Expr> here = new ArrayList<>();
            for (Expr c : List.copyOf(pending)) {
                BitSet used = leavesOf(c);
                used.andNot(joined);
                if (used.isEmpty() && (current != null || !Exprs.columns(c).isEmpty())) {
                    if (!applied.redundant(c)) {
                        here.add(Exprs.remap(c, i -> position[i]));
                    }
                    pending.remove(c);
                }
            }
            RelNode leaf = leaves.get(next);
            if (current == null) {
                current = here.isEmpty() ? leaf : new RelNode.Filter(leaf, Exprs.and(here));
            } else {
                current = join(current, leaf, JoinKind.INNER, here);
            }
        }
        if (!pending.isEmpty()) { // conjuncts without columns (constants)
            current = new RelNode.Filter(current, Exprs.and(pending));
        }
        return current;
    }

    /**
     * How relations are joined: a relation alone ({@code leaf} >= 0), or the join of two shapes,
     * {@code left} the side whose rows flow through the join (the probe), {@code right} the one
     * held in a hash table.
     */
    public record Shape(int leaf, Shape left, Shape right) {
        public static Shape of(int leaf) {
            return new Shape(leaf, null, null);
        }

        public static Shape join(Shape left, Shape right) {
            return new Shape(-1, left, right);
        }

        /** The relations in the order their columns come out: the left side's, then the right's. */
        public int[] order() {
            List<Integer> out = new ArrayList<>();
            collect(out);
            return out.stream().mapToInt(Integer::intValue).toArray();
        }

        private void collect(List<Integer> out) {
            if (leaf >= 0) {
                out.add(leaf);
            } else {
                left.collect(out);
                right.collect(out);
            }
        }
    }

    /**
     * The relations joined as {@code shape} says (it covers them all); the output has their
     * columns in {@link Shape#order()}, each conjunct applied at the lowest join (or relation)
     * where all its columns are present, and conjuncts without columns filter the result.
     */
    public RelNode tree(Shape shape) {
        int[] position = new int[offset[leaves.size()]];
        List<Expr> pending = new ArrayList<>(conjuncts);
        RelNode out = build(shape, position, pending, new BitSet(), new EqualColumns());
        return pending.isEmpty() ? out : new RelNode.Filter(out, Exprs.and(pending));
    }

    /** The relations of {@code shape}, some of the graph's, joined under the conjuncts over them alone. */
    public RelNode subtree(Shape shape) {
        return build(shape, new int[offset[leaves.size()]], new ArrayList<>(conjuncts), new BitSet(), new EqualColumns());
    }

    /**
     * {@code shape} built with its relations' columns placed from 0 ({@code position}, by column of
     * the concatenated row) and the conjuncts it covers taken from {@code pending}, but for
     * equalities of columns {@code applied} below already made equal; {@code covered} gets its
     * relations.
     */
    private RelNode build(Shape shape, int[] position, List<Expr> pending, BitSet covered, EqualColumns applied) {
        if (shape.leaf() >= 0) {
            int leaf = shape.leaf();
            for (int c = offset[leaf]; c < offset[leaf + 1]; c++) {
                position[c] = c - offset[leaf];
            }
            covered.set(leaf);
            List<Expr> here = takeCovered(pending, covered, position, applied);
            return here.isEmpty() ? leaves.get(leaf) : new RelNode.Filter(leaves.get(leaf), Exprs.and(here));
        }
        BitSet leftCovered = new BitSet();
        RelNode left = build(shape.left(), position, pending, leftCovered, applied);
        BitSet rightCovered = new BitSet();
        RelNode right = build(shape.right(), position, pending, rightCovered, applied);
        int width = left.fields().size();
        rightCovered.stream().forEach(leaf -> {
            for (int c = offset[leaf]; c < offset[leaf + 1]; c++) {
                position[c] += width;
            }
        });
        covered.or(leftCovered);
        covered.or(rightCovered);
        return join(left, right, JoinKind.INNER, takeCovered(pending, covered, position, applied));
    }

    /**
     * The conjuncts of {@code pending} with columns, all of relations in {@code covered}, removed
     * and remapped; those equating columns already equal dropped.
     */
    private List<Expr> takeCovered(List<Expr> pending, BitSet covered, int[] position, EqualColumns applied) {
        List<Expr> here = new ArrayList<>();
        for (Expr c : List.copyOf(pending)) {
            BitSet used = leavesOf(c);
            if (!used.isEmpty()) {
                used.andNot(covered);
                if (used.isEmpty()) {
                    if (!applied.redundant(c)) {
                        here.add(Exprs.remap(c, i -> position[i]));
                    }
                    pending.remove(c);
                }
            }
        }
        return here;
    }

    /**
     * This graph with the equalities its equalities of columns imply between relations ({@link
     * EqualColumns}): a = b and b = c add a = c when a and c are of one type, in different
     * tables not yet equated on them. The search may then join the tables they link first;
     * whichever two of a class meet first, a third equality of it is dropped where it adds nothing.
     * Derived tables get none: their estimates are the least sure, and the new ways to join them
     * that TPC-DS offered (Q01's two uses of one GROUP BY, through store; Q31, Q64, Q65) were each
     * slower, a stage more for as many rows.
     */
    public JoinGraph closed() {
        EqualColumns classes = new EqualColumns();
        Map<Integer, Expr.Column> columns = new HashMap<>();
        Set<List<Integer>> equated = new HashSet<>();
        for (Expr c : conjuncts) {
            Expr.Column[] pair = EqualColumns.columnsOf(c);
            if (pair != null) {
                classes.redundant(c);
                columns.put(pair[0].index(), pair[0]);
                columns.put(pair[1].index(), pair[1]);
                equated.add(List.of(Math.min(pair[0].index(), pair[1].index()), Math.max(pair[0].index(), pair[1].index())));
            }
        }
        Map<Integer, List<Expr.Column>> byClass = new TreeMap<>();
        columns.keySet().stream().sorted().forEach(c -> byClass.computeIfAbsent(classes.classOf(c), k -> new ArrayList<>())
                .add(columns.get(c)));
        List<Expr> closed = new ArrayList<>(conjuncts);
        for (List<Expr.Column> members : byClass.values()) {
            for (int i = 0; i < members.size(); i++) {
                for (int j = i + 1; j < members.size(); j++) {
                    Expr.Column a = members.get(i);
                    Expr.Column b = members.get(j);
                    if (leafOf(a.index()) != leafOf(b.index()) && a.type().equals(b.type()) && scanned(a) && scanned(b)
                            && !equated.contains(List.of(a.index(), b.index()))) {
                        closed.add(new Expr.Call(ScalarFunction.EQ, List.of(a, b), SqlType.BOOLEAN));
                    }
                }
            }
        }
        return closed.size() == conjuncts.size() ? this : new JoinGraph(leaves, closed);
    }

    /** Whether {@code column} is of a table the nodes scan (under filters and projections), not a derived table. */
    private boolean scanned(Expr.Column column) {
        return RelNode.belowFiltersAndProjections(leaves.get(leafOf(column.index()))) instanceof RelNode.Scan;
    }

    /** A binary join of two planned sides under {@code conjuncts} of the concatenated row (outer joins keep their sides as written). */
    public static RelNode join(RelNode left, RelNode right, JoinKind kind, List<Expr> conjuncts) {
        int width = left.fields().size();
        if (conjuncts.stream().anyMatch(c -> expressionPair(c, width) != null)) {
            return joinOnComputedKeys(left, right, kind, conjuncts);
        }
        List<int[]> keys = new ArrayList<>();
        List<Expr> residual = new ArrayList<>();
        List<Expr> leftOnly = new ArrayList<>();
        List<Expr> rightOnly = new ArrayList<>();
        for (Expr c : conjuncts) {
            int[] pair = equiPair(c, width);
            BitSet cols = Exprs.columns(c);
            if (pair != null) {
                keys.add(pair);
            } else if (!cols.isEmpty() && cols.nextSetBit(0) >= width && filtersRightFirst(kind)) {
                rightOnly.add(Exprs.remap(c, i -> i - width));
            } else if (!cols.isEmpty() && cols.length() <= width && filtersLeftFirst(kind)) {
                leftOnly.add(c);
            } else {
                residual.add(c);
            }
        }
        if (!leftOnly.isEmpty()) {
            left = new RelNode.Filter(left, Exprs.and(leftOnly));
        }
        if (!rightOnly.isEmpty()) {
            right = new RelNode.Filter(right, Exprs.and(rightOnly));
        }
        int[] lk = keys.stream().mapToInt(k -> k[0]).toArray();
        int[] rk = keys.stream().mapToInt(k -> k[1] - width).toArray();
        JoinKind k = kind == JoinKind.INNER && lk.length == 0 ? JoinKind.CROSS : kind;
        return new RelNode.Join(left, right, k, lk, rk, Exprs.and(residual));
    }

    /**
     * Whether a join condition on the right side's columns alone may filter that side before the
     * join: a right row failing it meets no left row, which for these kinds is the same as its
     * absence (not for NOT IN, where an unknown condition counts as a match, nor for outer rows kept).
     */
    private static boolean filtersRightFirst(JoinKind kind) {
        return kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.SEMI || kind == JoinKind.ANTI;
    }

    /** The same for the left side: its rows failing the condition would leave the join anyway. */
    private static boolean filtersLeftFirst(JoinKind kind) {
        return kind == JoinKind.INNER || kind == JoinKind.SEMI || kind == JoinKind.RIGHT;
    }

    /**
     * A join whose conditions equate an expression of one side with one of the other (CH-benCHmark's
     * {@code (s_w_id * s_i_id) % 10000 = su_suppkey}): each side computes its expressions as extra
     * columns, the join is on them as keys (a hash join, not a cross product filtered pair by pair)
     * and the extra columns are dropped after it.
     */
    private static RelNode joinOnComputedKeys(RelNode left, RelNode right, JoinKind kind, List<Expr> conjuncts) {
        int width = left.fields().size();
        int rightWidth = right.fields().size();
        List<Expr> leftExtra = new ArrayList<>();
        List<Expr> rightExtra = new ArrayList<>();
        List<int[]> keys = new ArrayList<>(); // left key, right key as columns of each side (extras after its own)
        List<Expr> others = new ArrayList<>();
        for (Expr c : conjuncts) {
            Expr[] pair = expressionPair(c, width);
            if (pair == null) {
                others.add(c);
                continue;
            }
            keys.add(new int[] {keyColumn(pair[0], 0, width, leftExtra), keyColumn(pair[1], width, rightWidth, rightExtra)});
        }
        int widened = width + leftExtra.size();
        List<Expr> remapped = new ArrayList<>();
        for (Expr c : others) {
            remapped.add(Exprs.remap(c, i -> i < width ? i : i + leftExtra.size()));
        }
        for (int[] k : keys) {
            SqlType type = k[0] < width ? left.fields().get(k[0]).type() : leftExtra.get(k[0] - width).type();
            remapped.add(new Expr.Call(ScalarFunction.EQ, List.of(new Expr.Column(k[0], type),
                    new Expr.Column(widened + k[1], type)), SqlType.BOOLEAN));
        }
        RelNode joined = join(withColumns(left, leftExtra), withColumns(right, rightExtra), kind, remapped);
        if (leftExtra.isEmpty() && (rightExtra.isEmpty() || kind.leftOnly())) {
            return joined; // nothing added, or only to a side the join does not pass on
        }
        List<Expr> kept = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        List<Field> all = joined.fields();
        int rightStart = kind.rightOnly() ? 0 : widened;
        if (!kind.rightOnly()) {
            for (int i = 0; i < width; i++) {
                kept.add(new Expr.Column(i, all.get(i).type()));
                fields.add(all.get(i));
            }
        }
        if (!kind.leftOnly()) {
            for (int i = rightStart; i < rightStart + rightWidth; i++) {
                kept.add(new Expr.Column(i, all.get(i).type()));
                fields.add(all.get(i));
            }
        }
        return new RelNode.Project(joined, kept, fields);
    }

    /**
     * The column of a side ({@code offset} its first in the joined row, {@code width} its own) that
     * holds {@code key}: the column itself when the key is one, else an extra column added to
     * {@code extra}, numbered after the side's own.
     */
    private static int keyColumn(Expr key, int offset, int width, List<Expr> extra) {
        if (key instanceof Expr.Column c) {
            return c.index() - offset;
        }
        extra.add(Exprs.remap(key, i -> i - offset));
        return width + extra.size() - 1;
    }

    /** {@code input} with {@code extra} computed after its columns (itself when there are none). */
    private static RelNode withColumns(RelNode input, List<Expr> extra) {
        if (extra.isEmpty()) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>();
        List<Field> fields = new ArrayList<>(input.fields());
        for (int i = 0; i < fields.size(); i++) {
            exprs.add(new Expr.Column(i, fields.get(i).type()));
        }
        for (int k = 0; k < extra.size(); k++) {
            exprs.add(extra.get(k));
            fields.add(new Field(null, "$join_key" + k, extra.get(k).type()));
        }
        return new RelNode.Project(input, exprs, fields);
    }

    /**
     * {@code [left expression, right expression]} when {@code c} equates an expression of the left
     * side's columns with one of the right side's, of one type, and is not a plain column pair.
     */
    private static Expr[] expressionPair(Expr c, int width) {
        if (!(c instanceof Expr.Call call) || call.function() != ScalarFunction.EQ || equiPair(c, width) != null) {
            return null;
        }
        Expr a = call.args().get(0);
        Expr b = call.args().get(1);
        if (!a.type().equals(b.type())) {
            return null;
        }
        if (onlyBelow(a, width) && onlyFrom(b, width)) {
            return new Expr[] {a, b};
        }
        if (onlyBelow(b, width) && onlyFrom(a, width)) {
            return new Expr[] {b, a};
        }
        return null;
    }

    private static boolean onlyBelow(Expr e, int width) {
        BitSet cols = Exprs.columns(e);
        return !cols.isEmpty() && cols.length() <= width;
    }

    private static boolean onlyFrom(Expr e, int width) {
        BitSet cols = Exprs.columns(e);
        return !cols.isEmpty() && cols.nextSetBit(0) >= width;
    }

    /** {@code [left column, right column]} when {@code c} is left = right across the boundary {@code width}. */
    private static int[] equiPair(Expr c, int width) {
        if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ
                && call.args().get(0) instanceof Expr.Column a && call.args().get(1) instanceof Expr.Column b) {
            if (a.index() < width && b.index() >= width) {
                return new int[] {a.index(), b.index()};
            }
            if (b.index() < width && a.index() >= width) {
                return new int[] {b.index(), a.index()};
            }
        }
        return null;
    }

    private static boolean isEquality(Expr c) {
        return c instanceof Expr.Call call && call.function() == ScalarFunction.EQ;
    }
}
