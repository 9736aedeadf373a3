package org.oooengine.core.cluster;

/** How a node runs its fragment of a distributed join. */
public enum ExecutionMode {
    /** Local and remote I/O out of order under one in-flight budget per node. */
    OOO,
    /**
     * Local I/O out of order, remote requests one at a time: out-of-order execution only inside
     * each node's storage engine, with remote access left synchronous.
     */
    OOO_LOCAL,
    /** Every probe, local or remote, awaited before the next. */
    INORDER
}
