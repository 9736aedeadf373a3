package org.oooengine.cluster.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The hosts of a cluster laid out on racks, and the files Ansible and Hadoop read about them: an
 * Ansible inventory ({@value #INVENTORY_FILE}) in the groups operators know from Hadoop
 * distributions, the topology data ({@value #TOPOLOGY_FILE}: one "host-or-address /rack" line per
 * name) and the script Hadoop's {@code net.topology.script.file.name} runs over it
 * ({@value #TOPOLOGY_SCRIPT}).
 *
 * <p>Every host is a worker (DataNode, NodeManager, engine node); the masters — NameNode,
 * ResourceManager, Hive Metastore and the engine's coordinator — go to the first hosts of different
 * racks where there are several, so that one rack's switch does not take them all.
 */
public final class RackInventory {
    /** The most hosts an inventory holds: racks times nodes per rack. */
    public static final int MAX_NODES = 128;
    public static final String INVENTORY_FILE = "inventory.yml";
    public static final String TOPOLOGY_FILE = "topology.data";
    public static final String TOPOLOGY_SCRIPT = "topology.sh";
    /** Hadoop's answer for a host the topology does not name. */
    public static final String DEFAULT_RACK = "/default-rack";
    /** Host addresses start this far into the subnet (.1 is left to a gateway or bridge). */
    static final int FIRST_HOST_OFFSET = 11;

    /** Ansible groups of the masters, in the order they are placed. */
    static final List<String> MASTER_GROUPS = List.of("hdfs_nn", "yarn_rm", "hive_metastore", "ooo_coordinator");
    /** Ansible groups every host belongs to. */
    static final List<String> WORKER_GROUPS = List.of("hdfs_dn", "yarn_nm", "ooo_node");

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9-]{0,40}");

    /** One host: its name, address, rack number (from 1) and Hadoop rack path. */
    public record Host(String name, String address, int rack) {
        public String rackPath() {
            return "/rack" + rack;
        }
    }

    private final int racks;
    private final int nodesPerRack;
    private final String prefix;
    private final Subnet subnet;
    private final List<Host> hosts;

    public RackInventory(int racks, int nodesPerRack, String prefix, String subnet) {
        if (racks < 1) {
            throw new IllegalArgumentException("--racks must be at least 1, got " + racks);
        }
        if (nodesPerRack < 1) {
            throw new IllegalArgumentException("--nodes-per-rack must be at least 1, got " + nodesPerRack);
        }
        if ((long) racks * nodesPerRack > MAX_NODES) {
            throw new IllegalArgumentException(racks + " racks of " + nodesPerRack + " nodes make "
                    + (long) racks * nodesPerRack + " nodes; an inventory holds at most " + MAX_NODES
                    + " (e.g. 4 racks of 32)");
        }
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("--prefix must be a lowercase host name part (a letter, then letters, "
                    + "digits or '-', at most 41), got '" + prefix + "'");
        }
        this.racks = racks;
        this.nodesPerRack = nodesPerRack;
        this.prefix = prefix;
        this.subnet = Subnet.parse(subnet);
        int total = racks * nodesPerRack;
        if (FIRST_HOST_OFFSET + total > this.subnet.size() - 1) {
            throw new IllegalArgumentException("subnet " + subnet + " has no room for " + total
                    + " host addresses from its " + FIRST_HOST_OFFSET + "th on; give a larger one, e.g. 10.10.0.0/16");
        }
        List<Host> list = new ArrayList<>(total);
        int rackDigits = String.valueOf(racks).length();
        int nodeDigits = Math.max(2, String.valueOf(nodesPerRack).length());
        for (int r = 1; r <= racks; r++) {
            for (int n = 1; n <= nodesPerRack; n++) {
                String name = String.format(Locale.ROOT, "%s-r%0" + rackDigits + "d-n%0" + nodeDigits + "d", prefix, r, n);
                list.add(new Host(name, this.subnet.address(FIRST_HOST_OFFSET + list.size()), r));
            }
        }
        this.hosts = List.copyOf(list);
    }

    public List<Host> hosts() {
        return hosts;
    }

    /** The hosts of an Ansible group: one host for a master group, every host for a worker group. */
    public List<Host> group(String group) {
        int m = MASTER_GROUPS.indexOf(group);
        if (m >= 0) {
            return List.of(master(m));
        }
        if (WORKER_GROUPS.contains(group)) {
            return hosts;
        }
        throw new IllegalArgumentException("no group " + group);
    }

    /** Master m: on rack (m mod racks), the (m div racks)-th host there, wrapping on small clusters. */
    private Host master(int m) {
        int rack = m % racks;
        int index = (m / racks) % nodesPerRack;
        return hosts.get(rack * nodesPerRack + index);
    }

    /** The Ansible inventory, as YAML. */
    public String inventoryYaml(String command) {
        StringBuilder y = new StringBuilder();
        y.append("# Generated by: ").append(command).append('\n');
        y.append("# ").append(hosts.size()).append(" hosts on ").append(racks).append(racks == 1 ? " rack" : " racks")
                .append(" of ").append(nodesPerRack).append(", addresses in ").append(subnet).append(".\n");
        y.append("# Each host's rack is its 'rack' variable and its rack_<n> group; ").append(TOPOLOGY_FILE)
                .append(" beside this file\n# says the same for Hadoop (").append(TOPOLOGY_SCRIPT)
                .append(", net.topology.script.file.name) and the engine.\n");
        y.append("all:\n");
        y.append("  vars:\n");
        y.append("    # Ansible's modules run with the system Python of each host.\n");
        y.append("    ansible_python_interpreter: /usr/bin/python3\n");
        y.append("  hosts:\n");
        for (Host h : hosts) {
            y.append("    ").append(h.name()).append(":\n");
            y.append("      ansible_host: ").append(h.address()).append('\n');
            y.append("      rack: ").append(h.rackPath()).append('\n');
        }
        y.append("  children:\n");
        for (String g : MASTER_GROUPS) {
            appendGroup(y, g, group(g));
        }
        for (String g : WORKER_GROUPS) {
            appendGroup(y, g, group(g));
        }
        for (int r = 1; r <= racks; r++) {
            int rack = r;
            appendGroup(y, "rack_" + r, hosts.stream().filter(h -> h.rack() == rack).toList());
        }
        return y.toString();
    }

    private static void appendGroup(StringBuilder y, String name, List<Host> members) {
        y.append("    ").append(name).append(":\n");
        y.append("      hosts:\n");
        for (Host h : members) {
            y.append("        ").append(h.name()).append(":\n");
        }
    }

    /** The topology data: "name /rack" for every host's name and address. */
    public String topologyData(String command) {
        StringBuilder t = new StringBuilder();
        t.append("# host name or address, then its rack. Generated by: ").append(command).append('\n');
        for (Host h : hosts) {
            t.append(h.name()).append(' ').append(h.rackPath()).append('\n');
            t.append(h.address()).append(' ').append(h.rackPath()).append('\n');
        }
        return t.toString();
    }

    /** The script Hadoop runs with host names or addresses as arguments: one rack per argument, in order. */
    public static String topologyScript() {
        return """
                #!/bin/sh
                # Hadoop's net.topology.script.file.name: prints the rack of each host name or address given, one
                # per line, in order; a host the topology does not name is on %s. The data is
                # "name /rack" lines in %s beside this script (or $OOO_TOPOLOGY_DATA).
                data="${OOO_TOPOLOGY_DATA:-$(dirname "$0")/%s}"
                for host in "$@"; do
                    rack=""
                    [ -r "$data" ] && rack="$(awk -v h="$host" '$1 == h { print $2; exit }' "$data")"
                    echo "${rack:-%s}"
                done
                """.formatted(DEFAULT_RACK, TOPOLOGY_FILE, TOPOLOGY_FILE, DEFAULT_RACK);
    }

    /** Writes the inventory, the topology data and the topology script into dir; returns the files written. */
    public List<Path> write(Path dir, String command) throws IOException {
        Files.createDirectories(dir);
        Path inventory = dir.resolve(INVENTORY_FILE);
        Path data = dir.resolve(TOPOLOGY_FILE);
        Path script = dir.resolve(TOPOLOGY_SCRIPT);
        writeAtomically(inventory, inventoryYaml(command));
        writeAtomically(data, topologyData(command));
        writeAtomically(script, topologyScript());
        try {
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: Ansible sets the mode when it copies the script to the hosts.
        }
        return List.of(inventory, data, script);
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** An IPv4 network in CIDR notation. */
    record Subnet(long network, int prefixLength) {
        static Subnet parse(String cidr) {
            String[] parts = cidr.split("/", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("--subnet must be an IPv4 network such as 10.10.0.0/16, got '" + cidr + "'");
            }
            long address = parseAddress(parts[0], cidr);
            int length;
            try {
                length = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                length = -1;
            }
            if (length < 8 || length > 30) {
                throw new IllegalArgumentException("--subnet prefix length must be 8 to 30, got '" + parts[1] + "' in " + cidr);
            }
            long mask = (0xFFFFFFFFL << (32 - length)) & 0xFFFFFFFFL;
            if ((address & ~mask & 0xFFFFFFFFL) != 0) {
                throw new IllegalArgumentException("--subnet " + cidr + " has host bits set; the network is "
                        + format(address & mask) + "/" + length);
            }
            return new Subnet(address, length);
        }

        private static long parseAddress(String text, String cidr) {
            String[] octets = text.split("\\.", -1);
            if (octets.length != 4) {
                throw new IllegalArgumentException("--subnet must be an IPv4 network such as 10.10.0.0/16, got '" + cidr + "'");
            }
            long a = 0;
            for (String o : octets) {
                int v;
                try {
                    v = o.isEmpty() || o.length() > 3 ? -1 : Integer.parseInt(o);
                } catch (NumberFormatException e) {
                    v = -1;
                }
                if (v < 0 || v > 255) {
                    throw new IllegalArgumentException("--subnet must be an IPv4 network such as 10.10.0.0/16, got '" + cidr + "'");
                }
                a = (a << 8) | v;
            }
            return a;
        }

        long size() {
            return 1L << (32 - prefixLength);
        }

        String address(long offset) {
            return format(network + offset);
        }

        static String format(long a) {
            return ((a >> 24) & 255) + "." + ((a >> 16) & 255) + "." + ((a >> 8) & 255) + "." + (a & 255);
        }

        @Override
        public String toString() {
            return format(network) + "/" + prefixLength;
        }
    }
}
