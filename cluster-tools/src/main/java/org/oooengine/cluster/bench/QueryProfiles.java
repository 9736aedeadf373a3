package org.oooengine.cluster.bench;

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
 * CPU profiles of each query's timed runs ({@code ooo bench tpch --profile DIR}, {@code ooo bench
 * tpcds --profile DIR}): a Flight Recorder recording on every node and one of this process (the
 * coordinator), stopped after the runs. This process's goes to {@code DIR/<query>-coordinator.jfr};
 * each node writes its own under its data directory ({@code profiles/<workload>-<query>.jfr}).
 * {@code DIR/<query>-profile.json} says where each is and the methods most of its samples were in.
 */
public final class QueryProfiles implements QueryProfiler {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ClusterSession cluster;
    private final Path dir;
    private final String workload;
    private CpuProfile coordinator;

    /** {@code workload} names the nodes' recordings ({@code tpch}: {@code profiles/tpch-q01.jfr}). */
    public QueryProfiles(ClusterSession cluster, Path dir, String workload) {
        this.cluster = cluster;
        this.dir = dir;
        this.workload = workload;
    }

    @Override
    public void start(String query) {
        coordinator = CpuProfile.start(query + "-coordinator");
        try {
            cluster.startProfiles(workload + "-" + query);
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
            Map<String, JsonNode> nodes = cluster.stopProfiles(workload + "-" + query);
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
