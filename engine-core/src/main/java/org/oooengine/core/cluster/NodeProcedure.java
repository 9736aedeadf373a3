package org.oooengine.core.cluster;

import org.oooengine.core.net.PayloadReader;

/**
 * A stored procedure the nodes run on their transactional tables ({@code TXN} step {@code
 * PROCEDURE}): found by {@link #name()} among the implementations {@link java.util.ServiceLoader}
 * finds, it runs on the node that owns its rows, on one of the node's procedure threads, with
 * transactions that reach that node's rows without a round trip ({@link Context#begin}).
 */
public interface NodeProcedure {
    String name();

    /** Runs the procedure with its arguments; returns its answer. */
    byte[] run(PayloadReader args, Context context);

    /** Where a procedure runs. */
    interface Context {
        /** This node's name. */
        String node();

        /** The cluster's nodes, by name. */
        java.util.List<String> nodes();

        /** A new transaction coordinated here: this node's rows are read and written in place, the others' over the network. */
        DistributedTransaction begin();
    }
}
