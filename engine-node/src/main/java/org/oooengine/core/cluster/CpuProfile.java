package org.oooengine.core.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A CPU profile of this process: a Flight Recorder recording with the JDK's {@code profile}
 * settings (a stack sampled every 10 ms of each running thread), written to a file when stopped
 * and summarized as the methods most samples were in. Open the file with JDK Mission Control or
 * {@code jfr print}.
 */
public final class CpuProfile {
    /** Names become file names: letters, digits, '_', '-' and '.', not first. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}");
    /** How many of the busiest methods a summary names. */
    static final int TOP = 20;
    private static final java.time.Duration MAX_AGE = java.time.Duration.ofMinutes(30);

    private final String name;
    private final Recording recording;

    private CpuProfile(String name, Recording recording) {
        this.name = name;
        this.recording = recording;
    }

    /** Starts recording; {@code name} names the file it is written to. */
    public static CpuProfile start(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a profile's name is letters, digits, '_', '-' and '.', not first, "
                    + "at most 64: '" + name + "'");
        }
        try {
            Recording r = new Recording(Configuration.getConfiguration("profile"));
            r.setName("ooo-" + name);
            r.setToDisk(true); // in memory only the last buffers would be kept
            r.setMaxAge(MAX_AGE); // a profile nobody stops keeps no more than this on disk
            r.start();
            return new CpuProfile(name, r);
        } catch (IOException | ParseException e) {
            throw new IllegalStateException("the JDK's profile settings cannot be read: " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    /** Stops recording, writes the recording to {@code dir}/name.jfr (readable by this user only) and summarizes it. */
    public Summary stop(Path dir) throws IOException {
        recording.stop();
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".jfr");
            recording.dump(file);
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // the file system's own permissions apply
            }
            return Summary.of(file);
        } finally {
            recording.close();
        }
    }

    /** Stops recording and writes nothing. */
    public void discard() {
        recording.close();
    }

    /** Where a profile was written, its CPU samples, and the methods most of them were in (by samples, most first). */
    public record Summary(String file, long samples, List<Method> top) {
        static Summary of(Path file) throws IOException {
            Map<String, Long> bySelf = new HashMap<>();
            long samples = 0;
            try (RecordingFile in = new RecordingFile(file)) {
                while (in.hasMoreEvents()) {
                    RecordedEvent e = in.readEvent();
                    if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null
                            || e.getStackTrace().getFrames().isEmpty()) {
                        continue;
                    }
                    samples++;
                    RecordedFrame top = e.getStackTrace().getFrames().get(0);
                    bySelf.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1L, Long::sum);
                }
            }
            List<Method> top = bySelf.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(TOP)
                    .map(m -> new Method(m.getKey(), m.getValue()))
                    .toList();
            return new Summary(file.toAbsolutePath().toString(), samples, top);
        }
    }

    /** A method and the samples taken while it ran (not in what it called). */
    public record Method(String method, long samples) {
    }
}
