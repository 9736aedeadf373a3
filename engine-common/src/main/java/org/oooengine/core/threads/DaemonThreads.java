package org.oooengine.core.threads;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads that do not keep the process alive, named {@code prefix-1}, {@code prefix-2}, ... */
public final class DaemonThreads {
    private DaemonThreads() {
    }

    public static ThreadFactory named(String prefix) {
        return named(prefix, Thread.NORM_PRIORITY);
    }

    /**
     * As {@link #named}, for threads that run statements' work (scans, joins, loads): they yield the
     * CPU to the threads that answer requests, so that a node busy with long statements still answers
     * a status request or a transaction at once. The priority reaches the operating system (as a nice
     * value) only in JVMs started with {@value #OS_PRIORITIES}, as the engine starts its nodes.
     */
    public static ThreadFactory background(String prefix) {
        return named(prefix, Thread.MIN_PRIORITY);
    }

    /** The JVM flag that maps thread priorities to nice values on Linux (lowering needs no privilege). */
    public static final String OS_PRIORITIES = "-XX:ThreadPriorityPolicy=1";

    private static ThreadFactory named(String prefix, int priority) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            t.setPriority(priority);
            return t;
        };
    }
}
