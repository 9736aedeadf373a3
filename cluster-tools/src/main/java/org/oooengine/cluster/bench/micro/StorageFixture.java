package org.oooengine.cluster.bench.micro;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.BTreeBuilder;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.PageFile;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/** A B+tree of {@code rows} BIGINT keys with 100-byte values, fully cached: the in-memory paths. */
final class StorageFixture implements AutoCloseable {
    static final KeyCodec KEYS = new KeyCodec(new DataType[] {DataType.BIGINT});

    final Path dir;
    final ExecutorService io = Executors.newFixedThreadPool(4);
    final ExecutorService compute = Executors.newFixedThreadPool(2);
    final PageFile file;
    final BufferPool pool;
    final BTree tree;

    StorageFixture(int rows) throws IOException {
        dir = Files.createTempDirectory("ooo-jmh");
        Path f = dir.resolve("bench.data");
        try (BTreeBuilder b = new BTreeBuilder(f, 8192, 1.0)) {
            byte[] value = new byte[100];
            for (long k = 0; k < rows; k++) {
                b.add(KEYS.encode(k), value);
            }
            b.finish();
        }
        file = PageFile.open(f, 8192, false, new IoStats());
        pool = new BufferPool(file.pageCount() * 8192L * 2, 8192, io, compute);
        for (long p = 0; p < file.pageCount(); p++) {
            pool.get(file, p).join();
        }
        tree = new BTree(file, pool);
    }

    @Override
    public void close() throws IOException {
        io.shutdownNow();
        compute.shutdownNow();
        file.close();
        Files.deleteIfExists(file.path());
        Files.deleteIfExists(dir);
    }
}
