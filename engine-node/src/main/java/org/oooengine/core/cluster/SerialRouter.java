package org.oooengine.core.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.oooengine.core.exec.PartitionRouter;

/**
 * Lets one remote request out at a time, the next only after the previous answer: remote access
 * as synchronous as in an engine that runs out of order only inside its local storage.
 */
final class SerialRouter implements PartitionRouter {
    private final PartitionRouter delegate;
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);

    SerialRouter(PartitionRouter delegate) {
        this.delegate = delegate;
    }

    @Override
    public String self() {
        return delegate.self();
    }

    @Override
    public Holder holder(String table, byte[] encodedValue) {
        return delegate.holder(table, encodedValue);
    }

    @Override
    public CompletableFuture<List<Entry>> lookup(Holder at, String index, byte[] prefix) {
        return afterPrevious(() -> delegate.lookup(at, index, prefix));
    }

    @Override
    public CompletableFuture<List<byte[]>> fetch(Holder at, List<byte[]> primaryKeys) {
        return afterPrevious(() -> delegate.fetch(at, primaryKeys));
    }

    private synchronized <T> CompletableFuture<T> afterPrevious(Supplier<CompletableFuture<T>> request) {
        CompletableFuture<T> next = tail.handle((r, e) -> null).thenCompose(x -> request.get());
        tail = next;
        return next;
    }
}
