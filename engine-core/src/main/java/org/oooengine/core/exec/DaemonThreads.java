package org.oooengine.core.exec;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads that do not keep the process alive, named {@code prefix-1}, {@code prefix-2}, ... */
public final class DaemonThreads {
    private DaemonThreads() {
    }

    public static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
