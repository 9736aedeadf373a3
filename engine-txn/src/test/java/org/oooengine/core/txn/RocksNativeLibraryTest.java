package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * RocksDB's native library comes from one private copy per build, reused by every JVM, and no JVM
 * leaves a copy of its own in the temporary directory. Each case runs JVMs of its own: the
 * library loads once per process.
 */
class RocksNativeLibraryTest {
    @TempDir
    Path dir;

    @Test
    void everyJvmLoadsTheOneCachedCopyAndLeavesNothingInTheTemporaryDirectory() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path cacheHome = dir.resolve("cache");
        Path cache = cacheHome.resolve("ooo-engine").resolve("native");

        String first = openDatabaseInAnotherJvm(tmp, cacheHome);
        Path library = Path.of(first);
        assertTrue(library.startsWith(cache), first);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(library.getParent())));
        FileTime written = Files.getLastModifiedTime(library);

        assertEquals(first, openDatabaseInAnotherJvm(tmp, cacheHome));
        assertEquals(written, Files.getLastModifiedTime(library), "the second JVM wrote the library again");
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> copies = files.filter(p -> p.getFileName().toString().startsWith("librocksdb")).toList();
            assertEquals(List.of(library), copies);
        }
    }

    @Test
    void aCopyWithOtherBytesOfTheSameSizeIsReplaced() throws Exception {
        Path cache = dir.resolve("native");
        Path library = RocksNativeLibrary.extract(cache).resolve(RocksNativeLibrary.FILE_NAME);
        byte[] whole = Files.readAllBytes(library);
        byte[] flipped = whole.clone();
        flipped[flipped.length / 2] ^= 1;
        Files.write(library, flipped);
        RocksNativeLibrary.extract(cache);
        assertArrayEquals(whole, Files.readAllBytes(library));
    }

    @Test
    void aDirectoryOthersMayWriteToIsRefused() throws Exception {
        Path cache = dir.resolve("native");
        Path libraryDir = RocksNativeLibrary.extract(cache);
        Files.setPosixFilePermissions(libraryDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        IOException refused = assertThrows(IOException.class, () -> RocksNativeLibrary.extract(cache));
        assertTrue(refused.getMessage().contains("others may write"), refused.getMessage());
    }

    @Test
    void aCopyOfTheWrongSizeIsReplaced() throws Exception {
        Path cache = dir.resolve("native");
        Path libraryDir = RocksNativeLibrary.extract(cache);
        Path library = libraryDir.resolve(RocksNativeLibrary.FILE_NAME);
        long size = Files.size(library);
        Files.write(library, new byte[100]); // as a disk that filled up might have left it
        assertEquals(libraryDir, RocksNativeLibrary.extract(cache));
        assertEquals(size, Files.size(library));
        try (Stream<Path> files = Files.list(libraryDir)) {
            assertEquals(List.of(library), files.toList(), "a partial copy was left behind");
        }
        assertNotEquals(0, size);
    }

    /**
     * Runs {@link OpensADatabase} in a JVM whose temporary directory is {@code tmp} and whose
     * cache home is {@code cacheHome}; returns the path of the RocksDB library it mapped.
     */
    private String openDatabaseInAnotherJvm(Path tmp, Path cacheHome) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Djava.io.tmpdir=" + tmp,
                "-cp", System.getProperty("java.class.path"), OpensADatabase.class.getName(), dir.resolve("db").toString());
        builder.environment().put("XDG_CACHE_HOME", cacheHome.toString());
        builder.redirectErrorStream(true);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the JVM did not end");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        String last = text.strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("library "), text);
        return last.substring("library ".length());
    }

    /** Opens a database and writes to it, then prints the path of the RocksDB library this process mapped. */
    public static final class OpensADatabase {
        public static void main(String[] args) throws Exception {
            RocksNativeLibrary.load();
            try (Options options = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(options, args[0])) {
                db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
            }
            try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
                String library = maps.map(line -> line.substring(line.lastIndexOf(' ') + 1))
                        .filter(path -> path.contains("librocksdb")).findFirst().orElse("none");
                System.out.println("library " + library);
            }
        }
    }
}
