package org.oooengine.core.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.types.Bytes;

/**
 * Measures the device under a directory through the engine's own read path — a {@link PageFile}
 * opened with direct I/O and its positional, checksum-verified reads — so the figures bound what
 * joins on this machine can reach: random-read IOPS at queue depth 1 (in-order execution) and at a
 * deep queue (out-of-order execution), and sequential throughput (full scans).
 */
public final class DiskProbe {
    public static final int DEEP_QUEUE = 64;
    private static final Logger LOG = LogManager.getLogger(DiskProbe.class);
    /** Bytes of an internal-page entry: slot, key length, 8-byte key, value length, 8-byte child. */
    private static final int INTERNAL_ENTRY_BYTES = 20;

    /** Queue depths a cluster calibration measures: in-order execution up to the deepest an OoO node keeps. */
    public static final int[] QUEUE_DEPTHS = {1, 4, 16, 64, 256};

    /** Random-read rates in reads per second by queue depth, sequential rate in MiB per second. */
    public record Result(int pageSize, long fileBytes, double secondsPerTest, Map<Integer, Double> randomIops,
                         double sequentialMibPerSecond) {
        public Result {
            randomIops = Collections.unmodifiableMap(new TreeMap<>(randomIops));
        }

        public double randomIopsQd1() {
            return randomIops.get(1);
        }

        public double randomIopsDeep() {
            return randomIops.get(DEEP_QUEUE);
        }
    }

    private final Path dir;
    private final long fileBytes;
    private final int pageSize;

    public DiskProbe(Path dir, long fileBytes, int pageSize) {
        PageFormat.checkPageSize(pageSize);
        if (fileBytes < 16L * pageSize) {
            throw new IllegalArgumentException("calibration file must hold at least 16 pages, got " + fileBytes + " bytes");
        }
        this.dir = dir;
        this.fileBytes = fileBytes;
        this.pageSize = pageSize;
    }

    /** Writes the calibration file, runs the read tests (depth 1 and {@value #DEEP_QUEUE}, sequential), deletes the file. */
    public Result run(Duration perTest) {
        return run(perTest, 1, DEEP_QUEUE);
    }

    /** Random reads at each of {@code depths}, then sequential reads, {@code perTest} each. */
    public Result run(Duration perTest, int... depths) {
        if (perTest.isNegative() || perTest.isZero()) {
            throw new IllegalArgumentException("each calibration test needs a positive duration, got " + perTest);
        }
        Path file = createEmptyFile();
        try {
            // An empty file is a valid page file: probe O_DIRECT before spending time writing.
            PageFile.open(file, pageSize, true, new IoStats()).close();
            write(file);
            try (PageFile f = PageFile.open(file, pageSize, true, new IoStats())) {
                long nanos = perTest.toNanos();
                Map<Integer, Double> iops = new TreeMap<>();
                for (int depth : depths) {
                    iops.put(depth, randomReads(f, depth, nanos));
                }
                double seq = sequentialReads(f, nanos);
                return new Result(pageSize, f.pageCount() * pageSize, nanos / 1e9, iops, seq);
            }
        } finally {
            delete(file);
        }
    }

    private Path createEmptyFile() {
        try {
            return Files.createTempFile(dir, "ooo-calibration-", ".data");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a calibration file in " + dir, e);
        }
    }

    /** One page-sized entry per leaf, so the file is the requested number of valid, checksummed pages. */
    private void write(Path file) {
        long pages = fileBytes / pageSize;
        long fanout = (pageSize - PageFormat.HEADER_SIZE) / INTERNAL_ENTRY_BYTES;
        // Leave room for the internal levels so the file comes out at the requested size.
        long leaves = (pages - 1) - (pages - 1) / fanout;
        byte[] value = new byte[pageSize - PageFormat.HEADER_SIZE - 2 - 1 - 8 - 3];
        // Random content, so storage that compresses or deduplicates cannot shortcut the reads.
        ThreadLocalRandom.current().nextBytes(value);
        LOG.info("writing {} MiB calibration file {}", (leaves * pageSize) >> 20, file);
        try (BTreeBuilder b = new BTreeBuilder(file, pageSize, 1.0)) {
            for (long k = 0; k < leaves; k++) {
                byte[] key = new byte[8];
                Bytes.putLong(key, 0, k);
                Bytes.putLong(value, 0, k);
                b.add(key, value);
            }
            b.finish();
        }
    }

    /** {@code depth} threads each issue one blocking read at a time at random pages. */
    private static double randomReads(PageFile f, int depth, long nanos) {
        ExecutorService threads = Executors.newFixedThreadPool(depth);
        try {
            long start = System.nanoTime();
            long deadline = start + nanos;
            List<Future<Long>> counts = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                counts.add(threads.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    long reads = 0;
                    while (System.nanoTime() < deadline) {
                        f.readPage(random.nextLong(f.pageCount()));
                        reads++;
                    }
                    return reads;
                }));
            }
            long total = 0;
            for (Future<Long> c : counts) {
                total += await(c);
            }
            double iops = total / ((System.nanoTime() - start) / 1e9);
            LOG.info("random reads at queue depth {}: {} IOPS", depth, Math.round(iops));
            return iops;
        } finally {
            threads.shutdownNow();
        }
    }

    /** Reads the file front to back (wrapping around) in the requests a full scan issues. */
    private static double sequentialReads(PageFile f, long nanos) {
        int perRequest = (int) Math.min(f.pageCount(), PageFile.SCAN_CHUNK_BYTES / f.pageSize());
        byte[] buf = new byte[perRequest * f.pageSize()];
        long start = System.nanoTime();
        long bytes = 0;
        long next = 0;
        while (System.nanoTime() - start < nanos) {
            int n = (int) Math.min(perRequest, f.pageCount() - next);
            f.readPages(next, n, buf);
            bytes += (long) n * f.pageSize();
            next = (next + n) % f.pageCount();
        }
        double mibPerSecond = bytes / (double) (1 << 20) / ((System.nanoTime() - start) / 1e9);
        LOG.info("sequential reads: {} MiB/s", Math.round(mibPerSecond));
        return mibPerSecond;
    }

    private static long await(Future<Long> f) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("calibration read failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during calibration", e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("cannot delete calibration file {}: {}", file, e.toString());
        }
    }
}
