package org.oooengine.core.vector;

import java.util.Arrays;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadWriter;

/**
 * Rows of column batches bound for one receiver (a shuffle's chunk for one node), gathered column
 * by column straight from the vectors, no value boxed, and written in {@link ColumnarRows}'
 * layout, which reads them back as rows. The vectors of every batch added must be of the classes
 * of the first one's ({@link #fits}): a batch whose are not starts a chunk of its own.
 */
public final class GatheredRows {
    private final SqlType[] types;
    private final Vector[] kinds;
    private final long[][] longs;
    private final double[][] doubles;
    private final byte[][] bytes;
    private final Object[][] objects;
    /** Per column, true where the row is null; null while none is. */
    private final boolean[][] nulls;
    private int size;
    private int capacity;

    /** For batches whose vectors are of the classes of {@code first}'s, column c of type {@code types[c]}. */
    public GatheredRows(Batch first, SqlType[] types, int capacity) {
        int width = first.width();
        this.types = types;
        this.kinds = new Vector[width];
        this.longs = new long[width][];
        this.doubles = new double[width][];
        this.bytes = new byte[width][];
        this.objects = new Object[width][];
        this.nulls = new boolean[width][];
        this.capacity = capacity;
        for (int c = 0; c < width; c++) {
            Vector v = first.column(c);
            kinds[c] = v;
            if (v instanceof LongVector && longKind(types[c]) != null) {
                longs[c] = new long[capacity];
            } else if (v instanceof DoubleVector) {
                doubles[c] = new double[capacity];
            } else if (v instanceof BoolVector) {
                bytes[c] = new byte[capacity];
            } else if (v != null) {
                objects[c] = new Object[capacity];
            }
        }
    }

    /** How the longs of a column of {@code type} are read back, or null where a type is not held in longs. */
    private static ColumnarRows.LongKind longKind(SqlType type) {
        return type == null ? null : switch (type.kind()) {
            case TINYINT, SMALLINT, INT -> ColumnarRows.LongKind.INT;
            case BIGINT -> ColumnarRows.LongKind.LONG;
            case DATE -> ColumnarRows.LongKind.DATE;
            case TIMESTAMP -> ColumnarRows.LongKind.TIMESTAMP;
            case DECIMAL -> ColumnarRows.LongKind.DECIMAL;
            default -> null;
        };
    }

    /** Whether {@code batch}'s columns are held as this gathers them. */
    public boolean fits(Batch batch) {
        if (batch.width() != kinds.length) {
            return false;
        }
        for (int c = 0; c < kinds.length; c++) {
            Vector v = batch.column(c);
            if (v == null ? kinds[c] != null : kinds[c] == null || v.getClass() != kinds[c].getClass()) {
                return false;
            }
        }
        return true;
    }

    public int size() {
        return size;
    }

    /** Adds the rows at {@code count} of {@code positions} (the vectors' positions) of {@code batch}, which {@link #fits}. */
    public void add(Batch batch, int[] positions, int count) {
        ensure(size + count);
        for (int c = 0; c < kinds.length; c++) {
            Vector v = batch.column(c);
            if (v == null) {
                continue;
            }
            // a loop per kind of column, each value moved without a test of how it is held
            if (longs[c] != null) {
                long[] from = ((LongVector) v).values;
                long[] to = longs[c];
                for (int k = 0; k < count; k++) {
                    to[size + k] = from[positions[k]];
                }
            } else if (doubles[c] != null) {
                double[] from = ((DoubleVector) v).values;
                double[] to = doubles[c];
                for (int k = 0; k < count; k++) {
                    to[size + k] = from[positions[k]];
                }
            } else if (bytes[c] != null) {
                byte[] from = ((BoolVector) v).values;
                byte[] to = bytes[c];
                for (int k = 0; k < count; k++) {
                    to[size + k] = from[positions[k]];
                }
            } else {
                Object[] to = objects[c];
                for (int k = 0; k < count; k++) {
                    to[size + k] = v.box(positions[k], types[c]);
                }
            }
            boolean[] vectorNulls = v instanceof NullFlags flags ? flags.nulls() : null;
            if (vectorNulls != null) {
                for (int k = 0; k < count; k++) {
                    if (vectorNulls[positions[k]]) {
                        markNull(c, size + k);
                    }
                }
            } else if (bytes[c] != null) {
                for (int k = 0; k < count; k++) {
                    if (v.isNull(positions[k])) {
                        markNull(c, size + k);
                    }
                }
            }
        }
        size += count;
    }

    /**
     * The rows gathered as a chunk of columns, as {@link ColumnarRows#readChunk} reads what
     * {@link #write} writes: for this node's own share of a shuffle, which crosses no network.
     */
    public ColumnarRows.Chunk toChunk() {
        // arrays as full as their rows are the chunk's as they are: one more row added would grow them into new ones
        ColumnarRows.Column[] columns = new ColumnarRows.Column[kinds.length];
        for (int c = 0; c < kinds.length; c++) {
            boolean[] n = nulls[c] == null ? null : trimmed(nulls[c]);
            if (longs[c] != null) {
                columns[c] = new ColumnarRows.Column(ColumnarRows.Held.LONGS, longKind(types[c]), types[c].scale(),
                        trimmed(longs[c]), null, null, n);
            } else if (doubles[c] != null) {
                columns[c] = new ColumnarRows.Column(ColumnarRows.Held.DOUBLES, null, 0, null,
                        size == doubles[c].length ? doubles[c] : Arrays.copyOf(doubles[c], size), null, n);
            } else if (kinds[c] == null) { // no vector: a column the rows carry as null, read by no step after
                columns[c] = new ColumnarRows.Column(ColumnarRows.Held.VALUES, null, 0, null, null, new Object[size], null);
            } else {
                boolean asHeld = bytes[c] == null && objects[c] != null && objects[c].length == size; // nulls are null in it
                Object[] values = asHeld ? objects[c] : new Object[size];
                boolean strings = true;
                for (int i = 0; i < size; i++) {
                    if (!asHeld) {
                        values[i] = n != null && n[i] ? null : bytes[c] != null
                                ? Boolean.valueOf(bytes[c][i] == BoolVector.TRUE) : objects[c] != null ? objects[c][i] : null;
                    }
                    strings &= values[i] == null || values[i] instanceof String;
                }
                ColumnarRows.Held held = bytes[c] != null ? ColumnarRows.Held.BOOLEANS
                        : strings && objects[c] != null ? ColumnarRows.Held.STRINGS : ColumnarRows.Held.VALUES;
                columns[c] = new ColumnarRows.Column(held, null, 0, null, null, values, n);
            }
        }
        return ColumnarRows.Chunk.ofColumns(size, columns);
    }

    private long[] trimmed(long[] values) {
        return size == values.length ? values : Arrays.copyOf(values, size);
    }

    private boolean[] trimmed(boolean[] values) {
        return size == values.length ? values : Arrays.copyOf(values, size);
    }

    /** Writes the rows gathered, in {@link ColumnarRows}' layout. */
    public void write(PayloadWriter w) {
        ColumnarRows.writeHeader(w, size, kinds.length);
        for (int c = 0; c < kinds.length; c++) {
            if (longs[c] != null) {
                ColumnarRows.writeLongs(w, longKind(types[c]), types[c].scale(), longs[c], nulls[c], size);
            } else if (doubles[c] != null) {
                ColumnarRows.writeDoubles(w, doubles[c], nulls[c], size);
            } else if (bytes[c] != null) {
                ColumnarRows.writeBooleans(w, bytes[c], nulls[c], size);
            } else {
                // a column no step read is all nulls
                ColumnarRows.writeObjects(w, objects[c] != null ? objects[c] : new Object[size], size);
            }
        }
    }

    private void markNull(int c, int at) {
        if (nulls[c] == null) {
            nulls[c] = new boolean[capacity];
        }
        nulls[c][at] = true;
        if (objects[c] != null) {
            objects[c][at] = null;
        }
    }

    private void ensure(int needed) {
        if (needed <= capacity) {
            return;
        }
        int grown = Math.max(needed, capacity * 2);
        capacity = grown;
        for (int c = 0; c < kinds.length; c++) {
            longs[c] = longs[c] == null ? null : Arrays.copyOf(longs[c], grown);
            doubles[c] = doubles[c] == null ? null : Arrays.copyOf(doubles[c], grown);
            bytes[c] = bytes[c] == null ? null : Arrays.copyOf(bytes[c], grown);
            objects[c] = objects[c] == null ? null : Arrays.copyOf(objects[c], grown);
            nulls[c] = nulls[c] == null ? null : Arrays.copyOf(nulls[c], grown);
        }
    }
}
