package org.oooengine.core.storage;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Daemon I/O and compute pools shared by the storage tests, as a store would provide them. */
public final class TestPools {
    public static final ExecutorService IO = Executors.newFixedThreadPool(8, daemon());
    public static final ExecutorService CPU = Executors.newFixedThreadPool(2, daemon());

    private TestPools() {
    }

    private static java.util.concurrent.ThreadFactory daemon() {
        return r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
    }
}
