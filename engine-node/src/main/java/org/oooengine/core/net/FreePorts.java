package org.oooengine.core.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Ports for a throwaway local cluster (the quickstart's, a test's). A cluster's nodes take a base port and
 * the ones after it, so one free port is not enough: all of them must be. They are picked below the
 * kernel's range of ports for outgoing connections (32768 and up on Linux), so that no connection takes
 * one between the check and the nodes binding it.
 */
public final class FreePorts {
    private static final int LOWEST = 20_000;
    private static final int BELOW = 32_000;
    private static final int ATTEMPTS = 200;

    private FreePorts() {
    }

    /** A port from which {@code count} consecutive ports on loopback are free now. */
    public static int consecutive(int count) throws IOException {
        Random random = new Random();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int base = LOWEST + random.nextInt(BELOW - LOWEST - count);
            if (IntStream.range(base, base + count).allMatch(FreePorts::free)) {
                return base;
            }
        }
        throw new IOException("no " + count + " consecutive free ports found between " + LOWEST + " and " + BELOW);
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
