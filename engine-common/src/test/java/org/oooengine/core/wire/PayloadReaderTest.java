package org.oooengine.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Counts read off the wire are checked against the bytes that follow before anything is sized by them. */
class PayloadReaderTest {
    @Test
    void aCountThePayloadCanHoldIsRead() {
        byte[] p = new PayloadWriter().putVarInt(2).putString("a").putString("b").toByteArray();
        assertEquals(2, new PayloadReader(p).getCount(1));
    }

    @Test
    void aCountBeyondThePayloadIsAProtocolError() {
        byte[] p = new PayloadWriter().putVarInt(Integer.MAX_VALUE).putString("a").toByteArray();
        ProtocolException e = assertThrows(ProtocolException.class, () -> new PayloadReader(p).getCount(3));
        assertTrue(e.getMessage().contains(Integer.MAX_VALUE + " items announced"), e.getMessage());
    }
}
