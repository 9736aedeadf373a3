package org.oooengine.hive.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Counts the open connections, overall and per client ({@link ClientAddress}), and decides at
 * once whether one more may come in. Deciding at accept time, before a worker thread is taken, is
 * what keeps a crowd of idle sockets from one address from locking everyone else out.
 */
final class ConnectionAdmission {
    private final int maxConnections;
    private final int maxPerAddress;
    private final Map<ClientAddress, Integer> perAddress = new HashMap<>();
    private int total;

    ConnectionAdmission(int maxConnections, int maxPerAddress) {
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * Takes a slot for a connection from {@code client}; {@link #release} gives it back.
     *
     * @return empty when admitted, else why not, in words for the refused client
     */
    synchronized Optional<String> admit(ClientAddress client) {
        int fromAddress = perAddress.getOrDefault(client, 0);
        if (fromAddress >= maxPerAddress) {
            return Optional.of("too many connections from " + client + ": the limit is "
                    + maxPerAddress + " per client address (" + EndpointConfig.Limits.MAX_CONNECTIONS_PER_ADDRESS
                    + "); close idle connections or retry later");
        }
        if (total >= maxConnections) {
            return Optional.of("the server has reached its limit of " + maxConnections + " connections ("
                    + EndpointConfig.Limits.MAX_CONNECTIONS + "); retry later");
        }
        perAddress.put(client, fromAddress + 1);
        total++;
        return Optional.empty();
    }

    synchronized void release(ClientAddress client) {
        Integer fromAddress = perAddress.get(client);
        if (fromAddress == null) {
            return;
        }
        if (fromAddress == 1) {
            perAddress.remove(client);
        } else {
            perAddress.put(client, fromAddress - 1);
        }
        total--;
    }

    synchronized int open() {
        return total;
    }
}
