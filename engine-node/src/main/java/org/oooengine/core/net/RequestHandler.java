package org.oooengine.core.net;

/** What a node does with an authenticated request. Runs on a network thread: it must not block. */
@FunctionalInterface
public interface RequestHandler {
    void handle(Frame request, Responder responder);
}
