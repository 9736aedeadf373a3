package org.oooengine.core.net;

/** Why a request failed; carried in ERROR frames. The byte values are part of the wire format. */
public enum ErrorCode {
    MALFORMED_REQUEST(1),
    AUTH_FAILED(2),
    NOT_FOUND(3),
    TOO_MANY_REQUESTS(4),
    TIMEOUT(5),
    NODE_UNAVAILABLE(6),
    CANCELLED(7),
    INTERNAL(8),
    /** Stored data failed its checks (a page's checksum or format): not a network fault, retrying does not help. */
    DATA_CORRUPTED(9),
    /** The node ran out of memory serving the request. */
    OUT_OF_MEMORY(10),
    /** A transaction met a conflicting one and aborted: nothing it wrote stays; running it again may succeed. */
    CONFLICT(11),
    /** A write broke a constraint (a primary key that exists already); nothing it wrote stays. */
    CONSTRAINT(12),
    /** The request's spill files would go past its query's spill limit or the node's spill space. */
    DISK_FULL(13);

    private final byte code;

    ErrorCode(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static ErrorCode of(byte code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return INTERNAL;
    }
}
