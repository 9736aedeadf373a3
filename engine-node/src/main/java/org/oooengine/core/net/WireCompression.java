package org.oooengine.core.net;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whether this process compresses the frames it sends to other members of the cluster. A member
 * reads compressed and plain frames alike whatever it sends, so members set differently still
 * understand each other; only long frames are compressed (shuffled and gathered chunks, broadcasts),
 * and only where LZ4 makes them markedly shorter. docs/benchmarks/wire-format.md has what it costs
 * and when it pays.
 */
public enum WireCompression {
    /** Frames go as they are: the default, as LZ4 costs more than it saves where members are close. */
    NONE,
    /** Frames of {@link FrameFormat#COMPRESS_MIN_BYTES} or more LZ4-compressed, where that saves an eighth. */
    LZ4;

    /** The name as written in cluster.json and on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The choice {@code label} names, in any case. */
    public static WireCompression of(String label) {
        for (WireCompression c : values()) {
            if (c.label().equalsIgnoreCase(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("wire compression '" + label + "': expected one of "
                + Arrays.stream(values()).map(WireCompression::label).collect(Collectors.joining(", ")));
    }
}
