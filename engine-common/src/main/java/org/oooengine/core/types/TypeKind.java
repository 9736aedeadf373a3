package org.oooengine.core.types;

/**
 * The column types the engine stores. Java value classes are listed per kind in {@link DataType}.
 * Ordinals may travel: new kinds go last.
 */
public enum TypeKind {
    BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL, DATE, CHAR, VARCHAR, TIMESTAMP, ARRAY, MAP
}
