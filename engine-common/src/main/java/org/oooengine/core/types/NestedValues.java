package org.oooengine.core.types;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of an ARRAY or MAP value inside a row ({@link RowCodec} writes its length
 * first, so a scan that does not read the column skips it unparsed). An array is its element count,
 * a null bitmap, then each element that is not null in its type's row form; a map is its keys as
 * such an array, then its values as another, in the map's order.
 */
final class NestedValues {
    private NestedValues() {
    }

    static byte[] encode(DataType type, Object value) {
        ByteWriter w = new ByteWriter(32);
        if (type.kind() == TypeKind.ARRAY) {
            putElements(type.elements().get(0), (List<?>) value, w);
        } else {
            Map<?, ?> map = (Map<?, ?>) value;
            putElements(type.elements().get(0), new ArrayList<>(map.keySet()), w);
            putElements(type.elements().get(1), new ArrayList<>(map.values()), w);
        }
        return w.toByteArray();
    }

    static Object decode(DataType type, byte[] b, int offset, int length) {
        int[] pos = {offset};
        Object value;
        if (type.kind() == TypeKind.ARRAY) {
            value = getElements(type.elements().get(0), b, pos);
        } else {
            List<Object> keys = getElements(type.elements().get(0), b, pos);
            List<Object> values = getElements(type.elements().get(1), b, pos);
            if (keys.size() != values.size()) {
                throw new IllegalArgumentException("a stored map of " + keys.size() + " keys and " + values.size() + " values");
            }
            Map<Object, Object> map = new LinkedHashMap<>();
            Iterator<Object> v = values.iterator();
            keys.forEach(k -> map.put(k, v.next()));
            value = map;
        }
        if (pos[0] != offset + length) {
            throw new IllegalArgumentException("a stored " + type + " of " + length + " bytes holds " + (pos[0] - offset));
        }
        return value;
    }

    private static void putElements(DataType element, List<?> values, ByteWriter w) {
        w.putVarInt(values.size());
        for (int b = 0; b < values.size(); b += 8) {
            int bits = 0;
            for (int i = b; i < Math.min(values.size(), b + 8); i++) {
                if (values.get(i) == null) {
                    bits |= 1 << (i - b);
                }
            }
            w.put(bits);
        }
        for (Object v : values) {
            if (v != null) {
                RowCodec.putValue(element, v, w);
            }
        }
    }

    private static List<Object> getElements(DataType element, byte[] b, int[] pos) {
        int n = Bytes.getVarInt(b, pos);
        int bitmap = pos[0];
        pos[0] += (n + 7) / 8;
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean isNull = (b[bitmap + (i >> 3)] & (1 << (i & 7))) != 0;
            values.add(isNull ? null : RowCodec.getValue(element, b, pos, true));
        }
        return values;
    }
}
