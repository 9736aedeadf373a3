package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.List;

/**
 * Where TPC-C's rows live on a cluster: the warehouses in contiguous ranges over the nodes (each
 * warehouse's districts, customers, orders, history and stock with it), the items — read by every
 * NewOrder, never written — on every node.
 */
public record TpccPlacement(int warehouses, List<String> nodes) {
    public TpccPlacement {
        if (warehouses < 1 || nodes.isEmpty()) {
            throw new IllegalArgumentException("TPC-C needs at least one warehouse and one node, not "
                    + warehouses + " and " + nodes.size());
        }
        nodes = List.copyOf(nodes);
    }

    /** The node that holds warehouse {@code w}'s rows. */
    public String owner(int w) {
        if (w < 1 || w > warehouses) {
            throw new IllegalArgumentException("warehouse " + w + " is not one of 1 to " + warehouses);
        }
        return nodes.get((int) ((long) (w - 1) * nodes.size() / warehouses));
    }

    /** The warehouses {@code node} holds. */
    public List<Integer> warehousesOf(String node) {
        List<Integer> out = new ArrayList<>();
        for (int w = 1; w <= warehouses; w++) {
            if (owner(w).equals(node)) {
                out.add(w);
            }
        }
        return out;
    }
}
