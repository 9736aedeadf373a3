package org.oooengine.cluster.bench;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.exec.PartitionRouter;

/**
 * Remote-fetch micro-benchmark: a closed loop keeps exactly N single-row fetches by primary key in
 * flight to one node over the coordinator's one connection to it, and measures requests per
 * second and latency percentiles for each N. Rows are chosen at random among a sample of the
 * node's keys; the warm-up brings them into the node's buffer pool, so this measures the wire,
 * the event loops and the request path rather than the disk.
 */
public final class FetchBench {
    /** Keys sampled from the node's partition. */
    public static final int DEFAULT_KEYS = 20_000;

    /** Figures at one in-flight count. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Level(int inFlight, long requests, double seconds, double requestsPerSecond, double p50Us,
                        double p90Us, double p99Us, double p999Us, double maxUs, double requestsPerFrame) {
    }

    /** The whole run: where it went and each level's figures. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Result(String node, String dial, String table, int keys, double secondsPerLevel, List<Level> levels) {
    }

    private final ClusterSession session;
    private final PartitionRouter router;
    private final String node;
    private final String table;
    private final List<byte[]> keys;

    public FetchBench(ClusterSession session, String node, String table, int keyCount) {
        this.session = session;
        this.router = session.router();
        this.node = node;
        this.table = table;
        this.keys = session.nodeKeys(node, table, null, 10_000, keyCount);
        if (keys.isEmpty()) {
            throw new ClusterException("node " + node + " holds no rows of " + table);
        }
    }

    public Result run(int[] inFlightCounts, double seconds, Consumer<Level> progress) throws InterruptedException {
        List<Level> levels = new ArrayList<>();
        for (int n : inFlightCounts) {
            Level l = level(n, seconds);
            progress.accept(l);
            levels.add(l);
        }
        return new Result(node, dial(), table, keys.size(), seconds, levels);
    }

    /** Where the requests go: the node's own address, or the proxy in front of it. */
    public String dial() {
        InetSocketAddress a = session.spec().node(node).dialAddress();
        return a.getHostString() + ":" + a.getPort();
    }

    private Level level(int inFlight, double seconds) throws InterruptedException {
        Loop loop = new Loop(inFlight);
        loop.start();
        Thread.sleep((long) (Math.min(1.0, seconds / 4) * 1000));
        long frames0 = session.peers().framesSent();
        loop.measuring = true;
        long t0 = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        loop.measuring = false;
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long frames = session.peers().framesSent() - frames0;
        loop.stopAndDrain();
        LatencyHistogram h = loop.histogram;
        long requests;
        synchronized (h) {
            requests = h.count();
        }
        return new Level(inFlight, requests, elapsed, requests / elapsed, h.quantileMicros(0.50), h.quantileMicros(0.90),
                h.quantileMicros(0.99), h.quantileMicros(0.999), h.quantileMicros(1.0),
                frames == 0 ? 0 : (double) requests / frames);
    }

    /** N chains of requests: each answer records its latency and sends the chain's next request. */
    private final class Loop {
        private final int chains;
        private final LatencyHistogram histogram = new LatencyHistogram();
        private final AtomicInteger live = new AtomicInteger();
        private final CountDownLatch drained = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile boolean running = true;
        private volatile boolean measuring;

        Loop(int chains) {
            this.chains = chains;
        }

        void start() {
            live.set(chains);
            for (int i = 0; i < chains; i++) {
                send();
            }
        }

        private void send() {
            byte[] key = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
            long sent = System.nanoTime();
            boolean counted = measuring;
            router.fetch(PartitionRouter.Holder.only(node, table), List.of(key)).whenComplete((rows, error) -> {
                long nanos = System.nanoTime() - sent;
                if (error == null && (rows.size() != 1 || rows.get(0) == null)) {
                    error = new IllegalStateException("node " + node + " did not return the row of a key it listed");
                }
                if (error != null) {
                    failure.compareAndSet(null, error);
                    running = false;
                } else if (counted && measuring) {
                    synchronized (histogram) {
                        histogram.record(nanos);
                    }
                }
                if (running) {
                    send();
                } else if (live.decrementAndGet() == 0) {
                    drained.countDown();
                }
            });
        }

        void stopAndDrain() throws InterruptedException {
            running = false;
            if (!drained.await(session.peers().timeout().toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
                throw new ClusterException("node " + node + " left requests unanswered past the timeout");
            }
            Throwable t = failure.get();
            if (t != null) {
                throw new ClusterException("fetch from node " + node + " failed: " + t.getMessage(), t);
            }
        }
    }
}
