package org.oooengine.cluster.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RackInventoryTest {
    @Test
    void hostsAreNamedAndAddressedInRackOrder() {
        RackInventory inv = new RackInventory(2, 3, "dc", "192.168.7.0/24");
        assertEquals(List.of("dc-r1-n01", "dc-r1-n02", "dc-r1-n03", "dc-r2-n01", "dc-r2-n02", "dc-r2-n03"),
                inv.hosts().stream().map(RackInventory.Host::name).toList());
        assertEquals("192.168.7.11", inv.hosts().get(0).address());
        assertEquals("192.168.7.16", inv.hosts().get(5).address());
        assertEquals("/rack2", inv.hosts().get(3).rackPath());
    }

    @Test
    void mastersGoToTheFirstHostsOfDifferentRacks() {
        RackInventory four = new RackInventory(4, 32, "ooo", "10.10.0.0/16");
        assertEquals("ooo-r1-n01", four.group("hdfs_nn").get(0).name());
        assertEquals("ooo-r2-n01", four.group("yarn_rm").get(0).name());
        assertEquals("ooo-r3-n01", four.group("hive_metastore").get(0).name());
        assertEquals("ooo-r4-n01", four.group("ooo_coordinator").get(0).name());
        assertEquals(128, four.group("ooo_node").size());
        RackInventory two = new RackInventory(2, 3, "ooo", "10.10.0.0/16");
        assertEquals(List.of("ooo-r1-n01", "ooo-r2-n01", "ooo-r1-n02", "ooo-r2-n02"),
                RackInventory.MASTER_GROUPS.stream().map(g -> two.group(g).get(0).name()).toList());
        RackInventory one = new RackInventory(1, 1, "ooo", "10.10.0.0/16");
        assertEquals(1, new HashSet<>(RackInventory.MASTER_GROUPS.stream().map(g -> one.group(g).get(0)).toList()).size());
    }

    @Test
    void inventoryListsEveryGroupAndEveryHostOnce() {
        RackInventory inv = new RackInventory(4, 32, "ooo", "10.10.0.0/16");
        String yaml = inv.inventoryYaml("test");
        for (String g : List.of("hdfs_nn", "hdfs_dn", "yarn_rm", "yarn_nm", "hive_metastore", "ooo_coordinator", "ooo_node",
                "rack_1", "rack_2", "rack_3", "rack_4")) {
            assertTrue(yaml.contains("\n    " + g + ":\n      hosts:\n"), g);
        }
        assertTrue(yaml.contains("\n    ooo-r4-n32:\n      ansible_host: 10.10.0.138\n      rack: /rack4\n"), yaml);
        // Each host is defined once (with its variables) and named in 3 worker groups, its rack group and
        // the master groups it holds.
        long definitions = yaml.lines().filter(l -> l.startsWith("    ooo-")).count();
        long memberships = yaml.lines().filter(l -> l.startsWith("        ooo-")).count();
        assertEquals(128, definitions);
        assertEquals(128 * 4 + 4, memberships);
    }

    @Test
    void refusesWhatItCannotLayOut() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RackInventory(1, 129, "ooo", "10.10.0.0/16"))
                .getMessage().contains("at most 128"));
        assertThrows(IllegalArgumentException.class, () -> new RackInventory(0, 4, "ooo", "10.10.0.0/16"));
        assertThrows(IllegalArgumentException.class, () -> new RackInventory(4, 0, "ooo", "10.10.0.0/16"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RackInventory(4, 32, "ooo", "10.0.0.0/25"))
                .getMessage().contains("no room for 128"));
        assertThrows(IllegalArgumentException.class, () -> new RackInventory(1, 1, "ooo", "10.0.0.0"));
        assertThrows(IllegalArgumentException.class, () -> new RackInventory(1, 1, "ooo", "10.0.0.256/24"));
        assertThrows(IllegalArgumentException.class, () -> new RackInventory(1, 1, "ooo", "10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> new RackInventory(1, 1, "-x", "10.0.0.0/24"));
    }

    @Test
    void topologyScriptAnswersLikeHadoopExpects(@TempDir Path dir) throws IOException, InterruptedException {
        RackInventory inv = new RackInventory(2, 2, "ooo", "10.20.0.0/24");
        inv.write(dir, "test");
        Process p = new ProcessBuilder("sh", dir.resolve(RackInventory.TOPOLOGY_SCRIPT).toString(),
                "10.20.0.11", "ooo-r2-n02", "10.20.0.13", "unknown-host").redirectErrorStream(true).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals("/rack1\n/rack2\n/rack2\n/default-rack\n", new String(p.getInputStream().readAllBytes()));
        assertEquals(0, p.exitValue());
    }
}
