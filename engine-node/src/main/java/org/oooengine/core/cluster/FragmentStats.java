package org.oooengine.core.cluster;

/**
 * What one node's fragment of a distributed join did, as it reports it at the end of its stream:
 * among them the requests it sent again to a second holder ({@code hedgedRequests}) and the median
 * answer time of a typical peer as it saw them lately ({@code peerMedianMicros}, -1 when unknown).
 */
public record FragmentStats(String node, double seconds, long rows, long pageReads, long bytesRead, int maxIoInflight,
                            int maxTasksInflight, long tasks, long localProbes, long remoteRequests,
                            long requestFrames, long hedgedRequests, long peerMedianMicros) {
}
