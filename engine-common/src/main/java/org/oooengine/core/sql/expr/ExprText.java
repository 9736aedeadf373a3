package org.oooengine.core.sql.expr;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.Period;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.oooengine.core.sql.SqlType;

/**
 * A bound expression written back as SQL, the way a user would write it: operators infix with
 * only the parentheses precedence needs, {@code BETWEEN}, {@code IN}, {@code LIKE}, {@code CASE}
 * and {@code CAST} in their SQL form, literals typed and unscaled ({@code 10.00},
 * {@code DATE '1998-09-02'}, {@code 'O''Brien'}). Columns are named by the caller, since an
 * expression only knows their positions. A part without columns is shown as the value it
 * evaluates to ({@code DATE '1998-12-01' - INTERVAL '90' DAY} reads {@code DATE '1998-09-02'}):
 * that is the value the rows are compared with.
 */
public final class ExprText {
    /** Binding strength, loosest first: a child looser than its place needs parentheses. */
    private static final int OR = 1;
    private static final int AND = 2;
    private static final int NOT = 3;
    private static final int COMPARISON = 4;
    private static final int ADDITIVE = 5;
    private static final int MULTIPLICATIVE = 6;
    private static final int UNARY = 7;
    private static final int ATOM = 8;

    private final IntFunction<String> column;

    private ExprText(IntFunction<String> column) {
        this.column = column;
    }

    /** {@code e} as SQL, input column {@code i} written as {@code column.apply(i)}. */
    public static String of(Expr e, IntFunction<String> column) {
        return new ExprText(column).text(e, OR);
    }

    /** {@code e} as one term of an AND written after it: an OR in parentheses. */
    public static String conjunct(Expr e, IntFunction<String> column) {
        return new ExprText(column).text(e, AND + 1);
    }

    /** {@code call} as SQL, e.g. {@code sum(l_extendedprice * (1 - l_discount))}, {@code count(DISTINCT x)}. */
    public static String of(AggregateCall call, IntFunction<String> column) {
        if (call.kind() == AggregateCall.Kind.COUNT_STAR) {
            return "count(*)";
        }
        return call.kind().name().toLowerCase(Locale.ROOT) + "(" + (call.distinct() ? "DISTINCT " : "")
                + of(call.arg(), column) + ")";
    }

    /** A value of {@code type} as a SQL literal. */
    public static String literal(Object value, SqlType type) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Number n) {
            return n.toString();
        }
        if (value instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (value instanceof Period p) {
            return interval(p);
        }
        if (value instanceof java.time.Duration d) {
            return interval(d);
        }
        if (value instanceof java.time.LocalDateTime t) {
            return "TIMESTAMP '" + org.oooengine.core.types.LocalTimestamps.format(t) + "'";
        }
        if (value instanceof java.util.List<?> list) {
            StringBuilder b = new StringBuilder("array(");
            for (int i = 0; i < list.size(); i++) {
                b.append(i > 0 ? ", " : "").append(literal(list.get(i), null));
            }
            return b.append(")").toString();
        }
        if (value instanceof java.util.Map<?, ?> map) {
            StringBuilder b = new StringBuilder("map(");
            boolean first = true;
            for (java.util.Map.Entry<?, ?> e : map.entrySet()) {
                b.append(first ? "" : ", ").append(literal(e.getKey(), null)).append(", ").append(literal(e.getValue(), null));
                first = false;
            }
            return b.append(")").toString();
        }
        if (value instanceof TemporalAccessor || value instanceof java.util.Date) { // a date-time
            return "TIMESTAMP '" + value.toString().replace('T', ' ') + "'";
        }
        return "'" + value.toString().replace("'", "''") + "'";
    }

    /** Hive's DAY TO SECOND spelling: {@code INTERVAL '1 02:03:04.5' DAY TO SECOND}. */
    private static String interval(java.time.Duration d) {
        java.time.Duration a = d.abs();
        String seconds = java.math.BigDecimal.valueOf(a.toSecondsPart()).add(java.math.BigDecimal.valueOf(a.toNanosPart(), 9))
                .stripTrailingZeros().toPlainString();
        return "INTERVAL '" + (d.isNegative() ? "-" : "") + a.toDays() + " " + a.toHoursPart() + ":" + a.toMinutesPart() + ":"
                + seconds + "' DAY TO SECOND";
    }

    private static String interval(Period p) {
        if (p.getMonths() == 0 && p.getDays() == 0) {
            return "INTERVAL '" + p.getYears() + "' YEAR";
        }
        if (p.getYears() == 0 && p.getDays() == 0) {
            return "INTERVAL '" + p.getMonths() + "' MONTH";
        }
        if (p.getYears() == 0 && p.getMonths() == 0) {
            return "INTERVAL '" + p.getDays() + "' DAY";
        }
        return "INTERVAL '" + p + "'";
    }

    private String text(Expr e, int place) {
        String folded = constant(e);
        if (folded != null) {
            return folded;
        }
        int strength = strength(e);
        String s = unparenthesized(e);
        return strength < place ? "(" + s + ")" : s;
    }

    /** The value of an expression without columns, as a literal; null when it has columns or cannot be evaluated here. */
    private static String constant(Expr e) {
        if (e instanceof Expr.Literal l) {
            return literal(l.value(), l.type());
        }
        if (!(e instanceof Expr.Call) || !Exprs.columns(e).isEmpty()) {
            return null;
        }
        try {
            return literal(e.eval(new Object[0]), e.type());
        } catch (RuntimeException notHere) {
            return null; // e.g. a cast that fails: shown as written, to fail where it runs
        }
    }

    private static int strength(Expr e) {
        if (e instanceof Expr.Or) {
            return OR;
        }
        if (e instanceof Expr.And) {
            return AND;
        }
        if (e instanceof Expr.Not) {
            return NOT;
        }
        if (e instanceof Expr.IsNull || e instanceof Expr.InList || e instanceof Expr.Like) {
            return COMPARISON;
        }
        if (e instanceof Expr.Call c) {
            return switch (c.function()) {
                case EQ, NE, LT, LE, GT, GE -> COMPARISON;
                case ADD, SUBTRACT, DATE_PLUS_INTERVAL, DATE_MINUS_INTERVAL -> ADDITIVE;
                case MULTIPLY, DIVIDE, MOD -> MULTIPLICATIVE;
                case NEGATE -> UNARY;
                default -> ATOM;
            };
        }
        return ATOM;
    }

    private String unparenthesized(Expr e) {
        if (e instanceof Expr.Column c) {
            return column.apply(c.index());
        }
        if (e instanceof Expr.And) { // AND of ANDs is one list: no parentheses inside
            return String.join(" AND ", conjuncts(Exprs.conjuncts(e)));
        }
        if (e instanceof Expr.Or) { // each AND of an OR in parentheses, as people write it
            return joined(Exprs.disjuncts(e), " OR ", AND + 1);
        }
        if (e instanceof Expr.Not n) {
            Expr negated = negated(n.term());
            return negated != null ? unparenthesized(negated) : "NOT " + text(n.term(), NOT);
        }
        if (e instanceof Expr.IsNull n) {
            return text(n.term(), COMPARISON + 1) + (n.negated() ? " IS NOT NULL" : " IS NULL");
        }
        if (e instanceof Expr.InList in) {
            return text(in.value(), COMPARISON + 1) + (in.negated() ? " NOT IN (" : " IN (") + joined(in.list(), ", ", OR) + ")";
        }
        if (e instanceof Expr.Like l) {
            return text(l.value(), COMPARISON + 1) + (l.negated() ? " NOT LIKE " : " LIKE ") + literal(l.pattern(), SqlType.STRING);
        }
        if (e instanceof Expr.Case c) {
            StringBuilder b = new StringBuilder("CASE");
            for (int i = 0; i < c.conditions().size(); i++) {
                b.append(" WHEN ").append(text(c.conditions().get(i), OR)).append(" THEN ").append(text(c.results().get(i), OR));
            }
            if (!(c.otherwise() instanceof Expr.Literal l && l.value() == null)) {
                b.append(" ELSE ").append(text(c.otherwise(), OR));
            }
            return b.append(" END").toString();
        }
        return call((Expr.Call) e);
    }

    /** {@code NOT x IN (...)} as the {@code x NOT IN (...)} it was written as, the same for LIKE and IS NULL; else null. */
    private static Expr negated(Expr e) {
        if (e instanceof Expr.InList in) {
            return new Expr.InList(in.value(), in.list(), !in.negated(), null);
        }
        if (e instanceof Expr.Like l) {
            return new Expr.Like(l.value(), l.pattern(), !l.negated());
        }
        return e instanceof Expr.IsNull n ? new Expr.IsNull(n.term(), !n.negated()) : null;
    }

    private String call(Expr.Call c) {
        List<Expr> args = c.args();
        int strength = strength(c);
        return switch (c.function()) {
            case NEGATE -> "-" + text(args.get(0), UNARY);
            case SUBSCRIPT -> text(args.get(0), UNARY) + "[" + text(args.get(1), OR) + "]";
            case CAST -> "CAST(" + text(args.get(0), OR) + " AS " + c.type().toString().toUpperCase(Locale.ROOT) + ")";
            case DATE_PLUS_INTERVAL -> infix(args, "+", strength);
            case DATE_MINUS_INTERVAL -> infix(args, "-", strength);
            default -> strength == ATOM
                    ? c.function().sqlName() + "(" + joined(args, ", ", OR) + ")"
                    : infix(args, c.function().sqlName(), strength);
        };
    }

    /** A left-associative binary operator: its right operand needs parentheses at its own strength ({@code a - (b - c)}). */
    private String infix(List<Expr> args, String operator, int strength) {
        int right = strength == COMPARISON ? COMPARISON + 1 : strength + 1;
        int left = strength == COMPARISON ? COMPARISON + 1 : strength;
        return text(args.get(0), left) + " " + operator + " " + text(args.get(1), right);
    }

    private String joined(List<Expr> terms, String separator, int place) {
        List<String> out = new ArrayList<>();
        terms.forEach(t -> out.add(text(t, place)));
        return String.join(separator, out);
    }

    /**
     * The terms of an AND, a lower and an upper bound of the same value side by side written as
     * the {@code BETWEEN} the analyzer made them from.
     */
    private List<String> conjuncts(List<Expr> terms) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            Expr t = terms.get(i);
            Expr next = i + 1 < terms.size() ? terms.get(i + 1) : null;
            if (next != null && bound(t, ScalarFunction.GE) && bound(next, ScalarFunction.LE)
                    && ((Expr.Call) t).args().get(0).equals(((Expr.Call) next).args().get(0))) {
                List<Expr> low = ((Expr.Call) t).args();
                out.add(text(low.get(0), COMPARISON + 1) + " BETWEEN " + text(low.get(1), COMPARISON + 1) + " AND "
                        + text(((Expr.Call) next).args().get(1), COMPARISON + 1));
                i++;
            } else {
                out.add(text(t, AND + 1));
            }
        }
        return out;
    }

    /** {@code value >= bound} or {@code value <= bound} with a value that reads columns and a bound that does not. */
    private static boolean bound(Expr e, ScalarFunction f) {
        return e instanceof Expr.Call c && c.function() == f && !Exprs.columns(c.args().get(0)).isEmpty()
                && Exprs.columns(c.args().get(1)).isEmpty();
    }
}
