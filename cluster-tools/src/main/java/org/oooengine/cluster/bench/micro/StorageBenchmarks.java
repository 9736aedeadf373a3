package org.oooengine.cluster.bench.micro;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.oooengine.core.storage.Page;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU cost of the paths every out-of-order task walks when its pages are cached: a buffer-pool
 * hit, a B+tree point lookup (descend + binary search + value copy) and a short range scan.
 * Run with {@code ./ooo bench micro}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class StorageBenchmarks {
    @Param({"1000000"})
    int rows;

    private StorageFixture fx;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        fx = new StorageFixture(rows);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        fx.close();
    }

    @Benchmark
    public Page bufferPoolHit() {
        long p = 1 + ThreadLocalRandom.current().nextLong(fx.file.pageCount() - 1);
        return fx.pool.get(fx.file, p).join();
    }

    @Benchmark
    public byte[] btreePointLookup() {
        long k = ThreadLocalRandom.current().nextLong(rows);
        return fx.tree.get(StorageFixture.KEYS.encode(k)).join();
    }

    @Benchmark
    public int btreeRangeScan10() {
        long k = ThreadLocalRandom.current().nextLong(rows - 10);
        int[] n = {0};
        fx.tree.scan(StorageFixture.KEYS.encode(k), StorageFixture.KEYS.encode(k + 10), (leaf, slot) -> {
            n[0] += leaf.value(slot).length;
            return true;
        }).join();
        return n[0];
    }
}
