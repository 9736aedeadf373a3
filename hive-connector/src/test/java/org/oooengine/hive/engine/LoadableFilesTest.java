package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.hive.security.AccessDeniedException;

/**
 * What LOAD DATA reads where no SQL endpoint is needed to show it: a node's data directory kept
 * outside the cluster directory is as much out of reach, a symlink loop is read once, and paths on
 * HDFS — also by the default file system — are left to it.
 */
class LoadableFilesTest {
    private static LoadableFiles files(Path allowed, Path clusterDir, Path nodeData) {
        ClusterSpec spec = new ClusterSpec(ClusterSpec.FORMAT_VERSION, "test",
                List.of(new ClusterSpec.NodeSpec("n1", "127.0.0.1", 1, null, nodeData.toString())), List.of("n1"), Map.of());
        return LoadableFiles.fromSettings(Map.of(LoadableFiles.ALLOWED_DIRS_SETTING, allowed.toString()), clusterDir, spec);
    }

    @Test
    void aNodesDataDirectoryOutsideTheClusterDirectoryIsNotRead(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("disks/n1"));
        Files.writeString(data.resolve("MANIFEST"), "x\n");
        LoadableFiles loadable = files(dir, Files.createDirectories(dir.resolve("cluster")), data);
        AccessDeniedException e = assertThrows(AccessDeniedException.class,
                () -> loadable.locations(data.resolve("MANIFEST").toString(), true, new Configuration()));
        assertTrue(e.getMessage().contains("which SQL never reads"), e.getMessage());
        assertThrows(AccessDeniedException.class, () -> loadable.locations(dir.resolve("disks").toString(), true,
                new Configuration()));
    }

    @Test
    void aDirectoryIsReadInNameOrderOnceWhateverItsLinks(@TempDir Path dir) throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Files.writeString(in.resolve("b"), "2\n");
        Files.writeString(in.resolve("a"), "1\n");
        Files.writeString(in.resolve("_SUCCESS"), "");
        Files.writeString(in.resolve(".a.crc"), "");
        Files.createSymbolicLink(in.resolve("c-loop"), in);
        LoadableFiles loadable = files(in, Files.createDirectories(dir.resolve("cluster")), Path.of("nodes/n1"));
        Path real = in.toRealPath();
        assertEquals(List.of("file:" + real.resolve("a"), "file:" + real.resolve("b")),
                loadable.locations(in.toString(), true, new Configuration()));
    }

    @Test
    void pathsOnHdfsAreLeftToIt(@TempDir Path dir) throws Exception {
        LoadableFiles loadable = files(dir, dir.resolve("cluster"), Path.of("nodes/n1"));
        Configuration onHdfs = new Configuration();
        onHdfs.set("fs.defaultFS", "hdfs://namenode:8020");
        assertEquals(List.of("hdfs://namenode:8020/data/x"),
                loadable.locations("hdfs://namenode:8020/data/x", false, new Configuration()));
        assertEquals(List.of("/data/x"), loadable.locations("/data/x", false, onHdfs));
        // LOCAL is the coordinator's own file system whatever the default
        assertThrows(AccessDeniedException.class, () -> loadable.locations("/etc/passwd", true, onHdfs));
    }
}
