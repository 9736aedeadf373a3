package org.oooengine.core.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * File-tree chores shared by loaders, nodes and commands, and the one place that decides who may
 * read what the engine writes: its files are created 0600 and its directories 0700 (owner only),
 * whatever the process's umask, since they hold table data, the cluster secret and logs of queries.
 */
public final class Directories {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private Directories() {
    }

    /**
     * Creates {@code dir} and any missing parents, each owner-only (0700). A directory that already
     * exists keeps its mode: it may be the operator's own (say /data) and is not ours to narrow.
     */
    public static Path createPrivate(Path dir) throws IOException {
        return POSIX ? Files.createDirectories(dir, attribute(OWNER_DIR)) : Files.createDirectories(dir);
    }

    /**
     * Opens {@code file} for writing with {@code options}, creating it owner-only (0600) when it is
     * new; an existing file loses any group and others permission.
     */
    public static FileChannel openPrivate(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> opts = Set.of(options);
        FileChannel ch = POSIX ? FileChannel.open(file, opts, attribute(OWNER_FILE)) : FileChannel.open(file, opts);
        try {
            narrow(file);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** A new or truncated owner-only file to stream into. */
    public static OutputStream newPrivateOutputStream(Path file) throws IOException {
        return Channels.newOutputStream(openPrivate(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE));
    }

    /** Writes {@code text} (UTF-8) into a new or truncated owner-only file. */
    public static void writePrivate(Path file, String text) throws IOException {
        try (OutputStream out = newPrivateOutputStream(file)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** An owner-only file to append to (a log), created empty when absent. */
    public static Path createPrivateFile(Path file) throws IOException {
        openPrivate(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND).close();
        return file;
    }

    /** Removes group and others permissions from a file or directory the engine owns. */
    public static void narrow(Path path) throws IOException {
        if (!POSIX) {
            return;
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
        if (perms.removeAll(GROUP_OR_OTHERS)) {
            Files.setPosixFilePermissions(path, perms);
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> perms) {
        return PosixFilePermissions.asFileAttribute(perms);
    }

    /**
     * Syncs {@code dir} itself, so that the names created, renamed or deleted in it survive a
     * crash (a file's own sync keeps its bytes, not its name). Where the platform cannot open a
     * directory for syncing (not Linux), nothing.
     */
    public static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            if (POSIX) {
                throw new UncheckedIOException("cannot sync the directory " + dir, e);
            }
        }
    }

    /** Syncs the bytes of {@code file}. */
    public static void sync(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync " + file, e);
        }
    }

    /** Deletes {@code dir} and everything below it; a missing directory is fine. */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
