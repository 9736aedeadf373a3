package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ValueCodec;

/** A join spec in bytes: on the wire inside fragment requests, and as text in job configurations. */
public final class JoinSpecCodec {
    private JoinSpecCodec() {
    }

    public static String toBase64(JoinSpec spec) {
        PayloadWriter w = new PayloadWriter(256);
        write(w, spec);
        return Base64.getEncoder().encodeToString(w.toByteArray());
    }

    public static JoinSpec fromBase64(String text) {
        try {
            return read(new PayloadReader(Base64.getDecoder().decode(text)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an encoded join spec: " + e.getMessage(), e);
        }
    }

    static void write(PayloadWriter w, JoinSpec s) {
        w.putString(s.outerTable()).putString(s.outerAlias());
        writeRange(w, s.outerRange());
        w.putVarInt(s.probes().size());
        for (JoinSpec.Probe p : s.probes()) {
            w.putString(p.from()).putString(p.table()).putString(p.column()).putString(p.alias());
        }
        w.putVarInt(s.output().size());
        s.output().forEach(w::putString);
    }

    static JoinSpec read(PayloadReader r) {
        String outer = r.getString();
        String outerAlias = r.getString();
        ColumnRange range = readRange(r);
        int probeCount = r.getCount(4); // four strings, each at least its length byte
        List<JoinSpec.Probe> probes = new ArrayList<>(probeCount);
        for (int i = 0; i < probeCount; i++) {
            probes.add(new JoinSpec.Probe(r.getString(), r.getString(), r.getString(), r.getString()));
        }
        int n = r.getCount(1);
        List<String> output = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            output.add(r.getString());
        }
        return new JoinSpec(outer, outerAlias, range, probes, output);
    }

    static void writeRange(PayloadWriter w, ColumnRange range) {
        w.putString(range.column());
        ValueCodec.writeRow(w, new Object[] {range.low(), range.high()});
    }

    static ColumnRange readRange(PayloadReader r) {
        String column = r.getString();
        Object[] bounds = ValueCodec.readRow(r);
        return new ColumnRange(column, bounds[0], bounds[1]);
    }
}
