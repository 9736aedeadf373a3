package org.oooengine.core.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RemoteException;

/**
 * Routes by the cluster's partition map and its copies; remote steps go through this node's
 * {@link Peers}. Where a partition has copies, a probe goes to the holder that answers soonest
 * lately ({@link ReplicaChoice}), to another holder at once when its node is lost, and to another
 * as a hedged request when it has not answered by the time a typical peer has answered nearly all
 * of its requests ({@link #HEDGE_QUANTILE}); the first answer counts and the other is cancelled.
 * A holder that answers it has no such table (restarted empty, its copies not yet put back) is
 * passed over from then on, its request sent to another holder.
 */
final class ClusterRouter implements PartitionRouter {
    /**
     * A request is hedged once it has waited as long as a typical peer takes for this share of its
     * answers ("The Tail at Scale" waits for the 95th): answer times drift between statements, so
     * that the 0.97 quantile hedged 5.7% of PL's requests with no node slow, this one 3% or less.
     */
    static final double HEDGE_QUANTILE = 0.99;
    /** No hedge sooner than this: below it a second request costs more than the wait it saves. */
    static final long MIN_HEDGE_DELAY_NANOS = 100_000;

    private final String self;
    /** Whether this node's store holds a stored table: a node whose copies are being put back lacks some. */
    private final java.util.function.Predicate<String> storedHere;
    private final Peers peers;
    private final boolean hedging;
    private final ReplicaChoice choice;
    private final LongAdder hedged = new LongAdder();
    /** Holders found not to store their part of a partition (restarted empty), as node and stored name. */
    private final java.util.Set<Holder> lacking = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param hedging whether requests avoid a holder that is slow lately and a slow request is sent
     *                again to another holder; without, each goes to the first holder up and waits
     */
    ClusterRouter(String self, Peers peers, boolean hedging) {
        this(self, peers, hedging, stored -> false);
    }

    /** As above, on a node whose store holds the tables {@code storedHere} accepts (by stored name). */
    ClusterRouter(String self, Peers peers, boolean hedging, java.util.function.Predicate<String> storedHere) {
        this.self = self;
        this.storedHere = storedHere;
        this.peers = peers;
        this.hedging = hedging;
        this.choice = new ReplicaChoice(peers.latencies());
    }

    @Override
    public String self() {
        return self;
    }

    /** Requests sent again to a second holder since this router was made. */
    long hedgedRequests() {
        return hedged.sum();
    }

    /**
     * This node where it holds the partition (a copy read here saves a round trip), else a holder
     * with an open connection (hedging: the one {@link ReplicaChoice} picks, else the first), else
     * its owner (whose request then fails naming it).
     */
    @Override
    public Holder holder(String table, byte[] encodedValue) {
        ClusterSpec spec = peers.spec();
        int partition = Partitioning.partition(encodedValue, spec.owners(table).size());
        List<String> holders = spec.holders(table, partition);
        java.util.function.Predicate<String> usable = h -> connected(h) && !lacks(table, partition, h);
        // only a holder's copy: one left on a former holder (racks placed since) no longer gets the writes
        String node = holders.contains(self) && storedHere.test(spec.storedName(table, partition, self)) ? self
                : hedging ? choice.choose(holders, usable) : choice.first(holders, usable);
        return holderOf(table, partition, node == null ? holders.get(0) : node);
    }

    private Holder holderOf(String table, int partition, String node) {
        return new Holder(node, peers.spec().storedName(table, partition, node), table, partition);
    }

    @Override
    public CompletableFuture<List<Entry>> lookup(Holder at, String index, byte[] prefix) {
        return remote(at, (node, stored) -> client(node).thenCompose(c -> c.call(OpCode.INDEX_POINT_LOOKUP,
                Messages.pointLookup(stored, index, prefix))).thenApply(f -> Messages.readEntries(f.reader())));
    }

    @Override
    public CompletableFuture<List<byte[]>> fetch(Holder at, List<byte[]> primaryKeys) {
        return remote(at, (node, stored) -> client(node).thenCompose(c -> c.call(OpCode.FETCH_ROWS,
                Messages.fetch(stored, primaryKeys))).thenApply(f -> Messages.readValues(f.reader())));
    }

    /**
     * {@code request} to {@code at}, and to a second holder of its partition if the first is lost
     * or, hedging, slow: the first answer completes the result and cancels the other request.
     */
    private <T> CompletableFuture<T> remote(Holder at, BiFunction<String, String, CompletableFuture<T>> request) {
        String second = at.partition() < 0 ? null : choice.second(peers.spec().holders(at.table(), at.partition()),
                at.node(), h -> connected(h) && !lacks(at.table(), at.partition(), h));
        if (second == null) {
            return timed(at.node(), at.storedName(), request);
        }
        Holder other = holderOf(at.table(), at.partition(), second);
        Attempts<T> attempts = new Attempts<>(request, other);
        attempts.send(at);
        long typical = peers.latencies().typical(HEDGE_QUANTILE);
        if (hedging && typical > 0) { // none before the peers' answer times are known
            var timer = peers.schedule(attempts::hedge, Math.max(MIN_HEDGE_DELAY_NANOS, typical));
            attempts.answer.whenComplete((v, e) -> timer.cancel(false));
        }
        return attempts.answer;
    }

    /** One request sent to one holder and perhaps, once, to a second: the first answer wins. */
    private final class Attempts<T> {
        final CompletableFuture<T> answer = new CompletableFuture<>();
        private final BiFunction<String, String, CompletableFuture<T>> request;
        private final Holder second;
        private final AtomicLong inFlight = new AtomicLong();
        private volatile boolean secondSent;
        /** The first holder's failure while the other was still asked: the error, should that one fail too, names both. */
        private volatile Throwable earlier;

        Attempts(BiFunction<String, String, CompletableFuture<T>> request, Holder second) {
            this.request = request;
            this.second = second;
        }

        void send(Holder to) {
            inFlight.incrementAndGet();
            CompletableFuture<T> sent = timed(to.node(), to.storedName(), request);
            answer.whenComplete((v, e) -> sent.cancel(false)); // the loser's answer, if it comes, is dropped
            sent.whenComplete((v, e) -> {
                if (e == null) {
                    answer.complete(v);
                } else {
                    boolean notHeld = RemoteException.notFound(e);
                    if (notHeld) {
                        lacking.add(to);
                    }
                    if (inFlight.decrementAndGet() == 0
                            && !((notHeld || RemoteException.lostNode(e) != null) && sendSecond())) {
                        answer.completeExceptionally(alongWith(e, earlier));
                    } else {
                        earlier = e;
                    }
                }
            });
        }

        /**
         * {@code last}, the failure of the last holder asked, naming the other holder's before it
         * too (with the code of the last, which callers act on).
         */
        private static Throwable alongWith(Throwable last, Throwable before) {
            RemoteException l = remoteCause(last);
            RemoteException b = remoteCause(before);
            if (l == null || b == null || l.node().equals(b.node())) {
                return last;
            }
            return new RemoteException(l.node(), l.code(), l.getMessage() + "; before it, " + b.getMessage());
        }

        private static RemoteException remoteCause(Throwable failure) {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (t instanceof RemoteException re) {
                    return re;
                }
            }
            return null;
        }

        /** The hedge: the second holder asked too, unless an answer came or it was asked already. */
        void hedge() {
            if (!answer.isDone() && sendSecond()) {
                hedged.increment();
            }
        }

        private synchronized boolean sendSecond() {
            if (secondSent) {
                return false;
            }
            secondSent = true;
            send(second);
            return true;
        }
    }

    /** {@code request} to {@code node}, its answer time kept for replica choice and hedging. */
    private <T> CompletableFuture<T> timed(String node, String stored,
                                           BiFunction<String, String, CompletableFuture<T>> request) {
        long t0 = System.nanoTime();
        CompletableFuture<T> sent = request.apply(node, stored);
        sent.whenComplete((v, e) -> {
            // A request cancelled as the loser took at least this long: its time counts as such, so
            // that a slow node's figures do not stop at its last answer that won.
            if (e == null || sent.isCancelled()) {
                peers.latencies().record(node, System.nanoTime() - t0);
            }
        });
        return sent;
    }

    private boolean lacks(String table, int partition, String node) {
        return !lacking.isEmpty() && lacking.contains(holderOf(table, partition, node));
    }

    private boolean connected(String node) {
        return peers.connected(node) != null;
    }

    // Connections are opened before a fragment starts; one lost during it is not reopened here,
    // since that would block a network or compute thread: the request fails naming the node.
    private CompletableFuture<NodeClient> client(String node) {
        NodeClient c = peers.connected(node);
        return c != null ? CompletableFuture.completedFuture(c) : CompletableFuture.failedFuture(
                new RemoteException(node, ErrorCode.NODE_UNAVAILABLE, "connection lost"));
    }
}
