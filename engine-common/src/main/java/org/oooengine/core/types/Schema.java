package org.oooengine.core.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An ordered list of columns with lookup by name. */
public final class Schema {
    private final List<Column> columns;
    private final Map<String, Integer> positions = new HashMap<>();

    public Schema(List<Column> columns) {
        this.columns = List.copyOf(columns);
        for (int i = 0; i < this.columns.size(); i++) {
            if (positions.put(this.columns.get(i).name(), i) != null) {
                throw new IllegalArgumentException("duplicate column '" + this.columns.get(i).name() + "'");
            }
        }
    }

    public List<Column> columns() {
        return columns;
    }

    public int size() {
        return columns.size();
    }

    public Column column(int i) {
        return columns.get(i);
    }

    public DataType type(int i) {
        return columns.get(i).type();
    }

    public boolean has(String name) {
        return positions.containsKey(name);
    }

    /** Position of a column; an unknown name is an error that lists what exists. */
    public int indexOf(String name) {
        Integer i = positions.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no column '" + name + "' among " + names());
        }
        return i;
    }

    public int[] indexesOf(List<String> names) {
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = indexOf(names.get(i));
        }
        return out;
    }

    public DataType[] types(int[] cols) {
        DataType[] out = new DataType[cols.length];
        for (int i = 0; i < cols.length; i++) {
            out[i] = type(cols[i]);
        }
        return out;
    }

    public List<String> names() {
        List<String> out = new ArrayList<>(columns.size());
        for (Column c : columns) {
            out.add(c.name());
        }
        return out;
    }
}
