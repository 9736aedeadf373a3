package org.oooengine.core.sql.expr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;

/**
 * Hive's functions of arrays (java.util.List) and maps (java.util.Map, insertion-ordered), with
 * Hive's answers where they are not the obvious ones: {@code size(NULL)} is -1, {@code
 * array_contains} is false (not NULL) for a NULL array or value, {@code map_keys} and {@code
 * map_values} of a NULL map are empty, and an index out of range or a key that is absent is NULL.
 * Arguments were typed and brought to the element types by the analyzer.
 */
final class CollectionFunctions {
    private CollectionFunctions() {
    }

    /** Functions that see NULL arguments rather than returning NULL for them. */
    static boolean takesNulls(ScalarFunction f) {
        return switch (f) {
            case ARRAY, MAP, SIZE, ARRAY_CONTAINS, MAP_KEYS, MAP_VALUES -> true;
            default -> false;
        };
    }

    static boolean isCollectionFunction(ScalarFunction f) {
        return switch (f) {
            case ARRAY, MAP, SPLIT, SIZE, ARRAY_CONTAINS, SORT_ARRAY, MAP_KEYS, MAP_VALUES, SUBSCRIPT -> true;
            default -> false;
        };
    }

    static Object apply(ScalarFunction f, Object[] v, Expr.Call call) {
        return switch (f) {
            case ARRAY -> new ArrayList<>(Arrays.asList(v));
            case MAP -> map(v);
            case SPLIT -> split((String) v[0], (String) v[1]);
            case SIZE -> v[0] == null ? -1 : v[0] instanceof List<?> l ? l.size() : ((Map<?, ?>) v[0]).size();
            case ARRAY_CONTAINS -> contains((List<?>) v[0], v[1]);
            case SORT_ARRAY -> sorted((List<?>) v[0]);
            case MAP_KEYS -> v[0] == null ? new ArrayList<>() : new ArrayList<>(((Map<?, ?>) v[0]).keySet());
            case MAP_VALUES -> v[0] == null ? new ArrayList<>() : new ArrayList<>(((Map<?, ?>) v[0]).values());
            case SUBSCRIPT -> element(v[0], v[1], call.args().get(0).type());
            default -> throw new IllegalArgumentException(f + " is not a collection function");
        };
    }

    /** map(k1, v1, k2, v2, ...): a later pair with an equal key replaces an earlier one's value, as in Hive. */
    private static Map<Object, Object> map(Object[] v) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < v.length; i += 2) {
            out.put(v[i], v[i + 1]);
        }
        return out;
    }

    /**
     * Hive's split: Java's String.split with no limit, so empty strings between and after
     * separators are kept ({@code split('a,,b,', ',')} has four elements).
     */
    private static List<Object> split(String s, String regex) {
        try {
            return new ArrayList<>(Arrays.asList(s.split(regex, -1)));
        } catch (PatternSyntaxException e) {
            throw new SqlException(SqlException.DATA, "split: '" + regex + "' is not a regular expression: "
                    + e.getDescription());
        }
    }

    private static boolean contains(List<?> array, Object value) {
        if (array == null || value == null) {
            return false;
        }
        for (Object element : array) {
            if (element != null && Values.compare(element, value) == 0) {
                return true;
            }
        }
        return false;
    }

    /** Ascending, NULLs first, as Hive's sort_array orders them. */
    private static List<Object> sorted(List<?> array) {
        List<Object> out = new ArrayList<>(array);
        out.sort((a, b) -> a == null ? (b == null ? 0 : -1) : b == null ? 1 : Values.compare(a, b));
        return out;
    }

    /** a[i] (from 0, as Hive counts) or m[key]; NULL when out of range or absent. */
    private static Object element(Object collection, Object at, SqlType type) {
        if (type.kind() == SqlType.Kind.ARRAY) {
            List<?> list = (List<?>) collection;
            long i = ((Number) at).longValue();
            return i < 0 || i >= list.size() ? null : list.get((int) i);
        }
        Map<?, ?> map = (Map<?, ?>) collection;
        Object direct = map.get(at);
        if (direct != null || map.containsKey(at)) {
            return direct;
        }
        for (Map.Entry<?, ?> e : map.entrySet()) { // 1 finds the key 1L: numbers compare by value
            if (e.getKey() != null && Values.compare(e.getKey(), at) == 0) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * A value as Hive writes it inside an array or a map in a result set (SerDeUtils' JSON): text
     * and dates quoted, NULL as {@code null}, booleans in lower case, maps as {@code {key:value}}
     * with the key as its own type writes it ({@code {1:"a"}}, {@code {"k":1}}).
     */
    static String json(Object v) {
        StringBuilder b = new StringBuilder();
        json(b, v);
        return b.toString();
    }

    private static void json(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof List<?> list) {
            b.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                json(b, list.get(i));
            }
            b.append(']');
        } else if (v instanceof Map<?, ?> map) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                json(b, e.getKey());
                b.append(':');
                json(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof Boolean flag) {
            b.append(flag ? "true" : "false");
        } else if (v instanceof Number) {
            b.append(Values.text(v));
        } else {
            quoted(b, Values.text(v));
        }
    }

    /** Text between double quotes, escaped as Hive's SerDeUtils.escapeString escapes it. */
    private static void quoted(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"', '\\' -> b.append('\\').append(c);
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < ' ') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
