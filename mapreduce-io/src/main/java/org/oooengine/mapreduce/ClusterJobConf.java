package org.oooengine.mapreduce;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.security.Credentials;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.settings.JobKeys;

/**
 * Which cluster a job reads: its cluster.json travels in the job configuration, its secret in the
 * job's credentials (which Hadoop keeps out of the configuration files and logs), so tasks on
 * any host can join the cluster without the cluster directory.
 *
 * <p>Hadoop's local job runner starts a job's thread before it hands the job its credentials
 * ({@code LocalJobRunner.submitJob}), so on a busy machine a task may start with none. Such a
 * task runs in the submitting JVM, which keeps each secret it submitted under its SHA-256: the
 * configuration carries that fingerprint, from which the secret cannot be recovered.
 */
public final class ClusterJobConf {
    static final String SPEC = JobKeys.CLUSTER_SPEC.name();
    static final String TIMEOUT_MS = JobKeys.CLUSTER_TIMEOUT_MS.name();
    static final Text SECRET = new Text(JobKeys.CLUSTER_SECRET.name());
    static final String SECRET_SHA256 = JobKeys.CLUSTER_SECRET_SHA256.name();
    /** Secrets this JVM submitted jobs with, by fingerprint: one per cluster. */
    private static final Map<String, byte[]> SUBMITTED = new ConcurrentHashMap<>();
    /** A task waits this long for a node's answer (or a stream's next chunk) before failing. */
    public static final long DEFAULT_TIMEOUT_MS = JobKeys.CLUSTER_TIMEOUT_MS.defaultValue();

    private ClusterJobConf() {
    }

    /** Points the job at the cluster described in {@code clusterDir}. */
    public static void setCluster(Job job, Path clusterDir) {
        setCluster(job.getConfiguration(), job.getCredentials(), ClusterSpec.read(clusterDir),
                ClusterSpec.readSecret(clusterDir));
    }

    /** Points an old-API job at the cluster described in {@code clusterDir}. */
    public static void setCluster(org.apache.hadoop.mapred.JobConf job, Path clusterDir) {
        setCluster(job, job.getCredentials(), ClusterSpec.read(clusterDir), ClusterSpec.readSecret(clusterDir));
    }

    public static void setCluster(Configuration conf, Credentials credentials, ClusterSpec spec, ClusterSecret secret) {
        conf.set(SPEC, spec.toJson());
        credentials.addSecretKey(SECRET, secret.key());
        String fingerprint = sha256(secret.key());
        conf.set(SECRET_SHA256, fingerprint);
        SUBMITTED.putIfAbsent(fingerprint, secret.key().clone());
    }

    private static String sha256(byte[] key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    public static void setTimeout(Configuration conf, Duration timeout) {
        conf.setLong(TIMEOUT_MS, timeout.toMillis());
    }

    static ClusterSpec spec(Configuration conf) {
        String json = conf.get(SPEC);
        if (json == null) {
            throw new IllegalStateException("the job names no cluster: call ClusterJobConf.setCluster(job, clusterDir)");
        }
        return ClusterSpec.fromJson(json);
    }

    /** Joins the job's cluster as {@code member}. */
    static ClusterSession open(JobContext context, String member) {
        Configuration conf = context.getConfiguration();
        return ClusterSession.open(spec(conf), secret(context), member,
                Duration.ofMillis(conf.getLong(TIMEOUT_MS, DEFAULT_TIMEOUT_MS)));
    }

    /** The job's cluster secret: from its credentials, or for a local task that started before them, from its JVM. */
    static ClusterSecret secret(JobContext context) {
        byte[] key = context.getCredentials().getSecretKey(SECRET);
        String fingerprint = context.getConfiguration().get(SECRET_SHA256);
        if (key == null && fingerprint != null) {
            key = SUBMITTED.get(fingerprint);
        }
        if (key == null) {
            throw new IllegalStateException("the job carries no cluster secret: call ClusterJobConf.setCluster(job, clusterDir)");
        }
        return new ClusterSecret(key);
    }
}
