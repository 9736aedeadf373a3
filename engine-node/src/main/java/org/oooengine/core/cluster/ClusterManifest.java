package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.oooengine.core.store.StoreManifest;

/**
 * The tables of a cluster as the store manifests of all its nodes show them, asked of every node
 * at once. A node that gives no manifest within the deadline is named, with its address and why,
 * instead of its tables vanishing or its partition being taken for the table. A table's rows (and
 * bytes, and index entries) are summed over the nodes that answered; they are only the table's
 * when every node holding a partition of it answered ({@link Table#complete()}).
 *
 * <p>The nodes must agree on a table's layout (columns, primary key, indexes). When they do not —
 * a change of the table seen halfway, committed on some nodes and not yet on others — asking for
 * that table fails with an error naming two nodes that differ.
 */
public final class ClusterManifest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A node whose manifest, or partition of a table, is missing: its name, the address it was
     * asked at, and why (e.g. "did not answer within 10000 ms").
     */
    public record Missing(String node, String address, String reason) {
        @Override
        public String toString() {
            return "node " + node + " at " + address + ": " + reason;
        }
    }

    /**
     * One table over the cluster: its layout, with rows, bytes and index entries summed over the
     * nodes that answered, and the nodes holding a partition of it that did not.
     */
    public record Table(StoreManifest.TableMeta meta, List<Missing> missing) {
        public Table {
            missing = List.copyOf(missing);
        }

        public String name() {
            return meta.name();
        }

        /** Whether every node holding a partition answered: the figures are the table's. */
        public boolean complete() {
            return missing.isEmpty();
        }
    }

    private final ClusterSpec spec;
    /** Nodes that answered and have data loaded, in the cluster's node order. */
    private final Map<String, StoreManifest> manifests;
    /** Nodes that answered, with or without data. */
    private final Set<String> answered;
    private final List<Missing> unanswered;
    /** Each table as {@link #table} summed it: planning asks for a table many times per statement. */
    private final Map<String, Optional<Table>> tables = new java.util.concurrent.ConcurrentHashMap<>();

    ClusterManifest(ClusterSpec spec, Map<String, StoreManifest> manifests, Set<String> answered,
                    List<Missing> unanswered) {
        this.spec = spec;
        this.manifests = Collections.unmodifiableMap(new LinkedHashMap<>(manifests));
        this.answered = Set.copyOf(answered);
        this.unanswered = List.copyOf(unanswered);
    }

    /**
     * Asks every node at once for its statistics ({@code stats}: a node's answer to
     * PARTITION_STATS) and waits at most {@code deadline} for all of them.
     */
    static ClusterManifest ask(ClusterSpec spec, Function<String, CompletableFuture<JsonNode>> stats, Duration deadline) {
        Map<String, CompletableFuture<JsonNode>> answers = new LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            answers.put(n.id(), stats.apply(n.id()));
        }
        try {
            CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
                    .get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // each node's outcome is read below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answers.values().forEach(f -> f.cancel(true));
            throw new ClusterException("interrupted while asking the nodes for their tables", e);
        }
        Map<String, StoreManifest> manifests = new LinkedHashMap<>();
        Set<String> answered = new LinkedHashSet<>();
        List<Missing> unanswered = new ArrayList<>();
        answers.forEach((node, answer) -> {
            if (!answer.isDone()) {
                answer.cancel(true);
                unanswered.add(missing(spec, node, "did not answer within " + deadline.toMillis() + " ms"));
                return;
            }
            try {
                JsonNode m = answer.join().get("manifest");
                if (m != null && !m.isNull()) {
                    manifests.put(node, JSON.convertValue(m, StoreManifest.class));
                }
                answered.add(node);
            } catch (CompletionException | java.util.concurrent.CancellationException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                unanswered.add(missing(spec, node, reason(spec, node, cause)));
            } catch (IllegalArgumentException unreadable) {
                unanswered.add(missing(spec, node, "sent an unreadable manifest: " + unreadable.getMessage()));
            }
        });
        return new ClusterManifest(spec, manifests, answered, unanswered);
    }

    private static Missing missing(ClusterSpec spec, String node, String reason) {
        InetSocketAddress a = spec.node(node).dialAddress();
        return new Missing(node, a.getHostString() + ":" + a.getPort(), reason);
    }

    /** The failure's message without the node's name and address: the caller names both. */
    private static String reason(ClusterSpec spec, String node, Throwable failure) {
        String m = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        String prefix = "node " + node + ": ";
        m = m.startsWith(prefix) ? m.substring(prefix.length()) : m;
        return m.replace(" at " + missing(spec, node, "").address() + " ", " ");
    }

    /** The nodes that gave no manifest, in the cluster's node order. */
    public List<Missing> unanswered() {
        return unanswered;
    }

    /**
     * Whether a table could be held by the nodes that did not answer alone: as many of them as
     * there are copies of a partition (any fewer leave every partition a holder that answered).
     */
    public boolean mayMissTables() {
        return !unanswered.isEmpty() && unanswered.size() >= spec.replication();
    }

    /** Whether no node at all answered: nothing is known of the cluster's tables. */
    public boolean noneAnswered() {
        return answered.isEmpty();
    }

    /** The names of the tables on the nodes that answered, in the order the first of them lists them. */
    public List<String> tableNames() {
        Set<String> names = new LinkedHashSet<>();
        manifests.values().forEach(m -> m.tables().stream().filter(t -> !ClusterSpec.isReplicaName(t.name()))
                .forEach(t -> names.add(t.name())));
        return List.copyOf(names);
    }

    /**
     * A table as the nodes that answered hold it, each partition counted once: from its owner, else
     * from a node holding its replica; empty when none of them holds any (the nodes that did not
     * answer may).
     *
     * @throws ClusterException when two nodes hold it with different layouts
     */
    public Optional<Table> table(String name) {
        Optional<Table> known = tables.get(name);
        if (known == null) { // not computeIfAbsent: summing throws where layouts differ, and it may take a while
            known = summed(name);
            tables.put(name, known);
        }
        return known;
    }

    private Optional<Table> summed(String name) {
        String first = null;
        StoreManifest.TableMeta layout = null;
        long rows = 0;
        long bytes = 0;
        Map<String, Long> indexEntries = new LinkedHashMap<>();
        Map<String, List<Long>> ranges = null; // a column's range over all partitions, kept only where every node knows it
        List<Missing> missing = new ArrayList<>();
        List<String> owners = spec.owners(name);
        for (int p = 0; p < owners.size(); p++) {
            Map.Entry<String, StoreManifest.TableMeta> copy = copyOf(name, p);
            if (copy == null) {
                missing.add(missingPartition(owners.get(p), name));
                continue;
            }
            StoreManifest.TableMeta t = copy.getValue();
            if (layout == null) {
                first = copy.getKey();
                layout = t;
            } else if (!sameLayout(layout, t)) {
                throw new ClusterException("table " + name + " has different layouts on node " + first + " ("
                        + describe(layout) + ") and node " + copy.getKey() + " (" + describe(t) + "); a change of it may"
                        + " still be committing: try again");
            }
            rows += t.rows();
            bytes += t.dataBytes();
            if (t.rows() > 0) { // an empty partition has no range to add
                ranges = mergedRanges(ranges, t.columnRanges() == null ? Map.of() : t.columnRanges());
            }
            for (StoreManifest.IndexMeta ix : indexes(t)) {
                indexEntries.merge(ix.name(), ix.entries(), Long::sum);
            }
        }
        if (layout == null) {
            return Optional.empty();
        }
        List<StoreManifest.IndexMeta> ixs = layout.indexes() == null ? null : layout.indexes().stream()
                .map(ix -> new StoreManifest.IndexMeta(ix.name(), ix.columns(), indexEntries.get(ix.name()), ix.file(),
                        ix.scope()))
                .toList();
        StoreManifest.TableMeta summed = new StoreManifest.TableMeta(name, layout.columns(), layout.primaryKey(), rows,
                bytes, layout.file(), ixs, layout.columnsFile(), ranges);
        return Optional.of(new Table(summed, missing));
    }

    /** The first node that answered holding partition {@code partition} of {@code table}, its owner first, and its copy; null: none. */
    private Map.Entry<String, StoreManifest.TableMeta> copyOf(String table, int partition) {
        List<String> holders = spec.holders(table, partition);
        for (int j = 0; j < holders.size(); j++) {
            String stored = j == 0 ? table : ClusterSpec.replicaName(table, partition);
            StoreManifest m = manifests.get(holders.get(j));
            Optional<StoreManifest.TableMeta> held = m == null ? Optional.empty()
                    : m.tables().stream().filter(t -> t.name().equals(stored)).findFirst();
            if (held.isPresent()) {
                return Map.entry(holders.get(j), held.get());
            }
        }
        return null;
    }

    /** Why {@code owner}'s partition of {@code table} is missing: it did not answer, or answered without it. */
    private Missing missingPartition(String owner, String table) {
        return unanswered.stream().filter(u -> u.node().equals(owner)).findFirst().orElseGet(() -> missing(spec, owner,
                answered.contains(owner) && manifests.containsKey(owner) ? "does not hold table " + table
                        : "has no data loaded"));
    }

    /** The ranges of columns both maps know, widened to cover both; {@code sofar} null: the first node's. */
    private static Map<String, List<Long>> mergedRanges(Map<String, List<Long>> sofar, Map<String, List<Long>> node) {
        if (sofar == null) {
            return new LinkedHashMap<>(node);
        }
        Map<String, List<Long>> merged = new LinkedHashMap<>();
        sofar.forEach((column, range) -> {
            List<Long> other = node.get(column);
            if (other != null) {
                merged.put(column, List.of(Math.min(range.get(0), other.get(0)), Math.max(range.get(1), other.get(1))));
            }
        });
        return merged;
    }

    private static boolean sameLayout(StoreManifest.TableMeta a, StoreManifest.TableMeta b) {
        return a.columns().equals(b.columns()) && a.primaryKey().equals(b.primaryKey())
                && indexLayout(a).equals(indexLayout(b));
    }

    private static List<String> indexLayout(StoreManifest.TableMeta t) {
        return indexes(t).stream().map(ix -> ix.name() + "(" + String.join(", ", ix.columns()) + ") " + ix.scopeOrLocal()).toList();
    }

    private static List<StoreManifest.IndexMeta> indexes(StoreManifest.TableMeta t) {
        return t.indexes() == null ? List.of() : t.indexes();
    }

    private static String describe(StoreManifest.TableMeta t) {
        String columns = t.columns().stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "));
        String ixs = indexLayout(t).isEmpty() ? "" : ", indexes " + indexLayout(t);
        return "columns " + columns + ", key " + t.primaryKey() + ixs;
    }

    /**
     * The manifest of every node as one: each table summed over all nodes, the load parameters of
     * the first node. For callers that need the whole cluster (statistics, benchmarks).
     *
     * @throws ClusterException naming the nodes that did not answer, or when no node has data
     */
    public StoreManifest everyNode() {
        if (!unanswered.isEmpty()) {
            throw new ClusterException(describe(unanswered));
        }
        StoreManifest first = manifests.values().stream().findFirst().orElseThrow(() -> new ClusterException(
                "no node of cluster " + spec.name() + " has data loaded; load with: ooo load tpch --sf 1 --cluster <dir>"));
        List<StoreManifest.TableMeta> tables = tableNames().stream().map(n -> table(n).orElseThrow().meta()).toList();
        return new StoreManifest(first.formatVersion(), first.pageSize(), first.fillFactor(), first.source(),
                first.loadedAt(), first.loadSeconds(), tables);
    }

    /** "node n1 at host:port: why", one after the other. */
    public static String describe(List<Missing> nodes) {
        return nodes.stream().map(Missing::toString).collect(Collectors.joining("; "));
    }
}
