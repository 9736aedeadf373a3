package org.oooengine.core.storage;

import java.nio.file.Path;
import java.util.Random;

/**
 * The process {@link BTreeWriterCrashTest} kills: writes batches of a seed's random inserts,
 * updates and deletes into a tree and flushes after each, printing {@code flushed N} once batch N
 * is durable, until it is killed.
 */
public final class BTreeWriterCrashChild {
    static final int BATCH = 40;

    private BTreeWriterCrashChild() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        Random r = new Random(Long.parseLong(args[1]));
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.PREFIX)) {
            for (int batch = 1; ; batch++) {
                for (int i = 0; i < BATCH; i++) {
                    Op op = Op.next(r);
                    if (op.value() == null) {
                        w.delete(op.key());
                    } else {
                        w.put(op.key(), op.value());
                    }
                }
                w.flush();
                System.out.println("flushed " + batch);
                System.out.flush();
            }
        }
    }

    /** One write of the seed's sequence: a put, or a delete when the value is null. */
    record Op(byte[] key, byte[] value) {
        static Op next(Random r) {
            byte[] key = new byte[] {(byte) r.nextInt(40), (byte) r.nextInt(256), (byte) r.nextInt(256)};
            if (r.nextInt(5) == 0) {
                return new Op(key, null);
            }
            byte[] value = new byte[r.nextInt(r.nextInt(30) == 0 ? 1_500 : 80)];
            r.nextBytes(value);
            return new Op(key, value);
        }
    }
}
