package org.oooengine.cluster.bench.txn;

import java.nio.ByteBuffer;

/** A transaction engine under benchmark: loaded with rows, then driven by one session per thread. */
interface BenchEngine extends AutoCloseable {
    /** Rows are 8-byte big-endian keys with a 16-byte value whose first 8 bytes are a counter. */
    int VALUE_BYTES = 16;

    static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }

    /** The value with its counter incremented: an update writes something that depends on what it read. */
    static byte[] incremented(byte[] value) {
        byte[] v = value.clone();
        ByteBuffer.wrap(v).putLong(0, ByteBuffer.wrap(value).getLong(0) + 1);
        return v;
    }

    Session session();

    @Override
    void close();

    /** One thread's connection. */
    interface Session {
        /**
         * Runs one transaction over {@code keys} until it commits; returns the attempts it took.
         * {@code onDurable} runs when the commit is acknowledged (maybe during a later call).
         */
        int run(long[] keys, TxnWorkload workload, Runnable onDurable);

        /** Delivers every outstanding acknowledgement. */
        void drain();
    }
}
