package org.oooengine.core.txn;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child process of the crash tests: runs bank transfers on two workers until it is killed,
 * appending the id of every acknowledged transfer to a side file (after the acknowledgement, so
 * the file never names a commit that was not durable). Prints READY once transfers run.
 *
 * <p>Arguments: database directory, protocol, durability, side file, id prefix.
 */
public final class CrashWorkload {
    private static final long GIVE_UP_MILLIS = 60_000;

    private CrashWorkload() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.parse(args[1]), Durability.parse(args[2]));
        BankTransfers bank = new BankTransfers(db);
        OutputStream side = new FileOutputStream(args[3], true);
        String prefix = args[4];
        for (int n = 0; n < 2; n++) {
            Worker w = db.newWorker();
            int worker = n;
            Thread t = new Thread(() -> run(w, bank, side, prefix + "-" + worker), "transfer-worker-" + n);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(GIVE_UP_MILLIS);
        System.exit(3);
    }

    private static void run(Worker w, BankTransfers bank, OutputStream side, String prefix) {
        SplittableRandom r = new SplittableRandom();
        for (long seq = 0; ; seq++) {
            int from = r.nextInt(BankTransfers.ACCOUNTS);
            int to = (from + 1 + r.nextInt(BankTransfers.ACCOUNTS - 1)) % BankTransfers.ACCOUNTS;
            String id = prefix + "-" + seq;
            w.execute(bank.transfer(id, from, to, 1 + r.nextInt(20)), () -> acknowledge(side, id));
        }
    }

    private static void acknowledge(OutputStream side, String id) {
        byte[] line = (id + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (side) {
            try {
                side.write(line);
                side.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
