package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kills a child JVM running bank transfers with SIGKILL at random moments, recovers in this JVM
 * and checks: the total is intact, every acknowledged transfer is present, and every balance
 * equals what the recorded transfers imply (no transaction is partly visible). The child runs
 * again on the recovered directory, so recovery after recovery is exercised too.
 * {@code -Dtxn.crash.kills=N} sets the kills per configuration (3 by default; 30 in all).
 */
class CrashRecoveryTest {
    private static final int KILLS = Integer.getInteger("txn.crash.kills", 3);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "nlr, fsync", "nlr-group:8, fsync", "elr, fsync", "elr-group:8, fsync", "elr-swal, fsync",
            "nlr, nvm-sim:50", "nlr-group:8, nvm-sim:50", "elr, nvm-sim:50", "elr-group:8, nvm-sim:50", "elr-swal, none"})
    void acknowledgedTransfersSurviveSigkill(String protocol, String durability) throws Exception {
        SplittableRandom random = new SplittableRandom();
        Set<String> acknowledged = new HashSet<>();
        Path db = dir.resolve("db");
        for (int kill = 0; kill < KILLS; kill++) {
            Path side = dir.resolve("acked-" + kill + ".txt");
            // the client compiler and one GC thread: the child lives a second, and is started 30 times
            Process child = new ProcessBuilder(javaBinary(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"),
                    CrashWorkload.class.getName(), db.toString(), protocol, durability, side.toString(), "k" + kill)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            awaitReady(child);
            Thread.sleep(50 + random.nextInt(400));
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            acknowledged.addAll(completeLines(side));
            verify(db, protocol, acknowledged);
        }
        assertTrue(acknowledged.size() > KILLS, "the child acknowledged only " + acknowledged.size() + " transfers");
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void awaitReady(Process child) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"READY".equals(line)) {
            child.destroyForcibly();
            throw new AssertionError("the crash workload did not start: " + line);
        }
    }

    /** The side file's ids; a line cut off by the kill has no newline and is not counted. */
    private static List<String> completeLines(Path side) throws IOException {
        if (!Files.exists(side)) {
            return List.of();
        }
        String text = Files.readString(side, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n"));
    }

    private static void verify(Path dbDir, String protocol, Set<String> acknowledged) {
        try (TransactionalDatabase db = TransactionalDatabase.open(dbDir, LogProtocol.parse(protocol), Durability.NONE)) {
            BankTransfers bank = new BankTransfers(db);
            long[] expected = new long[BankTransfers.ACCOUNTS];
            java.util.Arrays.fill(expected, BankTransfers.INITIAL_BALANCE);
            Set<String> present = new HashSet<>();
            for (Transaction.KeyValue t : Transaction.begin().scanRange(bank.transfers, null, null)) {
                present.add(new String(t.key(), StandardCharsets.UTF_8));
                ByteBuffer b = ByteBuffer.wrap(t.value());
                int from = b.getInt();
                int to = b.getInt();
                long amount = b.getLong();
                expected[from] -= amount;
                expected[to] += amount;
            }
            long total = 0;
            List<Transaction.KeyValue> balances = Transaction.begin().scanRange(bank.accounts, null, null);
            assertEquals(BankTransfers.ACCOUNTS, balances.size());
            for (Transaction.KeyValue a : balances) {
                int account = ByteBuffer.wrap(a.key()).getInt();
                long balance = BankTransfers.amount(a.value());
                assertEquals(expected[account], balance, "balance of account " + account);
                total += balance;
            }
            assertEquals(BankTransfers.ACCOUNTS * BankTransfers.INITIAL_BALANCE, total);
            for (String id : acknowledged) {
                assertTrue(present.contains(id), "acknowledged transfer " + id + " was lost");
            }
        }
    }
}
