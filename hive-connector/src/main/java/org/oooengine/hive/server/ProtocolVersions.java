package org.oooengine.hive.server;

import org.apache.hive.service.rpc.thrift.TProtocolVersion;

/**
 * Which protocol version a session speaks, chosen as HiveServer2 chooses it: the lower of the
 * client's and ours. Clients check the answer (PyHive asks for V6 and insists on getting V6), and
 * the version decides the shape of every row set the session receives.
 */
final class ProtocolVersions {
    /** The newest version we serve. V11 adds nothing we implement, and the 4.1 driver asks for V10 at most. */
    static final TProtocolVersion NEWEST = TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10;
    static final TProtocolVersion OLDEST = TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V1;
    /** From V6 on, result rows travel column by column; before, row by row. */
    private static final TProtocolVersion FIRST_COLUMNAR = TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V6;

    private ProtocolVersions() {
    }

    /**
     * The version to answer a client asking for {@code client}. Thrift turns a number it does not
     * know into null; such a client is newer than this server (numbers only grow), so it gets ours.
     */
    static TProtocolVersion negotiate(TProtocolVersion client) {
        if (client == null || client.getValue() > NEWEST.getValue()) {
            return NEWEST;
        }
        return client;
    }

    static boolean columnar(TProtocolVersion version) {
        return version.getValue() >= FIRST_COLUMNAR.getValue();
    }
}
