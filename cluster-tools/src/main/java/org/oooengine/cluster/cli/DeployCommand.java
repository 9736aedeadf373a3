package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.deploy.RackInventory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo deploy inventory}: what the Ansible playbooks of deploy/ansible run against. */
@Command(name = "deploy", mixinStandardHelpOptions = true,
        description = "Prepare a deployment to real hosts with the Ansible playbooks of deploy/ansible.",
        subcommands = {DeployCommand.Inventory.class})
final class DeployCommand {

    @Command(name = "inventory", mixinStandardHelpOptions = true,
            description = {"Write an Ansible inventory for R racks of N hosts (at most " + RackInventory.MAX_NODES
                    + " in all) and the rack topology Hadoop and the engine read.",
                    "Files: <out>/" + RackInventory.INVENTORY_FILE + " (groups hdfs_nn, hdfs_dn, yarn_rm, yarn_nm, "
                            + "hive_metastore, ooo_coordinator, ooo_node and rack_<n>; each host's 'rack' variable), <out>/"
                            + RackInventory.TOPOLOGY_FILE + " ('name /rack' per host name and address) and <out>/"
                            + RackInventory.TOPOLOGY_SCRIPT + " (Hadoop's net.topology.script.file.name).",
                    "Hosts are named <prefix>-r<rack>-n<node> with addresses in order from the subnet's 11th. Every host "
                            + "is a worker; the masters go to the first hosts of different racks."})
    static final class Inventory implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--racks", required = true, paramLabel = "R", description = "number of racks")
        int racks;

        @Option(names = "--nodes-per-rack", required = true, paramLabel = "N", description = "hosts on each rack")
        int nodesPerRack;

        @Option(names = "--prefix", defaultValue = "ooo", paramLabel = "P",
                description = "first part of every host name (default: ${DEFAULT-VALUE})")
        String prefix;

        @Option(names = "--subnet", defaultValue = "10.10.0.0/16", paramLabel = "CIDR",
                description = "IPv4 network the host addresses are taken from (default: ${DEFAULT-VALUE})")
        String subnet;

        @Option(names = "--out", defaultValue = "inventory", paramLabel = "DIR",
                description = "directory to write the files into, created if missing; files there are replaced "
                        + "(default: ${DEFAULT-VALUE})")
        Path out;

        @Override
        public Integer call() throws Exception {
            RackInventory inventory;
            try {
                inventory = new RackInventory(racks, nodesPerRack, prefix, subnet);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            List<String> args = new ArrayList<>(List.of("ooo", "deploy", "inventory", "--racks", String.valueOf(racks),
                    "--nodes-per-rack", String.valueOf(nodesPerRack), "--prefix", prefix, "--subnet", subnet));
            List<Path> files = inventory.write(out, String.join(" ", args));
            PrintWriter o = spec.commandLine().getOut();
            o.printf("%d hosts on %d racks: %s .. %s%n", inventory.hosts().size(), racks,
                    inventory.hosts().get(0).name(), inventory.hosts().get(inventory.hosts().size() - 1).name());
            for (String g : List.of("hdfs_nn", "yarn_rm", "hive_metastore", "ooo_coordinator")) {
                RackInventory.Host h = inventory.group(g).get(0);
                o.printf("  %-16s %s (%s, %s)%n", g, h.name(), h.address(), h.rackPath());
            }
            files.forEach(f -> o.println("wrote " + f));
            o.printf("deploy with: ansible-playbook -i %s deploy/ansible/deploy.yml%n", files.get(0));
            return 0;
        }
    }
}
