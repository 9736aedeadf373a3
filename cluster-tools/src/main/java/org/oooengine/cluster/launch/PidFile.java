package org.oooengine.cluster.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import org.oooengine.core.storage.Directories;

/**
 * {@code run/<member>.pid} of a cluster directory: the pid of a node or coordinator and the instant
 * its process started. A pid alone is not an identity: once the member has died, the system may
 * give its pid to any other process. The start instant tells the member from such a stranger, so
 * that {@code stop} never signals one and {@code start} is never blocked by one.
 */
public final class PidFile {
    /** How far two readings of one process's start may differ (clock ticks, a step of the system clock). */
    private static final Duration SAME_START = Duration.ofSeconds(1);

    private final Path file;
    private final String member;

    /** The pid file of {@code member} (a node's id, or {@link LocalCluster#COORDINATOR}). */
    public PidFile(Path clusterDir, String member) {
        this(clusterDir.resolve("run").resolve(member + ".pid"), member, true);
    }

    private PidFile(Path file, String member, boolean unused) {
        this.file = file;
        this.member = member;
    }

    /**
     * {@code run/<node>.supervisor.pid}: the shell loop that runs the node and restarts it (see
     * LocalCluster). Its command line holds the node's, so it names the node as the node's own does.
     */
    public static PidFile supervisor(Path clusterDir, String node) {
        return new PidFile(clusterDir.resolve("run").resolve(node + ".supervisor.pid"), node, true);
    }

    public Path path() {
        return file;
    }

    /** What the pid file says about the member. */
    public sealed interface State {
    }

    /** No pid file, or the process it names has exited. */
    public record Down() implements State {
    }

    /** The member's process, alive. */
    public record Up(ProcessHandle process) implements State {
    }

    /** The pid is alive but belongs to another process than the one recorded; {@code why} says how that shows. */
    public record Stranger(long pid, String why) implements State {
    }

    /** Records {@code process} as the member: its pid, then its start instant when the system tells it. */
    public void write(ProcessHandle process) throws IOException {
        Directories.createPrivate(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        String started = process.info().startInstant().map(i -> i + "\n").orElse("");
        Directories.writePrivate(tmp, process.pid() + "\n" + started);
        // Renamed into place: the launcher and the member itself both write it, and a reader sees one whole.
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    public State read() {
        List<String> lines;
        long pid;
        try {
            lines = Files.readAllLines(file);
            pid = Long.parseLong(lines.get(0).strip());
        } catch (IOException | RuntimeException e) {
            // No file, or not one of ours (empty, half written by an older version): nobody to find.
            return new Down();
        }
        Optional<ProcessHandle> alive = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (alive.isEmpty()) {
            return new Down();
        }
        ProcessHandle p = alive.get();
        Instant recorded = lines.size() > 1 ? parse(lines.get(1).strip()) : null;
        Optional<Instant> started = p.info().startInstant();
        if (recorded != null && started.isPresent()) {
            Duration apart = Duration.between(recorded, started.get()).abs();
            return apart.compareTo(SAME_START) <= 0 ? new Up(p) : new Stranger(pid, "it started at " + started.get()
                    + ", " + member + " at " + recorded);
        }
        // A pid file without a start instant, or a system that does not tell one: the command line decides.
        Optional<String[]> args = p.info().arguments();
        if (args.isPresent() && namesMember(List.of(args.get()))) {
            return new Up(p);
        }
        return new Stranger(pid, args.isPresent() ? "its command line does not name " + member
                : "its start and command line cannot be read");
    }

    /** Removes the pid file if it still names {@code process} (a member that stops, not its successor's file). */
    public void deleteIfNames(ProcessHandle process) throws IOException {
        if (read() instanceof Up up && up.process().pid() == process.pid()) {
            Files.deleteIfExists(file);
        }
    }

    public void delete() throws IOException {
        Files.deleteIfExists(file);
    }

    /** {@code ooo node ... --id <member>}, or {@code ooo server} for the coordinator. */
    private boolean namesMember(List<String> args) {
        if (member.equals(LocalCluster.COORDINATOR)) {
            return args.contains("server");
        }
        int id = args.indexOf("--id");
        return args.contains("node") && (args.contains("--id=" + member)
                || id >= 0 && id + 1 < args.size() && args.get(id + 1).equals(member));
    }

    private static Instant parse(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
