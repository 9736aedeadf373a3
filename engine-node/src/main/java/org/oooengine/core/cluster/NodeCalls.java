package org.oooengine.core.cluster;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.RemoteException;

/** What the coordinator's families of calls to the nodes share: waiting for an answer, reading one. */
final class NodeCalls {
    static final ObjectMapper JSON = new ObjectMapper();

    private NodeCalls() {
    }

    /** The answer, its failure thrown as it is (a {@link RemoteException} names its node). */
    static Frame await(CompletableFuture<Frame> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
    }

    /** {@code node}'s JSON answer as a {@code type}; {@code what} names it when it cannot be read. */
    static <T> T json(String node, Frame answer, TypeReference<T> type, String what) {
        try {
            return JSON.readValue(answer.payload(), type);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("node " + node + " sent " + what, e);
        }
    }
}
