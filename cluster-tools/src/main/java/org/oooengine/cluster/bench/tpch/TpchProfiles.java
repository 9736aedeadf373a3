package org.oooengine.cluster.bench.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.CpuProfile;

/**
 * CPU profiles of each query's timed runs ({@code ooo bench tpch --profile DIR}): a Flight
 * Recorder recording on every node and one of this process (the coordinator), stopped after the
 * runs. This process's goes to {@code DIR/<query>-coordinator.jfr}; each node writes its own under
 * its data directory ({@code profiles/tpch-<query>.jfr}). {@code DIR/<query>-profile.json} says
 * where each is and the methods most of its samples were in.
 */
public final class TpchProfiles implements TpchBench.Profiler {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ClusterSession cluster;
    private final Path dir;
    private CpuProfile coordinator;

    public TpchProfiles(ClusterSession cluster, Path dir) {
        this.cluster = cluster;
        this.dir = dir;
    }

    @Override
    public void start(String query) {
        coordinator = CpuProfile.start(query + "-coordinator");
        try {
            cluster.startProfiles("tpch-" + query);
        } catch (RuntimeException e) {
            coordinator.discard();
            coordinator = null;
            throw e;
        }
    }

    @Override
    public void stop(String query) {
        if (coordinator == null) {
            return;
        }
        try {
            Map<String, JsonNode> nodes = cluster.stopProfiles("tpch-" + query);
            Map<String, Object> profile = new LinkedHashMap<>();
            profile.put("query", query);
            profile.put("coordinator", coordinator.stop(dir));
            profile.put("nodes", nodes);
            JSON.writeValue(dir.resolve(query + "-profile.json").toFile(), profile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the profile of " + query + " to " + dir + ": " + e.getMessage(), e);
        } finally {
            coordinator = null;
        }
    }

    /** The directory profiles go to, made if missing. */
    public static Path directory(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the profile directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
