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

        Shared(FileChannel channel) {
            this.channel = channel;
        }
    }

    /** One user's hold on a shared channel; closing it lets the channel go once no one else holds it. */
    public static final class Lease implements AutoCloseable {
        private final Key key;
        private final FileChannel channel;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(Key key, FileChannel channel) {
            this.key = key;
            this.channel = channel;
        }

        public FileChannel channel() {
            return channel;
        }

        @Override
        public void close() throws IOException {
            if (released.compareAndSet(false, true)) {
                release(key, channel);
            }
        }
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
            return new Lease(new Key(new Object(), direct), openNew(path, options));
        }
        Key key = new Key(fileKey, direct);
        synchronized (OPEN) {
            Shared s = OPEN.get(key);
            if (s == null) {
                s = new Shared(openNew(path, options));
                OPEN.put(key, s);
            }
            s.users++;
            return new Lease(key, s.channel);
        }
    }

    private static void release(Key key, FileChannel channel) throws IOException {
        synchronized (OPEN) {
            Shared s = OPEN.get(key);
            if (s == null || s.channel != channel) { // not shared (no identity)
                channel.close();
                return;
            }
            if (--s.users > 0) {
                return;
            }
            OPEN.remove(key);
        }
        channel.close();
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
