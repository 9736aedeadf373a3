package org.oooengine.core.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
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
import org.oooengine.core.store.JsonFiles;

/**
 * {@code cluster.json}: the nodes of a cluster and which node owns each table partition. Next to
 * it, {@code secret} holds the key members prove on connect.
 *
 * @param nodes      every node: its name, where it listens, where members reach it, its data directory
 * @param partitions table -> node of each partition (partition p of a table is entry p); tables
 *                   not listed use {@link #defaultPartitions}
 */
public record ClusterSpec(int formatVersion, String name, List<NodeSpec> nodes, List<String> defaultPartitions,
                          Map<String, List<String>> partitions) {
    public static final String FILE_NAME = "cluster.json";
    public static final String SECRET_FILE = "secret";
    public static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One node.
     *
     * @param connect where members dial this node ("host:port"), when not its listen address:
     *                e.g. a proxy that adds network delay; null otherwise
     * @param dataDir relative to the cluster directory unless absolute
     */
    public record NodeSpec(String id, String host, int port, String connect, String dataDir) {
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

    public NodeSpec node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no node '" + id + "' in cluster " + name + "; nodes: " + nodes.stream().map(NodeSpec::id).toList()));
    }

    /** Owner of each partition of {@code table}. */
    public List<String> owners(String table) {
        return partitions.getOrDefault(table, defaultPartitions);
    }

    public Path dataDir(Path clusterDir, NodeSpec node) {
        Path p = Path.of(node.dataDir());
        return p.isAbsolute() ? p : clusterDir.resolve(p);
    }

    public ClusterSpec withNodes(List<NodeSpec> newNodes) {
        return new ClusterSpec(formatVersion, name, newNodes, defaultPartitions, partitions);
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
                    + "ooo cluster start --nodes 4 --dir " + dir);
        }
        try {
            ClusterSpec spec = JSON.readValue(f.toFile(), ClusterSpec.class);
            if (spec.formatVersion() != FORMAT_VERSION) {
                throw new IllegalArgumentException(f + " has cluster format " + spec.formatVersion() + "; this engine reads "
                        + FORMAT_VERSION);
            }
            return spec;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot parse " + f + ": " + e.getMessage(), e);
        }
    }

    public static ClusterSecret readSecret(Path dir) {
        return ClusterSecret.read(dir.resolve(SECRET_FILE));
    }
}
