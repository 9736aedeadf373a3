package org.oooengine.core.txn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The bank-transfer workload's tables: balances, and one record per transfer so each commit is checkable. */
final class BankTransfers {
    static final int ACCOUNTS = 50;
    static final long INITIAL_BALANCE = 1_000;

    final TransactionalTable accounts;
    final TransactionalTable transfers;

    BankTransfers(TransactionalDatabase db) {
        accounts = db.createTable("accounts");
        transfers = db.createTable("transfers");
        if (Transaction.begin().scanRange(accounts, null, null).isEmpty()) {
            List<byte[][]> rows = new ArrayList<>();
            for (int i = 0; i < ACCOUNTS; i++) {
                rows.add(new byte[][] {account(i), amount(INITIAL_BALANCE)});
            }
            db.load(accounts, rows);
        }
    }

    static byte[] account(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    static byte[] transferId(String id) {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    /** Moves {@code amount} from one account to another and records the transfer under {@code id}. */
    StoredProcedure transfer(String id, int from, int to, long amount) {
        byte[] record = ByteBuffer.allocate(16).putInt(from).putInt(to).putLong(amount).array();
        return tx -> {
            long a = amount(tx.get(accounts, account(from)));
            long b = amount(tx.get(accounts, account(to)));
            tx.put(accounts, account(from), amount(a - amount));
            tx.put(accounts, account(to), amount(b + amount));
            tx.put(transfers, transferId(id), record);
        };
    }
}
