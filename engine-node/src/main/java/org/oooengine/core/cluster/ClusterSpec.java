package org.oooengine.core.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.WireCompression;
import org.oooengine.core.store.JsonFiles;

/**
 * {@code cluster.json}: the nodes of a cluster and which node owns each table partition. Next to
 * it, {@code secret} holds the key members prove on connect.
 *
 * @param nodes      every node: its name, where it listens, where members reach it, its data directory
 * @param partitions table -> node of each partition (partition p of a table is entry p); tables
 *                   not listed use {@link #defaultPartitions}
 * @param replication how many nodes hold each partition (1 when cluster.json does not say): its
 *                   owner, then the owners of the partitions after it ({@link #holders}), so that
 *                   tables partitioned alike keep their partitions side by side on every holder
 * @param compression how the members compress the frames they send one another, by its
 *                   {@link WireCompression#label()}; null (as when cluster.json does not say) for none
 */
public record ClusterSpec(int formatVersion, String name, List<NodeSpec> nodes, List<String> defaultPartitions,
                          Map<String, List<String>> partitions,
                          @JsonInclude(JsonInclude.Include.NON_DEFAULT) int replication,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String compression) {
    public static final String FILE_NAME = "cluster.json";
    public static final String SECRET_FILE = "secret";
    public static final int FORMAT_VERSION = 1;
    /**
     * Beside cluster.json: "host-or-address /rack" per line ('#' starts a comment), the file Hadoop's
     * topology script reads, as {@code ooo deploy inventory} writes it. It gives the rack of every
     * node whose entry in cluster.json names none.
     */
    public static final String TOPOLOGY_FILE = "topology.data";
    /** The rack of a node nothing places: Hadoop's name for it. */
    public static final String DEFAULT_RACK = "/default-rack";
    /** What a replica's stored name holds between its table's name and its partition. */
    private static final String REPLICA_MARK = "/partition-";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One node.
     *
     * @param connect where members dial this node ("host:port"), when not its listen address:
     *                e.g. a proxy that adds network delay; null otherwise
     * @param dataDir relative to the cluster directory unless absolute
     * @param rack    the rack the node's host stands in, as Hadoop names racks ("/rack1"); null when
     *                cluster.json does not say (then {@value #TOPOLOGY_FILE} beside it may, else
     *                {@value #DEFAULT_RACK})
     */
    public record NodeSpec(String id, String host, int port, String connect, String dataDir,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String rack) {
        /** A node whose rack is not known. */
        public NodeSpec(String id, String host, int port, String connect, String dataDir) {
            this(id, host, port, connect, dataDir, null);
        }

        /** This node in {@code newRack}. */
        public NodeSpec withRack(String newRack) {
            return new NodeSpec(id, host, port, connect, dataDir, newRack);
        }

        @JsonIgnore
        public InetSocketAddress listenAddress() {
            return new InetSocketAddress(host, port);
        }

        @JsonIgnore
        public InetSocketAddress dialAddress() {
            if (connect == null || connect.isBlank()) {
                return new InetSocketAddress(host, port);
            }
            int colon = connect.lastIndexOf(':');
            return new InetSocketAddress(connect.substring(0, colon), Integer.parseInt(connect.substring(colon + 1)));
        }
    }

    public ClusterSpec {
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one node");
        }
        partitions = partitions == null ? Map.of() : new TreeMap<>(partitions);
        var ids = new HashSet<String>();
        for (NodeSpec n : nodes) {
            if (!ids.add(n.id())) {
                throw new IllegalArgumentException("node " + n.id() + " is listed twice");
            }
        }
        checkOnePartitionPerNode("default", defaultPartitions, ids);
        partitions.forEach((table, owners) -> checkOnePartitionPerNode(table, owners, ids));
        replication = replication == 0 ? 1 : replication;
        if (replication < 1 || replication > nodes.size()) {
            throw new IllegalArgumentException("replication " + replication + " needs between 1 and " + nodes.size()
                    + " nodes (the cluster has " + nodes.size() + ")");
        }
        if (compression != null) {
            WireCompression c = WireCompression.of(compression);
            compression = c == WireCompression.NONE ? null : c.label();
        }
    }

    /** A cluster whose partitions live on one node each. */
    public ClusterSpec(int formatVersion, String name, List<NodeSpec> nodes, List<String> defaultPartitions,
                       Map<String, List<String>> partitions) {
        this(formatVersion, name, nodes, defaultPartitions, partitions, 1, null);
    }

    /** How this process compresses the frames it sends the other members. */
    @JsonIgnore
    public WireCompression wireCompression() {
        return compression == null ? WireCompression.NONE : WireCompression.of(compression);
    }

    /** This spec with the members compressing their frames as {@code c} says. */
    public ClusterSpec withCompression(WireCompression c) {
        return new ClusterSpec(formatVersion, name, nodes, defaultPartitions, partitions, replication, c.label());
    }

    // Each node holds at most one partition of a table: its store has one tree per table.
    private static void checkOnePartitionPerNode(String table, List<String> owners, java.util.Set<String> ids) {
        if (owners == null || owners.isEmpty()) {
            throw new IllegalArgumentException("partition map of " + table + " is empty");
        }
        var seen = new HashSet<String>();
        for (String o : owners) {
            if (!ids.contains(o)) {
                throw new IllegalArgumentException("partition map of " + table + " names unknown node " + o);
            }
            if (!seen.add(o)) {
                throw new IllegalArgumentException("partition map of " + table + " gives node " + o + " two partitions");
            }
        }
    }

    /** N nodes on loopback at consecutive ports from {@code basePort}, one partition of every table each. */
    public static ClusterSpec local(String name, int nodeCount, int basePort) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("a cluster needs at least one node, got " + nodeCount);
        }
        List<NodeSpec> nodes = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        for (int i = 1; i <= nodeCount; i++) {
            String id = "n" + i;
            nodes.add(new NodeSpec(id, "127.0.0.1", basePort + i - 1, null, "nodes/" + id));
            owners.add(id);
        }
        return new ClusterSpec(FORMAT_VERSION, name, nodes, owners, Map.of());
    }

    /**
     * A cluster of one node per address, all at {@code port} (each host has its own), named n1..nN in
     * the addresses' order; the default partitions are on every node.
     */
    public static ClusterSpec onHosts(String name, List<String> addresses, int port) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one node, got no address");
        }
        List<NodeSpec> nodes = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        for (int i = 1; i <= addresses.size(); i++) {
            String id = "n" + i;
            nodes.add(new NodeSpec(id, addresses.get(i - 1), port, null, "nodes/" + id));
            owners.add(id);
        }
        return new ClusterSpec(FORMAT_VERSION, name, nodes, owners, Map.of());
    }

    public NodeSpec node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no node '" + id + "' in cluster " + name + "; nodes: " + nodes.stream().map(NodeSpec::id).toList()));
    }

    /** Owner of each partition of {@code table}. */
    public List<String> owners(String table) {
        return partitions.getOrDefault(table, defaultPartitions);
    }

    /**
     * The nodes holding partition {@code partition} of {@code table}, its owner first, r of them
     * with replication r, all different. On one rack (every node's unless the inventory places
     * them): the owners of it and of the r - 1 partitions after it (chained declustering). Where
     * the nodes stand in several racks, each further holder is on a rack none of those chosen
     * stands in while there is one: among the owners of the partitions after it on such racks, in
     * order, the k-th, k counting the partitions before it whose owners share its owner's rack (so
     * that the copies of one rack's partitions spread over the others' nodes rather than pile on
     * the first); then, racks used up, the next owners in order. A table with fewer owners than the
     * replication has each partition on all of them. Tables partitioned alike keep their
     * partitions side by side on every holder.
     */
    public List<String> holders(String table, int partition) {
        return holders(table, partition, replication);
    }

    /**
     * As {@link #holders(String, int)} for a table kept {@code copies} times rather than the
     * cluster's number (a load may keep fewer): the first {@code copies} of the same order, so that
     * a table kept fewer times has its partitions where the cluster's tables have theirs.
     */
    public List<String> holders(String table, int partition, int copies) {
        List<String> owners = owners(table);
        int n = owners.size();
        List<String> holders = new ArrayList<>(copies);
        holders.add(owners.get(partition % n));
        if (copies > 1 && severalRacks()) {
            String rack = rackOf(holders.get(0));
            int k = 0;
            for (int q = 0; q < partition; q++) {
                k += rackOf(owners.get(q)).equals(rack) ? 1 : 0;
            }
            java.util.Set<String> racks = new java.util.HashSet<>(List.of(rack));
            while (holders.size() < copies) {
                List<String> elsewhere = new ArrayList<>();
                for (int j = 1; j < n; j++) {
                    String node = owners.get((partition + j) % n);
                    if (!racks.contains(rackOf(node)) && !elsewhere.contains(node)) {
                        elsewhere.add(node);
                    }
                }
                if (elsewhere.isEmpty()) {
                    break;
                }
                String chosen = elsewhere.get(k % elsewhere.size());
                holders.add(chosen);
                racks.add(rackOf(chosen));
            }
        }
        for (int j = 1; j < n && holders.size() < copies; j++) {
            String node = owners.get((partition + j) % n);
            if (!holders.contains(node)) {
                holders.add(node);
            }
        }
        return holders;
    }

    // on every remote request's path: no allocation
    private boolean severalRacks() {
        String first = rackOf(nodes.get(0));
        for (NodeSpec node : nodes) {
            if (!rackOf(node).equals(first)) {
                return true;
            }
        }
        return false;
    }

    /** The rack of the node named {@code id}, {@link #DEFAULT_RACK} when it names none (or is not a node of this spec). */
    private String rackOf(String id) {
        for (NodeSpec node : nodes) {
            if (node.id().equals(id)) {
                return rackOf(node);
            }
        }
        return DEFAULT_RACK;
    }

    /** This spec with each partition on {@code copies} nodes. */
    public ClusterSpec withReplication(int copies) {
        return new ClusterSpec(formatVersion, name, nodes, defaultPartitions, partitions, copies, compression);
    }

    /**
     * The name a node stores its copy of partition {@code partition} of {@code table} under, when it
     * is not the partition's owner: no table's own name holds '/', so none meets it.
     */
    public static String replicaName(String table, int partition) {
        return table + REPLICA_MARK + partition;
    }

    /** The name {@code node} stores partition {@code partition} of {@code table} under: the table's own where it owns it. */
    public String storedName(String table, int partition, String node) {
        return owners(table).get(partition).equals(node) ? table : replicaName(table, partition);
    }

    /** The table a stored name holds a partition of: the name itself, or a copy's without its partition. */
    public static String tableOf(String storedName) {
        int mark = storedName.lastIndexOf(REPLICA_MARK);
        return mark < 0 ? storedName : storedName.substring(0, mark);
    }

    /** The partition a copy's stored name holds ({@link #replicaName}); -1 for a table's own name. */
    public static int partitionOf(String storedName) {
        int mark = storedName.lastIndexOf(REPLICA_MARK);
        return mark < 0 ? -1 : Integer.parseInt(storedName.substring(mark + REPLICA_MARK.length()));
    }

    /** Whether {@code storedName} is a copy of another node's partition ({@link #replicaName}). */
    public static boolean isReplicaName(String storedName) {
        return storedName.contains(REPLICA_MARK);
    }

    public Path dataDir(Path clusterDir, NodeSpec node) {
        Path p = Path.of(node.dataDir());
        return p.isAbsolute() ? p : clusterDir.resolve(p);
    }

    /** The rack of {@code node}: its own, else {@link #DEFAULT_RACK}. */
    public static String rackOf(NodeSpec node) {
        return node.rack() == null || node.rack().isBlank() ? DEFAULT_RACK : node.rack();
    }

    /**
     * The nodes by rack, racks in name order and nodes in cluster.json's order within each: what
     * placing replicas on different racks starts from.
     */
    public Map<String, List<NodeSpec>> nodesByRack() {
        Map<String, List<NodeSpec>> byRack = new TreeMap<>();
        for (NodeSpec n : nodes) {
            byRack.computeIfAbsent(rackOf(n), r -> new ArrayList<>()).add(n);
        }
        return byRack;
    }

    /**
     * This spec with the rack of every node that names none taken from {@code topology} (host or
     * address to rack, as {@link #readTopology} reads it); nodes it does not list keep none.
     */
    public ClusterSpec withTopology(Map<String, String> topology) {
        List<NodeSpec> placed = new ArrayList<>();
        boolean changed = false;
        for (NodeSpec n : nodes) {
            String rack = topology.get(n.host());
            if ((n.rack() == null || n.rack().isBlank()) && rack != null) {
                placed.add(n.withRack(rack));
                changed = true;
            } else {
                placed.add(n);
            }
        }
        return changed ? withNodes(placed) : this;
    }

    /**
     * A topology file: each line a host name or address and its rack ("/rack1"), '#' comments and
     * blank lines skipped. A rack must start with '/'.
     */
    public static Map<String, String> readTopology(Path file) {
        Map<String, String> racks = new TreeMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        int number = 0;
        for (String line : lines) {
            number++;
            int hash = line.indexOf('#');
            String text = (hash < 0 ? line : line.substring(0, hash)).trim();
            if (text.isEmpty()) {
                continue;
            }
            String[] parts = text.split("\\s+");
            if (parts.length != 2 || !parts[1].startsWith("/")) {
                throw new IllegalArgumentException(file + " line " + number + ": expected '<host-or-address> /<rack>', got '"
                        + line + "'");
            }
            racks.put(parts[0], parts[1]);
        }
        return racks;
    }

    public ClusterSpec withNodes(List<NodeSpec> newNodes) {
        return new ClusterSpec(formatVersion, name, newNodes, defaultPartitions, partitions, replication, compression);
    }

    public static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE_NAME));
    }

    public void write(Path dir) {
        JsonFiles.writeAtomically(dir.resolve(FILE_NAME), this);
    }

    /** This spec as cluster.json text, e.g. to ship in a MapReduce job's configuration. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise cluster spec", e);
        }
    }

    public static ClusterSpec fromJson(String json) {
        try {
            return JSON.readValue(json, ClusterSpec.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a cluster spec: " + e.getMessage(), e);
        }
    }

    public static ClusterSpec read(Path dir) {
        Path f = dir.resolve(FILE_NAME);
        if (!Files.isRegularFile(f)) {
            throw new IllegalArgumentException("no cluster at " + dir + " (" + FILE_NAME + " missing); create one with: "
                    + "ooo cluster start --nodes 4 --cluster " + dir);
        }
        try {
            ClusterSpec spec = JSON.readValue(f.toFile(), ClusterSpec.class);
            if (spec.formatVersion() != FORMAT_VERSION) {
                throw new IllegalArgumentException(f + " has cluster format " + spec.formatVersion() + "; this engine reads "
                        + FORMAT_VERSION);
            }
            Path topology = dir.resolve(TOPOLOGY_FILE);
            return Files.isRegularFile(topology) ? spec.withTopology(readTopology(topology)) : spec;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot parse " + f + ": " + e.getMessage(), e);
        }
    }

    public static ClusterSecret readSecret(Path dir) {
        return ClusterSecret.read(dir.resolve(SECRET_FILE));
    }
}
