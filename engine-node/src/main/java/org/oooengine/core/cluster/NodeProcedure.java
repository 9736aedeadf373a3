package org.oooengine.core.cluster;

import org.oooengine.core.wire.PayloadReader;

/**
 * A stored procedure the nodes run on their transactional tables ({@code TXN} step {@code
 * PROCEDURE}): found by {@link #name()} among the implementations {@link java.util.ServiceLoader}
 * finds, it runs on the node that owns its rows, on one of the node's procedure threads, with
 * transactions that reach that node's rows without a round trip ({@link Context#begin}).
 */
public interface NodeProcedure {
    String name();

    /**
     * Whether the procedure waits on other nodes (it coordinates a transaction across them): such
     * procedures run on the node's procedure threads; the others — steps of a transaction another
     * node coordinates — on the lanes, which never wait on other nodes, so that no cycle of nodes
     * waiting on each other's threads can form.
     */
    default boolean waitsOnOtherNodes() {
        return true;
    }

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

        /** The connections to the other nodes. */
        Peers peers();

        /**
         * The node's resource called {@code name} (e.g. a store a procedure keeps), opened by {@code
         * open} in its own directory under the node's data on first use and closed when the node stops.
         */
        <T extends AutoCloseable> T resource(String name, java.util.function.Function<java.nio.file.Path, T> open);
    }
}
