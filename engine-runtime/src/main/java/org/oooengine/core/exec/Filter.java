package org.oooengine.core.exec;

import java.util.function.Predicate;

/** Passes on the rows that satisfy a predicate. */
public record Filter(Predicate<Object[]> predicate, RowSink downstream) implements RowSink {
    @Override
    public void accept(Object[] row) {
        if (predicate.test(row)) {
            downstream.accept(row);
        }
    }
}
