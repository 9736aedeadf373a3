package org.oooengine.core.cluster;

import java.util.Set;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RequestHandler;

/**
 * One family of the requests a node serves (index-join probes, pipelines, loads, statistics...):
 * the op codes it owns and how it answers them. {@link RequestTable} hands each request to the one
 * family that owns its op code.
 */
interface RequestFamily extends RequestHandler {
    /** The op codes this family answers; no other family answers them. */
    Set<OpCode> ops();
}
