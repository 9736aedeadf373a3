package org.oooengine.core.columnar;

import org.oooengine.core.types.DataType;
import org.oooengine.core.types.TypeKind;

/**
 * The layout of a table partition's columnar copy ({@code <table>.cols}), written beside its
 * clustered tree from the same rows in primary-key order. All numbers are little-endian.
 *
 * <pre>
 * header   magic "OOCF" (int) | version (int)
 * chunks   one per column per group of {@link #GROUP_ROWS} rows:
 *            [rows null flags, 1 byte each, when the chunk has nulls]
 *            values: INT, DATE 4 bytes; BIGINT, DECIMAL (scaled), DOUBLE, TIMESTAMP (micros) 8 bytes; BOOLEAN 1 byte;
 *            strings, and wide decimals (precision above 18) as the text of their unscaled value,
 *            either plain (rows lengths, 4 bytes each, then the UTF-8 bytes) or, when a chunk
 *            holds at most {@link #MAX_DICTIONARY} distinct values, a dictionary (count, then
 *            length + bytes per entry) and a one-byte code per row; arrays and maps are not held
 *            (empty chunks): scans that read them read the clustered tree
 * footer   groups (int) | columns (int) | per group: rows (int), per column: offset (long),
 *            length (int), CRC32C (int), flags (byte), min (long), max (long) | CRC32C of all that
 * trailer  footer offset (long) | magic (int)
 * </pre>
 *
 * Min and max are kept for the columns stored as integers (INT, BIGINT, DATE, DECIMAL), so a scan
 * skips the groups a range predicate excludes, among them every group outside a range of the
 * leading key column.
 */
public final class ColumnFormat {
    public static final int MAGIC = 0x46434F4F; // "OOCF" read little-endian
    public static final int VERSION = 1;
    /** Rows per group: one batch of the vectorized operators. */
    public static final int GROUP_ROWS = 1024;
    public static final int MAX_DICTIONARY = 255;
    static final int HEADER_BYTES = 8;
    static final int TRAILER_BYTES = 12;
    static final int ENTRY_BYTES = 8 + 4 + 4 + 1 + 8 + 8;

    static final byte HAS_NULLS = 1;
    static final byte HAS_MIN_MAX = 2;
    static final byte DICTIONARY = 4;

    private ColumnFormat() {
    }

    /**
     * How a column of {@code type} is laid out in chunks: a wide decimal as text, the others as their
     * kind; null for an array or a map, which the copy does not hold.
     */
    static TypeKind layout(DataType type) {
        return type.isWideDecimal() ? TypeKind.VARCHAR : type.isComplex() ? null : type.kind();
    }

    /** Whether a column of this kind keeps min and max: the kinds stored as integers. */
    static boolean integral(TypeKind kind) {
        return switch (kind) {
            case INT, BIGINT, DATE, DECIMAL, TIMESTAMP -> true;
            default -> false;
        };
    }

    /** Bytes per value of a fixed-width kind; 0 for strings. */
    static int width(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> 1;
            case INT, DATE -> 4;
            case BIGINT, DECIMAL, DOUBLE, TIMESTAMP -> 8;
            case CHAR, VARCHAR -> 0;
            case ARRAY, MAP -> throw new IllegalArgumentException("the columnar copy holds no " + kind + " column");
        };
    }
}
