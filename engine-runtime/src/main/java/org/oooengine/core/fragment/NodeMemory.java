package org.oooengine.core.fragment;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What every statement running on a node holds there together, against one limit for the node:
 * each statement's {@link QueryMemory} reserves from it as well as from its own limit, and so do
 * the rows other members sent the node ahead of the pipelines that use them ({@link StagedRows},
 * {@link Exchanges}). However many statements run at once, what they hold stays within it, so a
 * node's heap never fills with rows no limit saw; what does not fit fails its statement by name
 * (or spills, where the operator can).
 */
public final class NodeMemory {
    private final String where;
    private final long limit;
    private final String setting;
    /** Bytes reserved by statements' operators. */
    private final AtomicLong operators = new AtomicLong();
    /** Bytes of rows held for pipelines to come. */
    private final AtomicLong held = new AtomicLong();

    /**
     * @param where   e.g. "node n1"
     * @param setting how an operator raises the limit, for the message
     */
    public NodeMemory(String where, long limit, String setting) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a node's memory for statements must be positive, not " + limit);
        }
        this.where = where;
        this.limit = limit;
        this.setting = setting;
    }

    /** Takes {@code bytes} for a statement's operator; false, taking nothing, when the node has no room left. */
    boolean tryReserve(long bytes) {
        return tryTake(operators, bytes);
    }

    void release(long bytes) {
        operators.addAndGet(-bytes);
    }

    /** Takes {@code bytes} for rows held for a pipeline to come; false, taking nothing, when the node has no room. */
    boolean tryHold(long bytes) {
        return tryTake(held, bytes);
    }

    void releaseHeld(long bytes) {
        held.addAndGet(-bytes);
    }

    private boolean tryTake(AtomicLong counter, long bytes) {
        if (bytes <= 0) {
            counter.addAndGet(bytes);
            return true;
        }
        counter.addAndGet(bytes);
        if (used() > limit) {
            counter.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    /** Bytes held now, by operators and for pipelines to come. */
    public long used() {
        return operators.get() + held.get();
    }

    /** Bytes the statements' operators hold now. */
    public long reservedByStatements() {
        return operators.get();
    }

    public long limit() {
        return limit;
    }

    /** Why a reservation of {@code bytes} did not fit, for {@code what}. */
    String full(String what, long bytes) {
        return what + " on " + where + " needs more than the memory " + where + " gives the statements running there, "
                + mib(limit) + " (" + mib(used()) + " held by them, " + mib(bytes) + " more asked)"
                + (setting.isEmpty() ? "" : "; raise it with " + setting + ", or run fewer statements at once");
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }
}
