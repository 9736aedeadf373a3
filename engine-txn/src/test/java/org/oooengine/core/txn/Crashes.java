package org.oooengine.core.txn;

/** For tests outside this package: stops a database as a killed process would. */
public final class Crashes {
    private Crashes() {
    }

    public static void crash(TransactionalDatabase db) {
        db.crash();
    }
}
