package org.oooengine.core.htap;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.EnumMap;
import java.util.Map;

/**
 * A node's core slots by role, as seed 000 divides cores, and the balancer moves slots between
 * roles. A slot is a permit to run, not a pinned core: a role runs at most as many tasks at once
 * as it has slots, and, when the node is given a number of cores, a role with k of the n slots uses
 * at most k/n of them: its tasks, at each {@linkplain Slot#yieldSlot yield}, pause until the CPU
 * time they used is within that share (a short burst aside). The node's threads still share the
 * machine's cores; a role held to fewer slots leaves them to the others.
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
        /** CPU time the role may still use before its tasks pause, refilled at its share of the cores. */
        double creditNanos;
        long refilledAt = System.nanoTime();
        int held;
        int waiting;
        long waitNanos;
        long heldNanos;
        long cpuNanos;
    }

    /**
     * What a role did between two samples.
     *
     * @param meanWaiting tasks waiting for a slot, on average
     * @param busy the time tasks ran in the role's slots, over the slots' time (above 1 with shared slots)
     * @param cpu the CPU time they used, over the CPU the role may use: its share of the node's cores,
     *            or a core per slot when the node shares out none
     * @param offCpu the share of their running time spent off the CPU (waiting for I/O, for locks, paused)
     */
    public record Use(int slots, int held, double meanWaiting, double busy, double cpu, double offCpu) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final EnumMap<Role, Pool> pools = new EnumMap<>(Role.class);
    private final boolean cpuTimes = THREADS.isCurrentThreadCpuTimeSupported();
    /**
     * Whether shared slots are counted at all: not while every role has {@link #UNBOUNDED_SLOTS}
     * and no cores are shared (a node's default mode, where nothing reads the counts): a
     * transaction's every step would pay three CPU-clock reads and three turns of this lock.
     */
    private volatile boolean counting;
    private long sampledAt = System.nanoTime();
    /** The cores the roles share out; 0: none, no role is held to a share of CPU. */
    private double cores;
    /** The CPU time a role may use ahead of its share, per slot. */
    private static final long BURST_NANOS_PER_SLOT = 20_000_000L;
    /** The longest one pause of a role over its share. */
    private static final long MAX_PAUSE_NANOS = 100_000_000L;

    /** Slots enough for every role never to wait: for copies and nodes no balancer runs on. */
    private static final int UNBOUNDED = 1 << 16;
    public static final Map<Role, Integer> UNBOUNDED_SLOTS = java.util.Arrays.stream(Role.values())
            .collect(java.util.stream.Collectors.toUnmodifiableMap(r -> r, r -> UNBOUNDED));

    /** Roles with {@link #UNBOUNDED_SLOTS}. */
    public static CoreRoles unbounded() {
        return new CoreRoles(UNBOUNDED_SLOTS);
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
        counting = counts();
    }

    private boolean counts() {
        return cores > 0 || pools.values().stream().anyMatch(p -> p.slots < UNBOUNDED);
    }

    /** A held slot; close it when the task is done. */
    public class Slot implements AutoCloseable {
        private final Role role;
        /** Whether this slot counts against the role's slots; a shared one only pays for its CPU. */
        private final boolean permit;
        private long since;
        private long chargedCpu;
        private boolean held;

        private Slot(Role role, boolean permit) {
            this.role = role;
            this.permit = permit;
        }

        /**
         * Pauses while the role has used more than its share of the cores, and lets a task waiting
         * for the role's slots go first if it has too few now; then goes on.
         */
        public void yieldSlot() throws InterruptedException {
            long pause;
            boolean handOver;
            synchronized (CoreRoles.this) {
                Pool p = pools.get(role);
                pause = charge(p);
                handOver = permit && (p.held > p.slots || p.waiting > 0);
            }
            if (pause > 0) {
                Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
            }
            if (handOver) {
                close();
                acquire();
                heldHere.get().put(role, this);
            }
        }

        /** Charges the CPU time used since the last charge to the role; returns how long to pause for it. */
        private long charge(Pool p) {
            if (!cpuTimes) {
                return 0;
            }
            long cpu = THREADS.getCurrentThreadCpuTime();
            long used = cpu - chargedCpu;
            chargedCpu = cpu;
            p.cpuNanos += used;
            if (cores <= 0) {
                return 0;
            }
            double rate = share(p);
            long now = System.nanoTime();
            p.creditNanos = Math.min(BURST_NANOS_PER_SLOT * p.slots, p.creditNanos + (now - p.refilledAt) * rate) - used;
            p.refilledAt = now;
            return p.creditNanos >= 0 ? 0 : (long) Math.min(MAX_PAUSE_NANOS, -p.creditNanos / rate);
        }

        private void acquire() throws InterruptedException {
            long start = System.nanoTime();
            synchronized (CoreRoles.this) {
                Pool p = pools.get(role);
                if (permit && p.held >= p.slots) {
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
                if (permit) {
                    p.held++;
                }
            }
            held = true;
            since = System.nanoTime();
            chargedCpu = cpuTimes ? THREADS.getCurrentThreadCpuTime() : 0;
        }

        /** A slot entered again by the thread holding it: yields as it does, and leaves it held when closed. */
        private final class Nested extends Slot {
            Nested() {
                super(role, false);
            }

            @Override
            public void yieldSlot() throws InterruptedException {
                Slot.this.yieldSlot();
            }

            @Override
            public void close() {
            }
        }

        @Override
        public void close() {
            if (!held) {
                return;
            }
            held = false;
            heldHere.get().remove(role, this);
            long heldFor = System.nanoTime() - since;
            synchronized (CoreRoles.this) {
                Pool p = pools.get(role);
                charge(p);
                if (permit) {
                    p.held--;
                }
                p.heldNanos += heldFor;
                CoreRoles.this.notifyAll();
            }
        }
    }

    /**
     * Waits for a slot of {@code role} and holds it until the returned slot is closed. A thread
     * already holding one of the role's slots (a scan that runs another to build a join) goes on
     * in it: the slot returned is that one's, and closing it does nothing.
     */
    public Slot enter(Role role) throws InterruptedException {
        Slot outer = heldHere.get().get(role);
        if (outer != null) {
            return outer.new Nested();
        }
        Slot s = new Slot(role, true);
        s.acquire();
        heldHere.get().put(role, s);
        return s;
    }

    /**
     * A slot of {@code role} that does not count against its slots: the task runs at once, however
     * many of the role's run, and pays only for its CPU time, pausing at yields while the role is
     * over its share of the cores. For work whose concurrency is bounded elsewhere and which may
     * wait on other work of its role while it runs (a transaction's step, a scan feeding a shuffle).
     */
    public Slot share(Role role) {
        Slot outer = heldHere.get().get(role);
        if (outer != null) {
            return outer.new Nested();
        }
        Slot s = new Slot(role, false);
        try {
            s.acquire();
        } catch (InterruptedException e) {
            throw new AssertionError("a shared slot does not wait", e);
        }
        heldHere.get().put(role, s);
        return s;
    }

    /**
     * Runs {@code task} in a shared slot of {@code role}, its CPU time counted to the role, never
     * pausing it: for work the role's share should not hold back.
     */
    public void runCounted(Role role, Runnable task) {
        if (!counting) {
            task.run();
            return;
        }
        try (Slot s = share(role)) {
            task.run();
        }
    }

    /** Runs {@code task} in a shared slot of {@code role} ({@link #share}), pausing after it while the role is over its share. */
    public void runShared(Role role, Runnable task) {
        if (!counting) {
            task.run();
            return;
        }
        Slot s = share(role);
        try {
            task.run();
            s.yieldSlot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            s.close();
        }
    }

    /** The slots the current thread holds, by role. */
    private final ThreadLocal<Map<Role, Slot>> heldHere = ThreadLocal.withInitial(() -> new EnumMap<>(Role.class));

    /** Runs {@code task} holding a slot of {@code role}, then pauses while the role is over its share of the cores. */
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
            s.yieldSlot(); // pays for the task's CPU time, pausing while the role is over its share
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Holds each role to its share of {@code cores} (slots over all slots); 0 holds none. On a
     * machine several nodes share, give each its part of the machine's cores.
     */
    public synchronized void shareCores(double cores) {
        if (cores < 0) {
            throw new IllegalArgumentException("a node's cores are not negative: " + cores);
        }
        this.cores = cores;
        counting = counts();
    }

    /** Gives every role {@code slots} from now on (every role at least one). */
    public synchronized void reset(Map<Role, Integer> slots) {
        for (Role r : Role.values()) {
            if (slots.getOrDefault(r, 0) < 1) {
                throw new IllegalArgumentException("role " + r + " needs at least one slot, not " + slots.get(r));
            }
        }
        slots.forEach((r, n) -> pools.get(r).slots = n);
        counting = counts();
        notifyAll();
    }

    /** The CPU time a role may use per nanosecond: its slots' share of the cores. */
    private double share(Pool p) {
        int total = pools.values().stream().mapToInt(x -> x.slots).sum();
        return cores * p.slots / total;
    }

    /** The CPU time {@code role} may use per nanosecond: its share of the cores, or a core per slot when none are shared. */
    public synchronized double allotted(Role role) {
        Pool p = pools.get(role);
        return cores > 0 ? share(p) : p.slots;
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
            double allotted = allotted(r);
            double offCpu = p.heldNanos == 0 ? 0 : Math.max(0, 1 - (double) p.cpuNanos / p.heldNanos);
            out.put(r, new Use(p.slots, p.held, p.waitNanos / period, p.heldNanos / (period * p.slots),
                    p.cpuNanos / (period * allotted), offCpu));
            p.waitNanos = 0;
            p.heldNanos = 0;
            p.cpuNanos = 0;
        });
        return out;
    }
}
