package org.oooengine.core.sql.expr;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The constant items of an IN list as a hash set, under keys that are equal exactly when
 * {@link Values#compare} says the values are: 5, 5L and 5.00 are one key, decimals ignore trailing
 * zeros. The items were already cast to the compared type when the list was bound. Floating
 * point values have no such key (1 = 1.0 by double comparison): a list holding one is not a set.
 */
public final class InSet {
    private final Set<Object> keys;
    private final boolean hasNull;

    private InSet(Set<Object> keys, boolean hasNull) {
        this.keys = keys;
        this.hasNull = hasNull;
    }

    /** The set of {@code items}, or null when one of them is not a constant or has no key. */
    static InSet of(List<Expr> items) {
        Set<Object> keys = new HashSet<>();
        boolean hasNull = false;
        for (Expr item : items) {
            if (!constant(item)) {
                return null;
            }
            Object v;
            try {
                v = item.eval(new Object[0]);
            } catch (RuntimeException notAValueYet) {
                return null; // e.g. a cast that fails: the row-by-row path reports it as before
            }
            if (v == null) {
                hasNull = true;
                continue;
            }
            Object k = key(v);
            if (k == null) {
                return null;
            }
            keys.add(k);
        }
        return new InSet(keys, hasNull);
    }

    /** Whether {@code v} (not null) is in the set; null when {@code v} has no key (a double). */
    Boolean contains(Object v) {
        Object k = key(v);
        return k == null ? null : keys.contains(k);
    }

    /** One of the items was NULL: a value not found is then unknown. */
    boolean hasNull() {
        return hasNull;
    }

    private static boolean constant(Expr e) {
        if (e instanceof Expr.Literal) {
            return true;
        }
        List<Expr> children = e.children();
        return !children.isEmpty() && children.stream().allMatch(InSet::constant);
    }

    private static Object key(Object v) {
        if (v instanceof Double || v instanceof Float) {
            return null;
        }
        Object k = Values.groupKey(v);
        if (k instanceof BigDecimal d && d.scale() == 0 && d.unscaledValue().bitLength() < 64) {
            return d.longValueExact(); // 5.00 and 5 are one key
        }
        return k;
    }

    /** Built from the same items: the set is derived from the list, so two equal lists make equal sets. */
    @Override
    public boolean equals(Object o) {
        return o instanceof InSet other && hasNull == other.hasNull && keys.equals(other.keys);
    }

    @Override
    public int hashCode() {
        return keys.hashCode() * 31 + Boolean.hashCode(hasNull);
    }
}
