package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprText;

/**
 * How EXPLAIN names the columns of one operator's input row: by name, qualified by table or alias
 * only where two columns of the row share a name ({@code l1.l_orderkey}, {@code l3.l_orderkey}).
 * A column a pipeline no longer carries (a null in its place) has no name: nothing reads it.
 */
final class ColumnNames implements IntFunction<String> {
    private final List<String> names;

    private ColumnNames(List<String> names) {
        this.names = names;
    }

    static ColumnNames of(List<Field> fields) {
        Map<String, Integer> uses = new HashMap<>();
        for (Field f : fields) {
            if (f != null) {
                uses.merge(f.name(), 1, Integer::sum);
            }
        }
        List<String> names = new ArrayList<>(fields.size());
        for (Field f : fields) {
            names.add(f == null ? null
                    : uses.get(f.name()) > 1 && f.qualifier() != null ? f.qualifier() + "." + f.name() : f.name());
        }
        return new ColumnNames(names);
    }

    /** The columns of {@code left} then those of {@code right}: a join's row. */
    static ColumnNames of(List<Field> left, List<Field> right) {
        List<Field> row = new ArrayList<>(left);
        row.addAll(right);
        return of(row);
    }

    /**
     * Whether {@code name} is one the analyzer made up for a GROUP BY's key or aggregate or a
     * window function ({@code _k1}, {@code _a2}, {@code _w3}): EXPLAIN shows the expression instead.
     */
    static boolean generated(String name) {
        return name.length() > 2 && name.charAt(0) == '_'
                && (name.charAt(1) == 'a' || name.charAt(1) == 'k' || name.charAt(1) == 'w')
                && name.substring(2).chars().allMatch(Character::isDigit);
    }

    @Override
    public String apply(int column) {
        String name = column < names.size() ? names.get(column) : null;
        return name == null ? "NULL" : name;
    }

    /** Whether the row carries column {@code column} (it was not dropped on the way). */
    boolean carried(int column) {
        return names.get(column) != null;
    }

    int size() {
        return names.size();
    }

    String sql(Expr e) {
        return ExprText.of(e, this);
    }

    String sql(AggregateCall call) {
        return ExprText.of(call, this);
    }

    /** The carried columns {@code from} to {@code to} (exclusive), as a bracketed list. */
    String list(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            if (carried(i)) {
                out.add(names.get(i));
            }
        }
        return "[" + String.join(", ", out) + "]";
    }

    String list() {
        return list(0, names.size());
    }
}
