package org.oooengine.hive.sql.exec;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.oooengine.core.sql.expr.InSet;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * The parts of a plan that occur more than once alike — a WITH query referenced twice, the same
 * scalar subquery in each branch of a UNION ALL (TPC-DS Q14's average sales, Q23's frequent items):
 * the executor computes each once per statement and replays its rows where it occurs again, as
 * Spark reuses an exchange and Hive materializes a CTE. Alike means the same operators, tables,
 * expressions and constants, and, for a table the coordinator scans itself, the same columns read
 * of it; the names of columns do not count. Anything whose sameness cannot be told (an object that
 * is not a value) makes its subplan unlike any other.
 */
final class SharedSubplans {
    private final Map<RelNode.Scan, BitSet> usage;
    /** Each node's subplan, as the number of its shape. */
    private final Map<RelNode, Integer> shapeOf = new IdentityHashMap<>();
    private final Map<String, Integer> shapes = new HashMap<>();
    private final Map<RelNode, List<RelNode>> children = new IdentityHashMap<>();
    /** Objects that are not values: each is only itself. */
    private final Map<Object, Integer> opaque = new IdentityHashMap<>();
    /** Per shape, the places it is computed: inside a shape's later occurrence, nothing is counted again. */
    private final Map<Integer, Integer> occurrences = new HashMap<>();

    private SharedSubplans(Map<RelNode.Scan, BitSet> usage) {
        this.usage = usage;
    }

    /** The plan's shared subplans; {@code usage}: the columns read of each table the coordinator scans. */
    static SharedSubplans of(RelNode root, Map<RelNode.Scan, BitSet> usage) {
        SharedSubplans s = new SharedSubplans(usage);
        s.count(root);
        return s;
    }

    /** The shape under which {@code node}'s rows are computed once and replayed, or -1 when it occurs once. */
    int key(RelNode node) {
        Integer shape = shapeOf.get(node);
        return shape != null && occurrences.getOrDefault(shape, 0) > 1 && !(node instanceof RelNode.Values) ? shape : -1;
    }

    /** How many times the subplan of shape {@code key} is computed in the plan. */
    int uses(int key) {
        return occurrences.getOrDefault(key, 0);
    }

    private void count(RelNode node) {
        int shape = shape(node);
        if (occurrences.merge(shape, 1, Integer::sum) == 1) {
            children.getOrDefault(node, List.of()).forEach(this::count);
        }
    }

    private int shape(RelNode node) {
        Integer known = shapeOf.get(node);
        if (known != null) {
            return known;
        }
        List<RelNode> inputs = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        describe(node, text, inputs, true);
        if (node instanceof RelNode.Scan s) {
            text.append(" reads ").append(usage.getOrDefault(s, new BitSet()));
        }
        int shape = shapes.computeIfAbsent(text.toString(), t -> shapes.size());
        shapeOf.put(node, shape);
        children.put(node, inputs);
        return shape;
    }

    /** Appends a text that equals another's only when the values are alike; a plan node below the top by its shape. */
    private void describe(Object value, StringBuilder out, List<RelNode> inputs, boolean top) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof RelNode n && !top) {
            inputs.add(n);
            out.append('#').append(shape(n));
        } else if (value instanceof Field f) {
            describe(f.type(), out, inputs, false); // a column's name does not change its values
        } else if (value instanceof InSet) {
            out.append('-'); // made from the IN list beside it
        } else if (value instanceof String s) {
            out.append('"').append(s.length()).append(':').append(s).append('"');
        } else if (value instanceof Number || value instanceof Boolean || value instanceof Character
                || value instanceof Enum<?> || value instanceof BitSet || value instanceof java.time.temporal.Temporal) {
            out.append(value.getClass().getSimpleName()).append(':').append(value);
        } else if (value instanceof Record r) {
            out.append(r.getClass().getName()).append('(');
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                if (r instanceof RelNode.Scan && c.getName().equals("alias")) {
                    continue; // a table's rows, whatever it is called
                }
                Object part;
                try {
                    c.getAccessor().setAccessible(true);
                    part = c.getAccessor().invoke(r);
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

    private String opaqueId(Object value) {
        return "@" + opaque.computeIfAbsent(value, v -> opaque.size());
    }
}
