package org.oooengine.optimizer.rel;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.oooengine.core.sql.expr.InSet;

/**
 * Plans numbered by shape: two subplans have one number when they compute the same rows — the
 * same operators, tables, expressions and constants — whatever their columns and tables are
 * called (a WITH query referenced under two aliases). Anything whose sameness cannot be told (an
 * object that is not a value) makes its subplan unlike any other.
 */
public final class Shapes {
    private final Function<RelNode, String> extra;
    private final Map<RelNode, Integer> shapeOf = new IdentityHashMap<>();
    private final Map<String, Integer> shapes = new HashMap<>();
    private final Map<RelNode, List<RelNode>> children = new IdentityHashMap<>();
    /** Objects that are not values: each is only itself. */
    private final Map<Object, Integer> opaque = new IdentityHashMap<>();

    public Shapes() {
        this(n -> "");
    }

    /** {@code extra}: what else tells a node's rows apart, beyond its own values (e.g. the columns read of a scan). */
    public Shapes(Function<RelNode, String> extra) {
        this.extra = extra;
    }

    /** The number of {@code node}'s shape. */
    public int of(RelNode node) {
        Integer known = shapeOf.get(node);
        if (known != null) {
            return known;
        }
        List<RelNode> inputs = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        describe(node, text, inputs, true);
        text.append(extra.apply(node));
        int shape = shapes.computeIfAbsent(text.toString(), t -> shapes.size());
        shapeOf.put(node, shape);
        children.put(node, inputs);
        return shape;
    }

    /** The number of {@code node}'s shape when it was numbered (it or a plan holding it), else -1. */
    public int known(RelNode node) {
        return shapeOf.getOrDefault(node, -1);
    }

    /** The plans {@code node} reads, every one that its values hold (its inputs, the build sides of its pipeline). */
    public List<RelNode> inputs(RelNode node) {
        of(node);
        return children.get(node);
    }

    /** Appends a text that equals another's only when the values are alike; a plan node below the top by its shape. */
    private void describe(Object value, StringBuilder out, List<RelNode> inputs, boolean top) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof RelNode n && !top) {
            inputs.add(n);
            out.append('#').append(of(n));
        } else if (value instanceof Field f) {
            describe(f.type(), out, inputs, false); // a column's name does not change its values
        } else if (value instanceof InSet) {
            out.append('-'); // made from the IN list beside it
        } else if (value instanceof String s) {
            out.append('"').append(s.length()).append(':').append(s).append('"');
        } else if (value instanceof Number || value instanceof Boolean || value instanceof Character
                || value instanceof Enum<?> || value instanceof BitSet || value instanceof java.time.temporal.Temporal
                || value instanceof java.time.temporal.TemporalAmount) { // an INTERVAL literal: a Period or a Duration
            out.append(value.getClass().getSimpleName()).append(':').append(value);
        } else if (value instanceof Record r) {
            out.append(r.getClass().getName()).append('(');
            Optional<List<Method>> accessors = ACCESSORS.get(r.getClass());
            if (accessors.isEmpty()) {
                out.append(opaqueId(r)).append(')');
                return;
            }
            for (Method accessor : accessors.get()) {
                Object part;
                try {
                    part = accessor.invoke(r);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    out.append(opaqueId(r));
                    continue;
                }
                describe(part, out, inputs, false);
                out.append(',');
            }
            out.append(')');
        } else if (value instanceof Collection<?> c) {
            out.append('[');
            for (Object item : c) {
                describe(item, out, inputs, false);
                out.append(',');
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            out.append('{');
            sorted.forEach((k, v) -> {
                describe(k, out, inputs, false);
                out.append('=');
                describe(v, out, inputs, false);
                out.append(',');
            });
            out.append('}');
        } else if (value.getClass().isArray()) {
            out.append(value.getClass().getComponentType().getSimpleName()).append('[');
            for (int i = 0; i < Array.getLength(value); i++) {
                describe(Array.get(value, i), out, inputs, false);
                out.append(',');
            }
            out.append(']');
        } else {
            out.append(opaqueId(value));
        }
    }

    /**
     * A record class's component accessors, made accessible once (looked up per value, they took a
     * sixth of the coordinator's time planning TPC-H); a scan's alias left out: a table's rows,
     * whatever it is called.
     */
    private static final ClassValue<Optional<List<Method>>> ACCESSORS = new ClassValue<>() {
        @Override
        protected Optional<List<Method>> computeValue(Class<?> type) {
            List<Method> accessors = new ArrayList<>();
            for (RecordComponent c : type.getRecordComponents()) {
                if (type == RelNode.Scan.class && c.getName().equals("alias")) {
                    continue;
                }
                Method m = c.getAccessor();
                try {
                    m.setAccessible(true);
                } catch (RuntimeException closed) { // a record of a module not open to this one: unlike any other
                    return Optional.empty();
                }
                accessors.add(m);
            }
            return Optional.of(List.copyOf(accessors));
        }
    };

    private String opaqueId(Object value) {
        return "@" + opaque.computeIfAbsent(value, v -> opaque.size());
    }
}
