package org.oooengine.core.txn;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's native library from one copy per user and library build, kept in a private
 * cache directory, instead of the copy RocksDB writes to the temporary directory for every JVM:
 * that copy (14 MiB) is deleted only when the JVM exits normally, so every node that was killed
 * and every test JVM that was stopped left one behind, and {@code /tmp} filled up.
 *
 * <p>The copy sits in a directory named after the library's size and CRC in the jar, so that a new
 * RocksDB build gets one of its own; it is written under a temporary name and renamed into place,
 * so that no JVM loads a half-written copy. Since the process runs that file, a copy is used only
 * where no other user could have written it (the directories and the file its user's, none of
 * them writable by others, the file no link) and whole (its CRC the jar's). Where no cache can be
 * kept so (no home directory, not running from a jar, another user's directory) it falls back to
 * RocksDB's own loader.
 */
public final class RocksNativeLibrary {
    private static final Logger LOG = LogManager.getLogger(RocksNativeLibrary.class);
    /**
     * The name {@link RocksDB#loadLibrary(List)} looks for in each directory: it asks for
     * {@code getJniLibraryFileName("rocksdbjni")}, {@code librocksdbjnijni-linux64.so} (the jar holds
     * {@code librocksdbjni-linux64.so}); computed as it computes it, so that both agree.
     */
    static final String FILE_NAME = Environment.getJniLibraryFileName("rocksdbjni");
    private static volatile boolean loaded;

    private RocksNativeLibrary() {
    }

    /** Loads the library once per JVM; later calls return at once. */
    public static synchronized void load() {
        if (loaded) {
            return;
        }
        Path cache = cacheDirectory();
        try {
            Path dir = cache == null ? null : extract(cache);
            if (dir != null) {
                RocksDB.loadLibrary(List.of(dir.toString()));
                loaded = true;
                return;
            }
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("RocksDB's native library could not be kept in {} ({}); it is extracted to the temporary directory",
                    cache, e.toString());
        }
        RocksDB.loadLibrary();
        loaded = true;
    }

    /**
     * The directory under {@code cache} that holds this RocksDB build's library, extracting it
     * there first when it is not yet; null when the library is not read from a jar.
     */
    static Path extract(Path cache) throws IOException {
        URL url = RocksDB.class.getClassLoader().getResource(Environment.getJniLibraryFileName("rocksdb"));
        if (url == null) {
            return null;
        }
        URLConnection connection = url.openConnection();
        if (!(connection instanceof JarURLConnection jar)) {
            return null;
        }
        connection.setUseCaches(false); // a cached JarFile would stay open after this
        JarEntry entry = jar.getJarEntry();
        if (entry.getSize() < 0 || entry.getCrc() < 0) {
            return null;
        }
        Path dir = cache.resolve(String.format(Locale.ROOT, "rocksdb-%d-%08x", entry.getSize(), entry.getCrc()));
        Path library = dir.resolve(FILE_NAME);
        if (Files.isRegularFile(library) && Files.size(library) == entry.getSize()) {
            try (InputStream ignored = connection.getInputStream()) { // closes the jar the connection opened
                // code this process will run: only from files no other user could have written, and whole
                if (private_(cache) && private_(dir) && private_(library) && crcOf(library) == entry.getCrc()) {
                    return dir;
                }
            }
            connection = url.openConnection();
            connection.setUseCaches(false);
        }
        createPrivate(cache);
        createPrivate(dir);
        if (!private_(cache) || !private_(dir)) {
            throw new IOException(dir + " or " + cache + " belongs to another user or others may write to it");
        }
        Path partial = Files.createTempFile(dir, FILE_NAME, ".partial");
        try {
            CRC32 crc = new CRC32();
            try (InputStream in = connection.getInputStream(); OutputStream out = Files.newOutputStream(partial)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    crc.update(buffer, 0, n);
                    out.write(buffer, 0, n);
                }
            }
            if (crc.getValue() != entry.getCrc()) {
                throw new IOException("RocksDB's library read from " + url + " has CRC " + Long.toHexString(crc.getValue())
                        + ", its jar says " + Long.toHexString(entry.getCrc()));
            }
            try {
                Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING);
            }
            LOG.debug("RocksDB's native library kept in {}", library);
            return dir;
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** {@code $XDG_CACHE_HOME/ooo-engine/native}, else {@code ~/.cache/ooo-engine/native}; null with neither. */
    static Path cacheDirectory() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "ooo-engine", "native");
        }
        String home = System.getProperty("user.home");
        if (home == null || home.isBlank() || home.equals("?")) {
            return null;
        }
        return Path.of(home, ".cache", "ooo-engine", "native");
    }

    private static long crcOf(Path file) throws IOException {
        CRC32 crc = new CRC32();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                crc.update(buffer, 0, n);
            }
        }
        return crc.getValue();
    }

    /**
     * Whether {@code path} itself (not what a link points to) belongs to this process's user and no
     * one else may write to it; true where the file system has no POSIX permissions.
     */
    private static boolean private_(Path path) throws IOException {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return true;
        }
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            return false;
        }
        UserPrincipal self = path.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        return Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).equals(self);
    }

    /** Creates {@code dir} (and its parents) readable by this user alone, where the file system has POSIX permissions. */
    private static void createPrivate(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Files.createDirectories(dir.getParent());
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectory(dir);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // another JVM made it first
        }
    }
}
