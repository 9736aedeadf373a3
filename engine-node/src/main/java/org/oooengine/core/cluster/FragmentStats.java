package org.oooengine.core.cluster;

/** What one node's fragment of a distributed join did, as it reports it at the end of its stream. */
public record FragmentStats(String node, double seconds, long rows, long pageReads, long bytesRead, int maxIoInflight,
                            int maxTasksInflight, long tasks, long localProbes, long remoteRequests,
                            long requestFrames) {
}
