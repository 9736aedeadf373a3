package org.oooengine.core.cluster;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.oooengine.core.fragment.NodeMemory;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.storage.Directories;

/**
 * What a statement's operators may hold and spill as they run: {@code memoryPerNodeBytes} on each
 * node, {@code memoryBytes} on the coordinator ({@link SessionSettings#QUERY_MAX_MEMORY_PER_NODE},
 * {@link SessionSettings#QUERY_MAX_MEMORY}), and {@code spillMaxBytes} in spill files at a time on
 * each ({@link SessionSettings#SPILL_MAX_BYTES}); 0 for each: the default where it runs.
 */
public record RuntimeLimits(long memoryPerNodeBytes, long memoryBytes, long spillMaxBytes) {
    public static final RuntimeLimits DEFAULTS = new RuntimeLimits(0, 0, 0);

    /**
     * What all the statements of this process may hold on the coordinator together, whatever each
     * may alone: many at once stay within the heap as one does.
     */
    private static final NodeMemory COORDINATOR_STATEMENTS = new NodeMemory("the coordinator",
            (long) (Runtime.getRuntime().maxMemory() * NodeService.Caps.DEFAULT_HEAP_SHARE),
            "the coordinator's heap (ooo cluster start --sql-heap)");

    /** The limits {@code settings} set, the defaults for those they do not. */
    public static RuntimeLimits of(Map<String, String> settings) {
        return new RuntimeLimits(SessionSettings.QUERY_MAX_MEMORY_PER_NODE.get(settings),
                SessionSettings.QUERY_MAX_MEMORY.get(settings), SessionSettings.SPILL_MAX_BYTES.get(settings));
    }

    /**
     * What one statement's operators may hold on the coordinator; aggregations beyond it spill to
     * a directory of this process's own under the system's temporary directory, no more than
     * {@link #spillMaxBytes} nor than what {@code spillSpace}, the coordinator's for all its
     * statements, has left.
     */
    public QueryMemory coordinatorMemory(SpillSpace spillSpace) {
        return new QueryMemory("the coordinator", memoryBytes > 0 ? memoryBytes : Runtime.getRuntime().maxMemory() / 4,
                QueryMemory.raiseWith(SessionSettings.QUERY_MAX_MEMORY.name()), coordinatorSpillDirectory(),
                spillMaxBytes > 0 ? spillMaxBytes : SpillSpace.DEFAULT_QUERY_MAX_BYTES, spillSpace, COORDINATOR_STATEMENTS);
    }

    /** As above, with no spill space shared with other statements (tools and tests). */
    public QueryMemory coordinatorMemory() {
        return coordinatorMemory(SpillSpace.unbounded());
    }

    /** What a query's requests ask of each node (0: the node's default). */
    public QueryLimits nodeLimits() {
        return new QueryLimits(memoryPerNodeBytes, spillMaxBytes);
    }

    /**
     * The directory the coordinator's statements spill to: this process's own under the system's
     * temporary directory. Those of coordinators that died while spilling (their process gone) are
     * removed when it is first asked for.
     */
    public static Path coordinatorSpillDirectory() {
        return CoordinatorSpill.DIRECTORY;
    }

    /** Holds the directory, found (and the dead coordinators' cleared) on first use. */
    private static final class CoordinatorSpill {
        private static final String NAME = "ooo-spill-";
        static final Path DIRECTORY = spillDirectory();

        private static Path spillDirectory() {
            Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, NAME + "*")) {
                for (Path dir : dirs) {
                    String pid = dir.getFileName().toString().substring(NAME.length());
                    if (!pid.isEmpty() && pid.chars().allMatch(Character::isDigit)
                            && ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
                        Directories.deleteRecursively(dir);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // another user's directory, or none to list: nothing of ours to clear
            }
            return tmp.resolve(NAME + ProcessHandle.current().pid());
        }
    }
}
