package org.oooengine.core.txn;

import java.util.Locale;

/**
 * When a committing transaction releases its locks and when it is acknowledged.
 *
 * <ul>
 *   <li>{@code nlr}: normal lock release. The worker flushes its own WAL, then installs and
 *   unlocks: nothing unflushed is ever visible, so no log sequence number is needed.</li>
 *   <li>{@code nlr-group:N}: locks are kept across up to N transactions and released at one
 *   flush; the worker flushes early whenever it would wait on a lock (deadlock avoidance).</li>
 *   <li>{@code elr}: early lock release. A global LSN orders the records; locks go before the
 *   flush; a commit is acknowledged once every worker has flushed up to its LSN.</li>
 *   <li>{@code elr-group:N}: as elr, flushing every N transactions.</li>
 *   <li>{@code elr-swal}: elr with one WAL shared by all workers (the baseline).</li>
 * </ul>
 */
public record LogProtocol(Release release, int groupSize, boolean sharedWal) {
    public enum Release { NLR, ELR }

    public static final LogProtocol NLR = new LogProtocol(Release.NLR, 1, false);
    public static final LogProtocol ELR = new LogProtocol(Release.ELR, 1, false);
    public static final LogProtocol ELR_SWAL = new LogProtocol(Release.ELR, 1, true);

    public LogProtocol {
        if (groupSize < 1) {
            throw new IllegalArgumentException("a commit group holds at least one transaction, not " + groupSize);
        }
    }

    public static LogProtocol nlrGroup(int n) {
        return new LogProtocol(Release.NLR, n, false);
    }

    public static LogProtocol elrGroup(int n) {
        return new LogProtocol(Release.ELR, n, false);
    }

    /** Parses {@code nlr}, {@code nlr-group:N}, {@code elr}, {@code elr-group:N} or {@code elr-swal}. */
    public static LogProtocol parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "nlr":
                return NLR;
            case "elr":
                return ELR;
            case "elr-swal":
                return ELR_SWAL;
            default:
                break;
        }
        for (Release r : Release.values()) {
            String prefix = r.name().toLowerCase(Locale.ROOT) + "-group:";
            if (s.startsWith(prefix)) {
                try {
                    return new LogProtocol(r, Integer.parseInt(s.substring(prefix.length())), false);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("group size must be a whole number: " + text);
                }
            }
        }
        throw new IllegalArgumentException(
                "unknown protocol '" + text + "': use nlr, nlr-group:N, elr, elr-group:N or elr-swal");
    }

    /** NLR with a group keeps tuples locked between transactions of one worker. */
    boolean holdsLocksAcrossTransactions() {
        return release == Release.NLR && groupSize > 1;
    }

    @Override
    public String toString() {
        String base = release.name().toLowerCase(Locale.ROOT);
        if (sharedWal) {
            return base + "-swal";
        }
        return groupSize == 1 ? base : base + "-group:" + groupSize;
    }
}
