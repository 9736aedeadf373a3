package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.units.Durations;

/**
 * Why a statement lost its connection to a node. A node process that ends is started again by its
 * supervisor (the local cluster's, or systemd), which records how the run before ended; the node
 * started again reports that ({@link PreviousEnd}). So when a statement fails because its
 * connection to a node was lost, the node is asked again for a bounded time (a supervisor restarts
 * a node a few seconds after it ended): a node whose previous run ran out of memory after the
 * statement began makes the statement's failure one of memory ({@link NodeRanOutOfMemoryException},
 * SQLSTATE 53200); one whose previous run ended otherwise in that time is named with its cause; one
 * that does not answer within the bound is named as such. The statement waits no longer than the
 * bound.
 */
public final class LostNodes {
    /**
     * "node X: connection to host:port lost: ...": X is the node whose connection was lost, also in
     * a failure that another node met and passed on ("node n1: node n2: connection to ...").
     */
    private static final Pattern LOST = Pattern.compile("\\bnode (\\S+): connection to \\S+" + Pattern.quote(NodeClient.LOST));
    /** A run's end is recorded in whole seconds, rounded down: one that long before the statement began may be after it. */
    static final double END_RESOLUTION_SECONDS = 1.0;
    /** The longest one request for a node's statistics may take; a node that did not answer is asked again. */
    private static final Duration ASK_AT_MOST = Duration.ofSeconds(2);
    /** Between two attempts to reach a node that is not back yet. */
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** Asks a node for its statistics (what it answers PARTITION_STATS), waiting at most {@code within}; empty without an answer. */
    public interface Asker {
        Optional<JsonNode> stats(String node, Duration within);
    }

    /** What a node lost by a statement answered when asked again. */
    enum Kind {
        /** Its previous run ran out of memory after the statement began. */
        OUT_OF_MEMORY,
        /** Its previous run ended otherwise after the statement began. */
        ENDED,
        /** It answered and tells of no end since the statement began: it dropped the connection without ending. */
        SAME_RUN,
        /** It did not answer within the bound. */
        SILENT
    }

    /** A node's answer, judged; {@code end} is set for {@link Kind#OUT_OF_MEMORY} and {@link Kind#ENDED}. */
    record Verdict(Kind kind, PreviousEnd end) {
        static final Verdict SILENT = new Verdict(Kind.SILENT, null);
        static final Verdict SAME_RUN = new Verdict(Kind.SAME_RUN, null);
    }

    private final Asker asker;
    private final Set<String> nodes;
    private final Duration wait;

    /**
     * @param nodes the cluster's nodes: only they are asked
     * @param wait  the most a failed statement waits for the nodes it lost to answer again; zero: they are not asked
     */
    public LostNodes(Asker asker, Collection<String> nodes, Duration wait) {
        if (wait.isNegative()) {
            throw new IllegalArgumentException("a negative wait: " + wait);
        }
        this.asker = asker;
        this.nodes = Set.copyOf(nodes);
        this.wait = wait;
    }

    /** The nodes whose connection {@code failure} says was lost, in the order it names them. */
    public Set<String> named(Throwable failure) {
        Set<String> out = new LinkedHashSet<>();
        collect(failure, out, Collections.newSetFromMap(new IdentityHashMap<>()));
        return out;
    }

    private void collect(Throwable t, Set<String> out, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        if (t.getMessage() != null) {
            Matcher m = LOST.matcher(t.getMessage());
            while (m.find()) {
                if (nodes.contains(m.group(1))) {
                    out.add(m.group(1));
                }
            }
        }
        collect(t.getCause(), out, seen);
        for (Throwable s : t.getSuppressed()) {
            collect(s, out, seen);
        }
    }

    /**
     * {@code failure} as the statement ends with it, once the nodes it lost the connection to said
     * how their previous run ended, or did not answer within the wait; {@code failure} itself when
     * it lost no connection, or the nodes' answers add nothing.
     *
     * @param startedNanos {@link System#nanoTime()} when the statement began
     * @param stop         true once the statement is cancelled: it waits no longer
     */
    public RuntimeException explain(RuntimeException failure, long startedNanos, BooleanSupplier stop) {
        Set<String> lost = named(failure);
        if (lost.isEmpty() || wait.isZero()) {
            return failure;
        }
        Map<String, Verdict> verdicts = ask(lost, startedNanos, stop);
        if (stop.getAsBoolean()) {
            verdicts.values().removeIf(v -> v.kind() == Kind.SILENT); // not waited for: nothing to say of them
        }
        return decide(failure, verdicts, wait);
    }

    /** Each node's verdict, asking the nodes in turn until each answered or the wait is over. */
    private Map<String, Verdict> ask(Set<String> lost, long startedNanos, BooleanSupplier stop) {
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        lost.forEach(n -> verdicts.put(n, Verdict.SILENT));
        Set<String> waiting = new LinkedHashSet<>(lost);
        long deadline = System.nanoTime() + wait.toNanos();
        while (!waiting.isEmpty() && !stop.getAsBoolean()) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                String node = it.next();
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return verdicts;
                }
                Optional<JsonNode> answer = asker.stats(node, Duration.ofNanos(Math.min(left, ASK_AT_MOST.toNanos())));
                if (answer.isPresent()) {
                    verdicts.put(node, verdict(answer.get(), (System.nanoTime() - startedNanos) / 1e9));
                    it.remove();
                }
            }
            long left = deadline - System.nanoTime();
            if (waiting.isEmpty() || left <= 0) {
                break;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, PAUSE_NANOS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return verdicts;
    }

    /**
     * What a node's statistics say of a statement that began {@code statementSeconds} before the
     * answer, by this process's clock. The node says how long before its answer its previous run
     * ended, by its own clock: the two durations compare whatever the clocks' times.
     */
    static Verdict verdict(JsonNode stats, double statementSeconds) {
        Optional<PreviousEnd.Reported> reported = PreviousEnd.fromStats(stats);
        if (reported.isEmpty() || reported.get().secondsAgo() > statementSeconds + END_RESOLUTION_SECONDS) {
            return Verdict.SAME_RUN;
        }
        PreviousEnd end = reported.get().end();
        return new Verdict(end.outOfMemory() ? Kind.OUT_OF_MEMORY : Kind.ENDED, end);
    }

    /** The failure the verdicts make of {@code failure}: out of memory first, then another end, then silence. */
    static RuntimeException decide(RuntimeException failure, Map<String, Verdict> verdicts, Duration wait) {
        for (var e : verdicts.entrySet()) {
            if (e.getValue().kind() == Kind.OUT_OF_MEMORY) {
                return new NodeRanOutOfMemoryException(e.getKey(), "node " + e.getKey() + " ran out of memory ("
                        + e.getValue().end().detail() + ") while running this statement and was restarted by its supervisor",
                        failure);
            }
        }
        for (var e : verdicts.entrySet()) {
            if (e.getValue().kind() == Kind.ENDED) {
                return new ClusterException("node " + e.getKey() + " ended (" + e.getValue().end().cause()
                        + ") while running this statement and was restarted by its supervisor", failure);
            }
        }
        List<String> silent = verdicts.entrySet().stream().filter(e -> e.getValue().kind() == Kind.SILENT)
                .map(Map.Entry::getKey).toList();
        if (silent.isEmpty()) {
            return failure;
        }
        String who = silent.size() == 1 ? "node " + silent.get(0) + " did not" : "nodes " + String.join(", ", silent) + " did not";
        return new ClusterException(failure.getMessage() + "; " + who + " answer again within " + Durations.format(wait),
                failure);
    }
}
