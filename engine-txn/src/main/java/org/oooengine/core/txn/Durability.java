package org.oooengine.core.txn;

/**
 * What a WAL flush waits for. {@code fsync}: the bytes reach the disk ({@code FileChannel.force}).
 * {@code nvm-sim:<ns>}: the log is a memory-mapped file and every WAL write pays a fixed latency,
 * as a byte-addressable non-volatile log device would. {@code none}: the log reaches the page
 * cache only, which survives a killed process but not a power loss.
 */
public record Durability(Mode mode, long latencyNanos) {
    public static final long DEFAULT_NVM_NANOS = 50;

    public enum Mode { FSYNC, NVM_SIM, NONE }

    public static final Durability FSYNC = new Durability(Mode.FSYNC, 0);
    public static final Durability NONE = new Durability(Mode.NONE, 0);

    public Durability {
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("a simulated latency cannot be negative: " + latencyNanos);
        }
    }

    public static Durability nvmSim(long nanos) {
        return new Durability(Mode.NVM_SIM, nanos);
    }

    /** Parses {@code fsync}, {@code nvm-sim}, {@code nvm-sim:<ns>} or {@code none}. */
    public static Durability parse(String text) {
        String s = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (s.equals("fsync")) {
            return FSYNC;
        }
        if (s.equals("none")) {
            return NONE;
        }
        if (s.equals("nvm-sim")) {
            return nvmSim(DEFAULT_NVM_NANOS);
        }
        if (s.startsWith("nvm-sim:")) {
            try {
                return nvmSim(Long.parseLong(s.substring("nvm-sim:".length())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("nvm-sim latency must be a number of nanoseconds: " + text);
            }
        }
        throw new IllegalArgumentException("unknown durability '" + text + "': use fsync, nvm-sim:<ns> or none");
    }

    @Override
    public String toString() {
        return switch (mode) {
            case FSYNC -> "fsync";
            case NONE -> "none";
            case NVM_SIM -> "nvm-sim:" + latencyNanos;
        };
    }
}
