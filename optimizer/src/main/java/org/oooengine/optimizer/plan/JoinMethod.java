package org.oooengine.optimizer.plan;

/** How one join of a plan runs. */
public enum JoinMethod {
    /** Index nested-loop join on the node daemons, every probe its own task, many in flight. */
    OOO_PNLJ("ooo-pnlj"),
    /** The same index join with one probe in flight per node. */
    INORDER_PNLJ("inorder-pnlj"),
    /** Hadoop's parallel sort-merge join: one MapReduce job scanning and shuffling both inputs. */
    PSMJ("psmj");

    private final String label;

    JoinMethod(String label) {
        this.label = label;
    }

    public boolean indexJoin() {
        return this != PSMJ;
    }

    @Override
    public String toString() {
        return label;
    }
}
