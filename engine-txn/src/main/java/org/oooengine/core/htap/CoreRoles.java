package org.oooengine.core.htap;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.EnumMap;
import java.util.Map;

/**
 * A node's core slots by role, as seed 000 divides cores: each role runs at most as many tasks at
 * once as it has slots, and the balancer moves slots between roles. A slot is a permit to run, not
 * a pinned core: the node's threads still share the machine's cores, and a role with fewer slots
 * runs fewer of its tasks at once, leaving the cores to the others.
 *
 * <p>Between two {@linkplain #sample samples} it measures, per role, the mean number of tasks
 * waiting for a slot (their waiting time over the period, by Little's law), and the share of its
 * slots' time spent holding them and spent on a CPU while holding them.
 */
public final class CoreRoles {
    /** The roles of seed 000: OLTP_DBP, OLAP_DBP, LS and CDP. */
    public enum Role {
        /** Transactions' steps (OLTP_DBP). */
        OLTP,
        /** Analytical scans of the copies and the pipelines they feed (OLAP_DBP). */
        OLAP,
        /** Writing shipped commits into the analytical copies (LS). */
        LOG_SHIPPING,
        /** Taking requests apart and handing them on, and the balancer itself (CDP). */
        DISPATCH
    }

    /** One role's slots and what it did with them since the last sample. */
    private static final class Pool {
        int slots;
        int held;
        int waiting;
        long waitNanos;
        long heldNanos;
        long cpuNanos;
    }

    /** What a role did between two samples. */
    public record Use(int slots, int held, double meanWaiting, double busy, double cpu) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final EnumMap<Role, Pool> pools = new EnumMap<>(Role.class);
    private final boolean cpuTimes = THREADS.isCurrentThreadCpuTimeSupported();
    private long sampledAt = System.nanoTime();

    /** Roles with slots enough never to wait: for copies and nodes no balancer runs on. */
    public static CoreRoles unbounded() {
        Map<Role, Integer> many = new EnumMap<>(Role.class);
        for (Role r : Role.values()) {
            many.put(r, 1 << 16);
        }
        return new CoreRoles(many);
    }

    /** Roles with {@code slots} each (every role at least one). */
    public CoreRoles(Map<Role, Integer> slots) {
        for (Role r : Role.values()) {
            int n = slots.getOrDefault(r, 0);
            if (n < 1) {
                throw new IllegalArgumentException("role " + r + " needs at least one slot, not " + n);
            }
            Pool p = new Pool();
            p.slots = n;
            pools.put(r, p);
        }
    }

    /** A held slot; close it when the task is done. */
    public final class Slot implements AutoCloseable {
        private final Role role;
        private long since;
        private long cpuSince;
        private boolean held;

        private Slot(Role role) {
            this.role = role;
        }

        public Role role() {
            return role;
        }

        /** Lets a task waiting for this role's slots go first if the role has too few now, then goes on. */
        public void yieldSlot() throws InterruptedException {
            synchronized (CoreRoles.this) {
                Pool p = pools.get(role);
                if (p.held <= p.slots && p.waiting == 0) {
                    return;
                }
            }
            close();
            acquire();
        }

        private void acquire() throws InterruptedException {
            long start = System.nanoTime();
            synchronized (CoreRoles.this) {
                Pool p = pools.get(role);
                if (p.held >= p.slots) {
                    p.waiting++;
                    try {
                        while (p.held >= p.slots) {
                            CoreRoles.this.wait();
                        }
                    } finally {
                        p.waiting--;
                        p.waitNanos += System.nanoTime() - start;
                    }
                }
                p.held++;
            }
            held = true;
            since = System.nanoTime();
            cpuSince = cpuTimes ? THREADS.getCurrentThreadCpuTime() : 0;
        }

        @Override
        public void close() {
            if (!held) {
                return;
            }
            held = false;
            long heldFor = System.nanoTime() - since;
            long cpu = cpuTimes ? THREADS.getCurrentThreadCpuTime() - cpuSince : 0;
            synchronized (CoreRoles.this) {
                Pool p = pools.get(role);
                p.held--;
                p.heldNanos += heldFor;
                p.cpuNanos += cpu;
                CoreRoles.this.notifyAll();
            }
        }
    }

    /** Waits for a slot of {@code role} and holds it until the returned slot is closed. */
    public Slot enter(Role role) throws InterruptedException {
        Slot s = new Slot(role);
        s.acquire();
        return s;
    }

    /** Runs {@code task} holding a slot of {@code role}. */
    public void run(Role role, Runnable task) {
        Slot s;
        try {
            s = enter(role);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a " + role + " slot", e);
        }
        try (s) {
            task.run();
        }
    }

    /** The slots {@code role} has now. */
    public synchronized int slots(Role role) {
        return pools.get(role).slots;
    }

    /** Every role's slots now. */
    public synchronized Map<Role, Integer> slots() {
        Map<Role, Integer> out = new EnumMap<>(Role.class);
        pools.forEach((r, p) -> out.put(r, p.slots));
        return out;
    }

    /** Moves a slot from {@code from} to {@code to}; false when {@code from} has only one. */
    public synchronized boolean move(Role from, Role to) {
        Pool f = pools.get(from);
        if (from == to || f.slots <= 1) {
            return false;
        }
        f.slots--;
        pools.get(to).slots++;
        notifyAll();
        return true;
    }

    /**
     * What each role did since the last sample (tasks still holding a slot count from when they
     * took it up to their end, in the sample they end in), and starts the next period.
     */
    public synchronized Map<Role, Use> sample() {
        long now = System.nanoTime();
        double period = Math.max(1, now - sampledAt);
        sampledAt = now;
        Map<Role, Use> out = new EnumMap<>(Role.class);
        pools.forEach((r, p) -> {
            out.put(r, new Use(p.slots, p.held, p.waitNanos / period, p.heldNanos / (period * p.slots),
                    p.cpuNanos / (period * p.slots)));
            p.waitNanos = 0;
            p.heldNanos = 0;
            p.cpuNanos = 0;
        });
        return out;
    }
}
