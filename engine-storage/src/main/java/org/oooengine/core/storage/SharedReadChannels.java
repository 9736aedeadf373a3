package org.oooengine.core.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Read-only channels shared, in this process, by everything that reads the same file: one
 * descriptor per file, however many opened store versions name it. A load publishes a new version
 * of a node's store holding every table, the kept ones as hard links to the same files, while the
 * versions it replaced serve their last requests for a while; opened separately, each version
 * would hold a descriptor per table, and a run of loads into a node of some hundreds of tables
 * would hold tables times loads of them.
 *
 * <p>A file is known by the identity the file system gives it (device and inode on Unix), so a
 * hard link in another directory, or a directory moved, still finds the channel already open. A
 * channel is counted by its users and closed by the last one: a file stays open while anyone
 * reads it, even once deleted or moved, and its identity cannot be taken by another file meanwhile.
 */
public final class SharedReadChannels {
    private static final Map<Key, Shared> OPEN = new HashMap<>();

    private SharedReadChannels() {
    }

    private record Key(Object fileKey, boolean direct) {
    }

    private static final class Shared {
        final FileChannel channel;
        int users;
        /** What the users made of the file once for all of them (its mapping), closed with the channel; or null. */
        AutoCloseable attachment;

        Shared(FileChannel channel) {
            this.channel = channel;
        }
    }

    /** One user's hold on a shared channel; closing it lets the channel go once no one else holds it. */
    public static final class Lease implements AutoCloseable {
        private final Key key;
        private final Shared shared;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(Key key, Shared shared) {
            this.key = key;
            this.shared = shared;
        }

        public FileChannel channel() {
            return shared.channel;
        }

        /**
         * What {@code make} makes of the file, made once for every holder of it (a mapping: made per
         * holder, a node with hundreds of tables, each held by every store version a run of writes
         * publishes, would exceed the process's map areas); closed when the channel is.
         */
        @SuppressWarnings("unchecked")
        public <T extends AutoCloseable> T attached(IoSupplier<T> make) throws IOException {
            synchronized (shared) {
                if (shared.attachment == null) {
                    shared.attachment = make.get();
                }
                return (T) shared.attachment;
            }
        }

        @Override
        public void close() throws IOException {
            if (released.compareAndSet(false, true)) {
                release(key, shared);
            }
        }
    }

    /** Makes something of a file, or fails as reading it may. */
    @FunctionalInterface
    public interface IoSupplier<T> {
        T get() throws IOException;
    }

    /**
     * A hold on a read channel of {@code path}, opened with {@code options} when no one holds one of
     * that file opened the same way ({@code direct}: with O_DIRECT).
     *
     * @throws OpenFilesExhaustedException when the process may open no more files
     */
    public static Lease open(Path path, boolean direct, OpenOption... options) throws IOException {
        Object fileKey = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        if (fileKey == null) { // a file system without identities: nothing to share by
            return new Lease(new Key(new Object(), direct), new Shared(openNew(path, options)));
        }
        Key key = new Key(fileKey, direct);
        synchronized (OPEN) {
            Shared s = OPEN.get(key);
            if (s == null) {
                s = new Shared(openNew(path, options));
                OPEN.put(key, s);
            }
            s.users++;
            return new Lease(key, s);
        }
    }

    private static void release(Key key, Shared shared) throws IOException {
        synchronized (OPEN) {
            if (OPEN.get(key) == shared && --shared.users > 0) {
                return;
            }
            OPEN.remove(key, shared); // an unshared one (a file without identity) was never there
        }
        try (FileChannel channel = shared.channel) {
            AutoCloseable attachment;
            synchronized (shared) {
                attachment = shared.attachment;
                shared.attachment = null;
            }
            if (attachment != null) {
                attachment.close();
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot close what was made of a file: " + e.getMessage(), e);
        }
    }

    /** Files open through here, each counted once however many hold it. */
    public static int openCount() {
        synchronized (OPEN) {
            return OPEN.size();
        }
    }

    private static FileChannel openNew(Path path, OpenOption... options) throws IOException {
        try {
            return FileChannel.open(path, options);
        } catch (FileSystemException e) {
            if (OpenFilesExhaustedException.isExhaustion(e)) {
                throw new OpenFilesExhaustedException(path, openCount(), e);
            }
            throw e;
        }
    }
}
