package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * GROUP BY keys that no one reads above the GROUP BY and whose value another key determines — a
 * key that is a table's one-column unique key (its primary key, or one declared RELY), and a key
 * computed from columns of that same table row alone — grouped by as a constant NULL instead: the groups are the same, and their rows carry
 * neither the key nor the columns it is computed from (TPC-DS Q23's frequent items group by item
 * key, date and the item's description, of which only the item key is read: 1.5 million groups
 * no longer hash and move a 30-character string each).
 */
final class DeterminedGroupKeys {
    private DeterminedGroupKeys() {
    }

    /** {@code a} with each key that is not in {@code required} and that a primary-key key determines made NULL. */
    static RelNode.Aggregate pruned(RelNode.Aggregate a, BitSet required) {
        List<RelNode.Scan> keyed = new ArrayList<>();
        for (Expr key : a.keys()) {
            RelNode.Scan s = key instanceof Expr.Column c ? primaryKeyScan(a.input(), c.index()) : null;
            if (s != null && occurrences(a.input(), s) == 1) { // a scan a self-join reads twice has two rows per output row
                keyed.add(s);
            }
        }
        if (keyed.isEmpty()) {
            return a;
        }
        List<Expr> keys = new ArrayList<>(a.keys());
        boolean changed = false;
        for (int i = 0; i < keys.size(); i++) {
            Expr key = keys.get(i);
            if (required.get(i) || key instanceof Expr.Literal || primaryKeyOf(a.input(), key) != null) {
                continue;
            }
            RelNode.Scan from = onlyScan(a.input(), key);
            if (from != null && keyed.stream().anyMatch(s -> s == from)) {
                keys.set(i, new Expr.Literal(null, key.type()));
                changed = true;
            }
        }
        return changed ? new RelNode.Aggregate(a.input(), keys, a.aggregates(), a.fields()) : a;
    }

    private static RelNode.Scan primaryKeyOf(RelNode node, Expr key) {
        return key instanceof Expr.Column c ? primaryKeyScan(node, c.index()) : null;
    }

    /** The scan of whose one-column unique key ({@code TableInfo#uniqueKey}) column {@code column} of {@code node} is a copy, or null. */
    static RelNode.Scan primaryKeyScan(RelNode node, int column) {
        Origin o = origin(node, column);
        if (o == null) {
            return null;
        }
        List<String> key = o.scan.table().uniqueKey();
        return key.size() == 1 && o.scan.fields().size() == o.scan.table().columns().size()
                && o.scan.table().indexOf(key.get(0)) == o.column ? o.scan : null;
    }

    private static int occurrences(RelNode node, RelNode.Scan scan) {
        int[] n = {node == scan ? 1 : 0};
        RelNode.mapInputs(node, input -> {
            n[0] += occurrences(input, scan);
            return input;
        });
        return n[0];
    }

    /** The one scan all columns {@code e} reads of {@code node} come from, or null (none, several, or not told). */
    private static RelNode.Scan onlyScan(RelNode node, Expr e) {
        BitSet columns = Exprs.columns(e);
        RelNode.Scan only = null;
        for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
            RelNode.Scan s = scanOf(node, c);
            if (s == null || only != null && only != s) {
                return null;
            }
            only = s;
        }
        return only;
    }

    /** The scan column {@code column} of {@code node} is computed from alone, or null. */
    private static RelNode.Scan scanOf(RelNode node, int column) {
        if (node instanceof RelNode.Project p) {
            return onlyScan(p.input(), p.exprs().get(column));
        }
        RelNode below = passedThrough(node, column);
        if (below != null) {
            return scanOf(below, shifted(node, column));
        }
        return node instanceof RelNode.Scan s ? s : null;
    }

    private record Origin(RelNode.Scan scan, int column) {
    }

    /** The scan column that column {@code column} of {@code node} copies, or null. */
    private static Origin origin(RelNode node, int column) {
        if (node instanceof RelNode.Project p) {
            return p.exprs().get(column) instanceof Expr.Column c ? origin(p.input(), c.index()) : null;
        }
        RelNode below = passedThrough(node, column);
        if (below != null) {
            return origin(below, shifted(node, column));
        }
        return node instanceof RelNode.Scan s ? new Origin(s, column) : null;
    }

    /**
     * The input a filter or a join takes column {@code column} from unchanged (a row of an outer
     * join's missing side has all of that side's columns NULL, which keeps one determining the
     * others); null for any other node.
     */
    private static RelNode passedThrough(RelNode node, int column) {
        if (node instanceof RelNode.Filter f) {
            return f.input();
        }
        if (node instanceof RelNode.Join j) {
            int left = j.left().fields().size();
            return column < left ? j.left() : j.kind().leftOnly() ? null : j.right();
        }
        return null;
    }

    private static int shifted(RelNode node, int column) {
        return node instanceof RelNode.Join j && column >= j.left().fields().size() ? column - j.left().fields().size() : column;
    }
}
