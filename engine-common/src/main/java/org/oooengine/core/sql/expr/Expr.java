package org.oooengine.core.sql.expr;

import java.util.List;
import org.oooengine.core.sql.SqlType;

/**
 * A bound scalar expression over the rows of one operator's input: columns are positions in that
 * input. Expressions are values (records), so the analyzer can tell that a select item is the
 * same expression as a GROUP BY key. SQL's three-valued logic: null is unknown.
 */
public sealed interface Expr {
    SqlType type();

    Object eval(Object[] row);

    /** The expressions this one is made of, in order. */
    default List<Expr> children() {
        return List.of();
    }

    /** The same expression over other children (as many, in the same order, as {@link #children}). */
    default Expr withChildren(List<Expr> c) {
        return this;
    }

    /** The input column at {@code index}. */
    record Column(int index, SqlType type) implements Expr {
        @Override
        public Object eval(Object[] row) {
            return row[index];
        }
    }

    record Literal(Object value, SqlType type) implements Expr {
        public static final Literal NULL = new Literal(null, SqlType.VOID);

        @Override
        public Object eval(Object[] row) {
            return value;
        }
    }

    /** An operator or function whose result depends only on its arguments' values; null in, null out. */
    record Call(ScalarFunction function, List<Expr> args, SqlType type) implements Expr {
        @Override
        public Object eval(Object[] row) {
            Object[] values = new Object[args.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = args.get(i).eval(row);
                if (values[i] == null && function.nullIntolerant()) {
                    return null;
                }
            }
            return function.apply(values, this);
        }

        @Override
        public List<Expr> children() {
            return args;
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new Call(function, c, type);
        }
    }

    /** AND: false if any side is false, else unknown if any is unknown. */
    record And(List<Expr> terms) implements Expr {
        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public Object eval(Object[] row) {
            boolean unknown = false;
            for (Expr t : terms) {
                Object v = t.eval(row);
                if (v == null) {
                    unknown = true;
                } else if (!(Boolean) v) {
                    return false;
                }
            }
            return unknown ? null : true;
        }

        @Override
        public List<Expr> children() {
            return terms;
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new And(c);
        }
    }

    /** OR: true if any side is true, else unknown if any is unknown. */
    record Or(List<Expr> terms) implements Expr {
        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public Object eval(Object[] row) {
            boolean unknown = false;
            for (Expr t : terms) {
                Object v = t.eval(row);
                if (v == null) {
                    unknown = true;
                } else if ((Boolean) v) {
                    return true;
                }
            }
            return unknown ? null : false;
        }

        @Override
        public List<Expr> children() {
            return terms;
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new Or(c);
        }
    }

    record Not(Expr term) implements Expr {
        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public Object eval(Object[] row) {
            Object v = term.eval(row);
            return v == null ? null : !(Boolean) v;
        }

        @Override
        public List<Expr> children() {
            return List.of(term);
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new Not(c.get(0));
        }
    }

    record IsNull(Expr term, boolean negated) implements Expr {
        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public Object eval(Object[] row) {
            return (term.eval(row) == null) != negated;
        }

        @Override
        public List<Expr> children() {
            return List.of(term);
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new IsNull(c.get(0), negated);
        }
    }

    /** CASE WHEN c1 THEN r1 ... ELSE e END; the results are already cast to {@code type}. */
    record Case(List<Expr> conditions, List<Expr> results, Expr otherwise, SqlType type) implements Expr {
        @Override
        public Object eval(Object[] row) {
            for (int i = 0; i < conditions.size(); i++) {
                if (Boolean.TRUE.equals(conditions.get(i).eval(row))) {
                    return results.get(i).eval(row);
                }
            }
            return otherwise.eval(row);
        }

        @Override
        public List<Expr> children() {
            List<Expr> all = new java.util.ArrayList<>(conditions);
            all.addAll(results);
            all.add(otherwise);
            return all;
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            int n = conditions.size();
            return new Case(c.subList(0, n), c.subList(n, 2 * n), c.get(2 * n), type);
        }
    }

    /**
     * x [NOT] IN (v1, v2, ...): unknown when x is null, or when no value matches and one is null.
     * When every item is a constant they are looked up in a hash set built once ({@link InSet}), so
     * a row costs the same for 10 items or 10,000; otherwise each row compares item by item.
     */
    record InList(Expr value, List<Expr> list, boolean negated, InSet constants) implements Expr {
        public InList(Expr value, List<Expr> list, boolean negated) {
            this(value, list, negated, InSet.of(list));
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public Object eval(Object[] row) {
            Object v = value.eval(row);
            if (v == null) {
                return null;
            }
            if (constants != null) {
                Boolean found = constants.contains(v);
                if (found != null) {
                    if (found) {
                        return !negated;
                    }
                    return constants.hasNull() ? null : (Object) negated;
                }
            }
            boolean unknown = false;
            for (Expr e : list) {
                Object candidate = e.eval(row);
                if (candidate == null) {
                    unknown = true;
                } else if (Values.compare(v, candidate) == 0) {
                    return !negated;
                }
            }
            return unknown ? null : negated;
        }

        @Override
        public List<Expr> children() {
            List<Expr> all = new java.util.ArrayList<>(list);
            all.add(0, value);
            return all;
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new InList(c.get(0), c.subList(1, c.size()), negated);
        }
    }

    /** x [NOT] LIKE 'pattern' with SQL's % and _ wildcards. */
    record Like(Expr value, String pattern, boolean negated) implements Expr {
        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public Object eval(Object[] row) {
            Object v = value.eval(row);
            if (v == null) {
                return null;
            }
            return LikeMatcher.matches(pattern, (String) v) != negated;
        }

        @Override
        public List<Expr> children() {
            return List.of(value);
        }

        @Override
        public Expr withChildren(List<Expr> c) {
            return new Like(c.get(0), pattern, negated);
        }
    }

    /** A short rendering for error messages, columns by position ({@code #3}); plans name them ({@link ExprText}). */
    public static String describe(Expr e) {
        return ExprText.of(e, i -> "#" + i);
    }
}
