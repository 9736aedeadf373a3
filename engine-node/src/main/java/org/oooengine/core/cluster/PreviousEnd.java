package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How the run of a node before its current one ended, as the node's supervisor recorded it before
 * starting the node again: {@code run/<node>.ended} in the cluster directory, one line of the epoch
 * second of the end, a space, and the cause ({@code out of memory, exit code 3: ...}, {@code killed
 * by signal 9, exit code 137}). The local supervisor (supervise.sh) writes it, and so does the
 * ExecStopPost= of a node's systemd unit. A node reads it when it starts and reports it in its
 * statistics ({@link #STATS_FIELD}), so that a coordinator that lost its connection to the node can
 * tell what ended it.
 *
 * @param cause what ended it, as the supervisor words it
 * @param at    when, to the second
 */
public record PreviousEnd(String cause, Instant at) {
    /** The field of a node's statistics (PARTITION_STATS) that holds it. */
    public static final String STATS_FIELD = "previousEnd";
    /** How every cause of an end of out of memory starts. */
    static final String OUT_OF_MEMORY = "out of memory";

    public PreviousEnd {
        if (cause == null || cause.isBlank() || at == null) {
            throw new IllegalArgumentException("a previous end needs a cause and a time");
        }
    }

    /** Where the supervisor of {@code node} writes how its last run ended. */
    public static Path file(Path clusterDir, String node) {
        return clusterDir.resolve("run").resolve(node + ".ended");
    }

    /** The record in {@code file}; empty when there is none (the node was not restarted by its supervisor). */
    public static Optional<PreviousEnd> read(Path file) throws IOException {
        try {
            return Optional.of(parse(Files.readString(file)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** One line as the supervisor writes it: the epoch second, a space, the cause. */
    static PreviousEnd parse(String line) {
        String[] parts = line.strip().split(" ", 2);
        if (parts.length < 2) {
            throw new IllegalArgumentException("not '<epoch second> <cause>': " + line.strip());
        }
        try {
            return new PreviousEnd(parts[1].strip(), Instant.ofEpochSecond(Long.parseLong(parts[0])));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not '<epoch second> <cause>': " + line.strip(), e);
        }
    }

    /** Whether the run ended because it ran out of memory (its JVM's exit on an OutOfMemoryError, or the watchdog's). */
    public boolean outOfMemory() {
        return cause.startsWith(OUT_OF_MEMORY);
    }

    /**
     * The cause past "out of memory, ", without a repeated "node X ran out of memory: " (the
     * garbage collection watchdog's words): {@code exit code 3: java.lang.OutOfMemoryError: Java heap space}.
     */
    public String detail() {
        String rest = cause.startsWith(OUT_OF_MEMORY) ? cause.substring(OUT_OF_MEMORY.length()).replaceFirst("^[,:]?\\s*", "")
                : cause;
        return rest.replaceFirst(": node \\S+ ran out of memory: ", ": ");
    }

    /**
     * As a node reports it in its statistics, {@code now} by its own clock: the cause, the time, and
     * how many seconds before the answer the run ended, which a coordinator compares with its own
     * clock's time since a statement began, whatever the two clocks say.
     */
    public Map<String, Object> toStats(Instant now) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cause", cause);
        out.put("at", at.toString());
        out.put("secondsAgo", Math.max(0, Duration.between(at, now).toMillis()) / 1000.0);
        return out;
    }

    /** What a node reported of its previous run: the end, and how long before its answer; empty when it reported none. */
    public record Reported(PreviousEnd end, double secondsAgo) {
    }

    /** The previous end a node's statistics report. */
    public static Optional<Reported> fromStats(JsonNode stats) {
        JsonNode p = stats == null ? null : stats.get(STATS_FIELD);
        if (p == null || !p.hasNonNull("cause") || !p.hasNonNull("at") || !p.has("secondsAgo")) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Reported(new PreviousEnd(p.get("cause").asText(), Instant.parse(p.get("at").asText())),
                    p.get("secondsAgo").asDouble()));
        } catch (RuntimeException e) {
            return Optional.empty(); // a report this version cannot read says nothing
        }
    }

    /** As {@code ooo cluster status} shows it: the cause, then the time. */
    @Override
    public String toString() {
        return cause + ", at " + at;
    }
}
