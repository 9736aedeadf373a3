package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.store.JsonFiles;

/** What the engine writes is its owner's alone, whatever the umask of the process that writes it. */
class DirectoriesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void posixOnly() {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "not a POSIX file system");
    }

    @Test
    void newDirectoriesAreOwnerOnlyAndAnOperatorsOwnKeepsItsMode() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("data"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path store = Directories.createPrivate(shared.resolve("cluster/nodes/n1/store"));
        for (Path p = store; !p.equals(shared); p = p.getParent()) {
            assertEquals("rwx------", mode(p), p.toString());
        }
        assertEquals("rwxr-xr-x", mode(shared));
    }

    @Test
    void filesAreOwnerOnlyAndAWorldReadableOneIsNarrowedWhenRewritten() throws Exception {
        Path json = dir.resolve("cluster/cluster.json");
        JsonFiles.writeAtomically(json, java.util.Map.of("name", "local"));
        assertEquals("rw-------", mode(json));
        assertEquals("rwx------", mode(json.getParent()));

        Path secret = dir.resolve("secret");
        Files.writeString(secret, "left by an older version\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        ClusterSecret.generate().write(secret);
        assertEquals("rw-------", mode(secret));

        try (BTreeBuilder b = new BTreeBuilder(dir.resolve("t.data"), 4096, 1.0)) {
            b.add(new byte[] {1}, new byte[] {2});
            b.finish();
        }
        assertEquals("rw-------", mode(dir.resolve("t.data")));
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
