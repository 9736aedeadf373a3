package org.oooengine.hive.server;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Who a client is for the connection limits and the login throttle: its IPv4 address, or the /64
 * network of its IPv6 address. A /64 is what one host or site is given and any address in it is
 * theirs to use, so counting single IPv6 addresses would let one host dodge every per-address limit.
 *
 * @param network the address, or the IPv6 network with its host bits cleared
 * @param text how messages name the client, e.g. {@code 10.1.2.3} or {@code 2001:db8:0:0:0:0:0:0/64}
 */
record ClientAddress(InetAddress network, String text) {
    private static final int IPV6_NETWORK_BYTES = 8;

    static ClientAddress of(InetAddress address) {
        if (address instanceof Inet6Address && !address.isLoopbackAddress()) {
            byte[] bytes = address.getAddress();
            Arrays.fill(bytes, IPV6_NETWORK_BYTES, bytes.length, (byte) 0);
            try {
                InetAddress network = InetAddress.getByAddress(bytes);
                return new ClientAddress(network, network.getHostAddress() + "/64");
            } catch (UnknownHostException e) {
                throw new IllegalStateException("16 bytes are an IPv6 address", e);
            }
        }
        return new ClientAddress(address, address.getHostAddress());
    }

    @Override
    public String toString() {
        return text;
    }
}
