package org.oooengine.core.types;

/** A named, typed column of a table. */
public record Column(String name, DataType type) {
}
