package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/**
 * SQL values as objects (strings); null is null. A vector decoded from a dictionary chunk also
 * carries that {@link Dictionary}, so a kernel tests each distinct value once, not each row.
 */
public final class ObjectVector implements Vector {
    public final Object[] values;
    private final Dictionary dictionary;

    public ObjectVector(Object[] values) {
        this(values, null);
    }

    /** {@code values} that are {@code dictionary}'s entries by code (or null where a row is null). */
    public ObjectVector(Object[] values, Dictionary dictionary) {
        this.values = values;
        this.dictionary = dictionary;
    }

    /** The values' dictionary, or null when they come from no dictionary. */
    public Dictionary dictionary() {
        return dictionary;
    }

    @Override
    public boolean isNull(int i) {
        return values[i] == null;
    }

    @Override
    public Object box(int i, SqlType type) {
        return values[i];
    }

    @Override
    public void setBoxed(int i, Object value, SqlType type) {
        if (dictionary != null) {
            throw new UnsupportedOperationException("a dictionary vector is read only");
        }
        values[i] = value;
    }

    /**
     * A column's few distinct values ({@code entries}, at most 256) and each position's code: where
     * {@code values[i]} is not null it is {@code entries[codes[i] & 0xFF]}. {@code nullable} is false
     * only when no position is null, so kernels may read the codes alone.
     */
    public record Dictionary(Object[] entries, byte[] codes, boolean nullable) {
        public Dictionary {
            if (entries.length > 256) {
                throw new IllegalArgumentException("a dictionary of " + entries.length + " entries does not fit byte codes");
            }
        }

        /** {@code test}'s answer for each entry, as a boolean vector's bytes, indexed by code. */
        byte[] answers(java.util.function.Predicate<Object> test) {
            byte[] answers = new byte[entries.length];
            for (int e = 0; e < entries.length; e++) {
                answers[e] = test.test(entries[e]) ? BoolVector.TRUE : BoolVector.FALSE;
            }
            return answers;
        }

        /** The predicate {@code test} at the batch's positions of {@code vector} (this dictionary's), NULL where null. */
        BoolVector test(ObjectVector vector, Batch batch, java.util.function.Predicate<Object> test) {
            byte[] answers = answers(test);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            int n = batch.size();
            if (!nullable) {
                for (int k = 0; k < n; k++) {
                    int p = pos[k];
                    out[p] = answers[codes[p] & 0xFF];
                }
            } else {
                Object[] values = vector.values;
                for (int k = 0; k < n; k++) {
                    int p = pos[k];
                    out[p] = values[p] == null ? BoolVector.NULL : answers[codes[p] & 0xFF];
                }
            }
            return new BoolVector(out);
        }

        /** The batch's positions where {@code test} holds (never a null one) into {@code kept}; returns how many. */
        int select(ObjectVector vector, Batch batch, java.util.function.Predicate<Object> test, int[] kept) {
            byte[] answers = answers(test); // TRUE is 1, FALSE 0: added as they are
            int[] pos = batch.positions();
            int size = batch.size();
            int n = 0;
            if (!nullable) {
                for (int k = 0; k < size; k++) {
                    int p = pos[k];
                    kept[n] = p;
                    n += answers[codes[p] & 0xFF];
                }
            } else {
                Object[] values = vector.values;
                for (int k = 0; k < size; k++) {
                    int p = pos[k];
                    kept[n] = p;
                    n += values[p] == null ? 0 : answers[codes[p] & 0xFF];
                }
            }
            return n;
        }
    }
}
