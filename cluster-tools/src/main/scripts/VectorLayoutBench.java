import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;

/**
 * What a scan does most, per column chunk of 1,024 values: decode two columns from their stored
 * little-endian bytes into vectors, keep the rows where the first is below a bound, sum the second
 * over them. Plain Java arrays (the engine's vectors) against Apache Arrow's BigIntVector, on the
 * same bytes; prints JSON with the median nanoseconds per value of each over RUNS passes of ROWS values.
 * Usage: java -cp <arrow jars> VectorLayoutBench.java [ROWS] [RUNS]
 */
public class VectorLayoutBench {
    static final int CHUNK = 1024;

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 6_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        int chunks = rows / CHUNK;
        Random r = new Random(1);
        byte[][] keys = new byte[chunks][];
        byte[][] prices = new byte[chunks][];
        for (int c = 0; c < chunks; c++) {
            ByteBuffer k = ByteBuffer.allocate(CHUNK * 8).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer p = ByteBuffer.allocate(CHUNK * 8).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < CHUNK; i++) {
                k.putLong(r.nextInt(100));
                p.putLong(r.nextInt(10_000_000));
            }
            keys[c] = k.array();
            prices[c] = p.array();
        }
        List<Double> arrays = new ArrayList<>();
        List<Double> arrow = new ArrayList<>();
        long check = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int run = 0; run < runs + 1; run++) { // the first of each is a warm-up
                long t0 = System.nanoTime();
                long a = plainArrays(keys, prices);
                long t1 = System.nanoTime();
                long b = arrowVectors(allocator, keys, prices);
                long t2 = System.nanoTime();
                if (a != b) {
                    throw new IllegalStateException("sums differ: " + a + " and " + b);
                }
                check = a;
                if (run > 0) {
                    arrays.add((t1 - t0) / (double) (chunks * CHUNK));
                    arrow.add((t2 - t1) / (double) (chunks * CHUNK));
                }
            }
        }
        System.out.printf("{\"rows\": %d, \"runs\": %d, \"sum\": %d, \"arrow_unsafe_memory_access\": %s, "
                        + "\"java_arrays_ns_per_value\": %.3f, \"arrow_ns_per_value\": %.3f, \"arrow_over_arrays\": %.2f}%n",
                chunks * CHUNK, runs, check, Boolean.getBoolean("arrow.enable_unsafe_memory_access"),
                median(arrays), median(arrow), median(arrow) / median(arrays));
    }

    static long plainArrays(byte[][] keys, byte[][] prices) {
        long sum = 0;
        int[] kept = new int[CHUNK];
        for (int c = 0; c < keys.length; c++) {
            long[] k = new long[CHUNK];
            long[] p = new long[CHUNK];
            ByteBuffer.wrap(keys[c]).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(k);
            ByteBuffer.wrap(prices[c]).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(p);
            int n = 0;
            for (int i = 0; i < CHUNK; i++) {
                if (k[i] < 24) {
                    kept[n++] = i;
                }
            }
            for (int j = 0; j < n; j++) {
                sum += p[kept[j]];
            }
        }
        return sum;
    }

    static long arrowVectors(BufferAllocator allocator, byte[][] keys, byte[][] prices) {
        long sum = 0;
        int[] kept = new int[CHUNK];
        for (int c = 0; c < keys.length; c++) {
            try (BigIntVector k = new BigIntVector("k", allocator); BigIntVector p = new BigIntVector("p", allocator)) {
                fill(k, keys[c]);
                fill(p, prices[c]);
                int n = 0;
                for (int i = 0; i < CHUNK; i++) {
                    if (k.get(i) < 24) {
                        kept[n++] = i;
                    }
                }
                for (int j = 0; j < n; j++) {
                    sum += p.get(kept[j]);
                }
            }
        }
        return sum;
    }

    /** Arrow's data buffer is little-endian: the stored bytes go in as they are, and the validity bits are set. */
    static void fill(BigIntVector v, byte[] bytes) {
        v.allocateNew(CHUNK);
        v.getDataBuffer().setBytes(0, bytes);
        for (int i = 0; i < CHUNK; i++) {
            org.apache.arrow.vector.BitVectorHelper.setBit(v.getValidityBuffer(), i);
        }
        v.setValueCount(CHUNK);
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
