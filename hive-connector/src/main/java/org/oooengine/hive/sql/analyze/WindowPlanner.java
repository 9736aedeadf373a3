package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.WindowCall;
import org.oooengine.core.sql.expr.WindowCall.Bound;
import org.oooengine.core.sql.expr.WindowCall.Frame;
import org.oooengine.core.sql.expr.WindowCall.OrderKey;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * The window functions of a SELECT ({@code f(...) OVER (PARTITION BY ... ORDER BY ... [ROWS|RANGE
 * ...])} in the select list and ORDER BY, windows named in a WINDOW clause) become
 * {@link RelNode.Window} operators over the rows the select list reads (the FROM rows, or the
 * groups after GROUP BY and HAVING): one per distinct PARTITION BY and ORDER BY, each adding its
 * calls' columns after the columns it was given, which keep their places. Arguments and keys are
 * bound as the select list would bind them before the windows, so a window may order or sum by an
 * aggregate ({@code sum(sum(x)) OVER (...)}); the select list then reads each call as its column.
 */
final class WindowPlanner {
    private static final Map<String, WindowCall.Kind> NAMED = Map.of(
            "row_number", WindowCall.Kind.ROW_NUMBER, "rank", WindowCall.Kind.RANK,
            "dense_rank", WindowCall.Kind.DENSE_RANK, "percent_rank", WindowCall.Kind.PERCENT_RANK,
            "cume_dist", WindowCall.Kind.CUME_DIST, "ntile", WindowCall.Kind.NTILE, "lag", WindowCall.Kind.LAG,
            "lead", WindowCall.Kind.LEAD, "first_value", WindowCall.Kind.FIRST_VALUE, "last_value", WindowCall.Kind.LAST_VALUE);

    private final ExprBinder binder;
    private final Map<String, ASTNode> namedWindows;

    private WindowPlanner(ExprBinder binder, Map<String, ASTNode> namedWindows) {
        this.binder = binder;
        this.namedWindows = namedWindows;
    }

    /** Whether {@code n} is a call with an OVER clause (its last child is the window's specification). */
    static boolean isWindowCall(ASTNode n) {
        int t = n.getType();
        return (t == TOK_FUNCTION || t == TOK_FUNCTIONSTAR || t == TOK_FUNCTIONDI) && n.getChildCount() > 1
                && Ast.child(n, n.getChildCount() - 1).getType() == TOK_WINDOWSPEC;
    }

    /** The window calls in {@code n}, not those of its subqueries. */
    static void collect(ASTNode n, List<ASTNode> out) {
        if (n.getType() == TOK_SUBQUERY_EXPR) {
            return;
        }
        if (isWindowCall(n)) {
            out.add(n);
            return;
        }
        Ast.children(n).forEach(c -> collect(c, out));
    }

    /** What the windows make: the rows with the calls' columns, and how the select list reads each call. */
    record Windowed(RelNode rows, Map<ASTNode, Expr> columns) {
        /** A binder hook that reads the window calls as their columns, then asks {@code next}. */
        Function<ASTNode, Expr> hook(Function<ASTNode, Expr> next) {
            return n -> {
                Expr e = columns.get(n);
                return e != null ? e : next.apply(n);
            };
        }
    }

    /**
     * Window operators over {@code rows} for {@code calls}, their expressions bound by
     * {@code binder} (over {@code rows}); {@code insert} holds the WINDOW clause, if any.
     */
    static Windowed plan(RelNode rows, ExprBinder binder, List<ASTNode> calls, ASTNode insert) {
        Map<String, ASTNode> named = new HashMap<>();
        for (ASTNode c : Ast.children(insert)) {
            if (c.getType() == KW_WINDOW) {
                for (ASTNode def : Ast.children(c)) {
                    named.put(Ast.name(Ast.child(def, 0)), Ast.child(def, 1));
                }
            }
        }
        return new WindowPlanner(binder, named).plan(rows, calls);
    }

    /** One window: its partition and order, and the calls computed over it. */
    private record Spec(List<Expr> partition, List<OrderKey> order) {
    }

    private Windowed plan(RelNode rows, List<ASTNode> calls) {
        Map<Spec, List<WindowCall>> bySpec = new LinkedHashMap<>();
        Map<ASTNode, Spec> specOf = new IdentityHashMap<>();
        Map<ASTNode, WindowCall> callOf = new IdentityHashMap<>();
        for (ASTNode n : calls) {
            ASTNode spec = Ast.child(n, n.getChildCount() - 1);
            Spec s = spec(spec);
            WindowCall call = call(n, s, frame(spec, s, n));
            if (call.frame() != null && call.frame().shrinking()) { // computed over the reverse order
                call = call.mirrored();
                s = new Spec(s.partition(), s.order().stream().map(OrderKey::reversed).toList());
            }
            List<WindowCall> same = bySpec.computeIfAbsent(s, x -> new ArrayList<>());
            if (!same.contains(call)) {
                same.add(call);
            }
            specOf.put(n, s);
            callOf.put(n, call);
        }
        Map<Spec, Integer> firstColumn = new HashMap<>();
        for (Map.Entry<Spec, List<WindowCall>> w : bySpec.entrySet()) {
            List<Field> fields = new ArrayList<>(rows.fields());
            firstColumn.put(w.getKey(), fields.size());
            for (WindowCall c : w.getValue()) {
                fields.add(new Field(null, "_w" + fields.size(), c.type()));
            }
            rows = new RelNode.Window(rows, w.getKey().partition(), w.getKey().order(), w.getValue(), fields);
        }
        Map<ASTNode, Expr> columns = new IdentityHashMap<>();
        for (ASTNode n : calls) {
            Spec s = specOf.get(n);
            WindowCall c = callOf.get(n);
            columns.put(n, new Expr.Column(firstColumn.get(s) + bySpec.get(s).indexOf(c), c.type()));
        }
        return new Windowed(rows, columns);
    }

    /** PARTITION BY and ORDER BY of a window's specification, a named window's where it names one. */
    private Spec spec(ASTNode windowSpec) {
        ASTNode partitioning = partitioning(windowSpec, new ArrayList<>());
        List<Expr> partition = new ArrayList<>();
        List<OrderKey> order = new ArrayList<>();
        if (partitioning != null) {
            for (ASTNode c : Ast.children(partitioning)) {
                switch (c.getType()) {
                    case TOK_DISTRIBUTEBY -> Ast.children(c).forEach(k -> partition.add(binder.bind(k)));
                    case TOK_ORDERBY, TOK_SORTBY -> Ast.children(c).forEach(k -> order.add(orderKey(k)));
                    case TOK_CLUSTERBY -> Ast.children(c).forEach(k -> {
                        partition.add(binder.bind(k));
                        order.add(new OrderKey(binder.bind(k), true, false));
                    });
                    default -> throw Ast.notSupported(Ast.described(c) + " in a window", c);
                }
            }
        }
        return new Spec(List.copyOf(partition), List.copyOf(order));
    }

    /** The partitioning of a specification, following references to named windows ({@code seen}: no cycles). */
    private ASTNode partitioning(ASTNode windowSpec, List<String> seen) {
        ASTNode own = Ast.find(windowSpec, TOK_PARTITIONINGSPEC);
        if (own != null) {
            return own;
        }
        ASTNode base = base(windowSpec, seen);
        return base == null ? null : partitioning(base, seen);
    }

    /** The window a specification names first ({@code OVER w}, {@code OVER (w ROWS ...)}), or null. */
    private ASTNode base(ASTNode windowSpec, List<String> seen) {
        if (windowSpec.getChildCount() == 0 || Ast.child(windowSpec, 0).getType() != Identifier) {
            return null;
        }
        String name = Ast.name(Ast.child(windowSpec, 0));
        ASTNode base = namedWindows.get(name);
        if (base == null) {
            throw Ast.error(SqlException.SYNTAX, "window '" + name + "' is not defined in the WINDOW clause", windowSpec);
        }
        if (seen.contains(name)) {
            throw Ast.error(SqlException.SYNTAX, "window '" + name + "' is defined by itself", windowSpec);
        }
        seen.add(name);
        return base;
    }

    private OrderKey orderKey(ASTNode key) {
        ASTNode nulls = Ast.child(key, 0); // Hive's parser always says where NULLs go
        return new OrderKey(binder.bind(Ast.child(nulls, 0)), key.getType() == TOK_TABSORTCOLNAMEASC,
                nulls.getType() == TOK_NULLS_FIRST);
    }

    /**
     * The frame a specification gives (its own, else a named window's), or Hive's default: with
     * ORDER BY from the partition's start to the current row's last peer, else the whole partition.
     */
    private Frame frame(ASTNode windowSpec, Spec spec, ASTNode at) {
        ASTNode range = null;
        List<String> seen = new ArrayList<>();
        for (ASTNode s = windowSpec; s != null && range == null; s = base(s, seen)) {
            for (ASTNode c : Ast.children(s)) {
                if (c.getType() == TOK_WINDOWRANGE || c.getType() == TOK_WINDOWVALUES) {
                    range = c;
                }
            }
        }
        if (range == null) {
            return spec.order().isEmpty() ? Frame.WHOLE_PARTITION : Frame.TO_CURRENT_PEERS;
        }
        boolean rows = range.getType() == TOK_WINDOWRANGE;
        Bound start = bound(Ast.child(range, 0));
        Bound end = range.getChildCount() > 1 ? bound(Ast.child(range, 1)) : Bound.CURRENT_ROW;
        Frame frame;
        try {
            frame = new Frame(rows, start, end);
        } catch (IllegalArgumentException e) {
            throw Ast.error(SqlException.SYNTAX, "a window frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED PRECEDING",
                    range);
        }
        if (startsAfterEnd(start, end)) { // Hive refuses such a frame too
            throw Ast.error(SqlException.SYNTAX, "a window frame cannot start at " + start + " and end at " + end, range);
        }
        if (frame.rangeOffsets()) {
            if (spec.order().size() != 1) {
                throw Ast.error(SqlException.SYNTAX, "a RANGE frame with an offset needs exactly one ORDER BY key", range);
            }
            SqlType key = spec.order().get(0).expr().type();
            if (!key.isNumeric()) {
                throw Ast.notSupported("a RANGE frame with an offset over a " + key + " ORDER BY key (only numbers)", range);
            }
        }
        return frame;
    }

    /** Whether every row's frame would be empty by how it is written: its start after its end. */
    private static boolean startsAfterEnd(Bound start, Bound end) {
        int order = start.type().compareTo(end.type());
        if (order != 0 || start.offset() == null) {
            return order > 0;
        }
        int c = new BigDecimal(start.offset().toString()).compareTo(new BigDecimal(end.offset().toString()));
        return start.type() == WindowCall.BoundType.PRECEDING ? c < 0 : c > 0;
    }

    private static Bound bound(ASTNode b) {
        if (b.getType() == KW_CURRENT) {
            return Bound.CURRENT_ROW;
        }
        boolean preceding = b.getType() == KW_PRECEDING;
        ASTNode amount = Ast.child(b, 0);
        if (amount.getType() == KW_UNBOUNDED) {
            return preceding ? Bound.UNBOUNDED_PRECEDING : Bound.UNBOUNDED_FOLLOWING;
        }
        Number n;
        try {
            BigDecimal d = new BigDecimal(amount.getText());
            n = d.scale() <= 0 ? (Number) d.longValueExact() : d;
        } catch (ArithmeticException | NumberFormatException e) {
            throw Ast.error(SqlException.SYNTAX, "a window frame's offset must be a number, not " + amount.getText(), b);
        }
        return preceding ? Bound.preceding(n) : Bound.following(n);
    }

    /** The call itself: a window function of Hive's or an aggregate over the frame. */
    private WindowCall call(ASTNode n, Spec spec, Frame frame) {
        String name = Ast.name(Ast.child(n, 0));
        List<ASTNode> args = Ast.children(n).subList(1, n.getChildCount() - 1);
        if (ExprBinder.isAggregate(n)) {
            return WindowCall.aggregate(binder.aggregate(n), frame);
        }
        WindowCall.Kind kind = NAMED.get(name);
        if (kind == null) {
            throw Ast.notSupported("window function " + name, n);
        }
        if (n.getType() != TOK_FUNCTION) {
            throw Ast.error(SqlException.SYNTAX, name + (n.getType() == TOK_FUNCTIONSTAR ? "(*)" : "(DISTINCT ...)")
                    + " is not a window function", n);
        }
        if (!kind.framed() && hasOwnFrame(n)) {
            throw Ast.notSupported("a window frame (ROWS or RANGE) for " + name + ", which reads the partition's order", n);
        }
        return switch (kind) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST -> {
                arguments(name, args, 0, 0, n);
                yield WindowCall.ranking(kind);
            }
            case NTILE -> {
                arguments(name, args, 1, 1, n);
                long buckets = constant(args.get(0), name + "'s number of buckets");
                if (buckets < 1) {
                    throw Ast.error(SqlException.SYNTAX, "ntile needs a positive number of buckets, not " + buckets, n);
                }
                yield WindowCall.ntile(buckets);
            }
            case LAG, LEAD -> {
                arguments(name, args, 1, 3, n);
                Expr value = binder.bind(args.get(0));
                long offset = args.size() > 1 ? constant(args.get(1), name + "'s offset") : 1;
                if (offset < 0) {
                    throw Ast.error(SqlException.SYNTAX, name + " needs an offset of 0 or more, not " + offset, n);
                }
                Expr fallback = args.size() > 2 ? fallback(binder.bind(args.get(2)), value.type(), name, args.get(2)) : null;
                yield WindowCall.shift(kind, value, offset, fallback);
            }
            default -> { // first_value, last_value
                arguments(name, args, 1, 2, n);
                boolean ignoreNulls = false;
                if (args.size() > 1) {
                    int t = args.get(1).getType();
                    if (t != KW_TRUE && t != KW_FALSE) {
                        throw Ast.error(SqlException.SYNTAX, name + "'s second argument must be TRUE or FALSE", args.get(1));
                    }
                    ignoreNulls = t == KW_TRUE;
                }
                yield WindowCall.value(kind, binder.bind(args.get(0)), ignoreNulls, frame);
            }
        };
    }

    private static boolean hasOwnFrame(ASTNode call) {
        ASTNode spec = Ast.child(call, call.getChildCount() - 1);
        return Ast.children(spec).stream().anyMatch(c -> c.getType() == TOK_WINDOWRANGE || c.getType() == TOK_WINDOWVALUES);
    }

    private static void arguments(String name, List<ASTNode> args, int min, int max, ASTNode at) {
        if (args.size() < min || args.size() > max) {
            String takes = min == max ? Integer.toString(min) : min + " to " + max;
            throw Ast.error(SqlException.SYNTAX, name + " takes " + takes + (max == 1 ? " argument" : " arguments")
                    + ", not " + args.size(), at);
        }
    }

    /** An integer written as such (Hive wants a constant here). */
    private static long constant(ASTNode n, String what) {
        try {
            return Long.parseLong(n.getText().replaceAll("(?i)[LSY]$", ""));
        } catch (NumberFormatException e) {
            throw Ast.error(SqlException.SYNTAX, what + " must be an integer constant, not " + n.getText(), n);
        }
    }

    /** lag's and lead's default, as a value of the type of what they read (Hive converts it so). */
    private static Expr fallback(Expr value, SqlType type, String name, ASTNode at) {
        if (value.type().equals(type) || value.type().kind() == SqlType.Kind.VOID) {
            return ExprBinder.cast(value, type);
        }
        if (value.type().isNumeric() && type.isNumeric() || type.isString()) {
            return ExprBinder.cast(value, type);
        }
        throw Ast.error(SqlException.SYNTAX, name + "'s default must be a " + type + ", not " + value.type(), at);
    }
}
