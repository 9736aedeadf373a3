package org.oooengine.core.exec;

/** Receives result rows. Sinks fed by out-of-order operators are called from several threads at once. */
@FunctionalInterface
public interface RowSink {
    void accept(Object[] row);
}
