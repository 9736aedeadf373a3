package org.oooengine.optimizer.plan;

/** How the first table of a plan is read. */
public enum AccessPath {
    /** The rows in the range through an index on the range column, each fetched from the clustered tree. */
    INDEX_RANGE("index range scan"),
    /** Every row read sequentially by the mappers of the first PSMJ job, the range applied as they go. */
    FULL_SCAN("full scan");

    private final String label;

    AccessPath(String label) {
        this.label = label;
    }

    @Override
    public String toString() {
        return label;
    }
}
