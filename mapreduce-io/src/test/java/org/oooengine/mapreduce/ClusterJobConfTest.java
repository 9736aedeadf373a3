package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.security.Credentials;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.ClusterSecret;

/** How a job's tasks find the cluster's secret, including where Hadoop's local runner hands it over late. */
class ClusterJobConfTest {
    private static final ClusterSpec SPEC = ClusterSpec.local("secret-test", 2, 7201);

    /** A task's view of a job pointed at the cluster with {@code secret}: with the job's credentials, or with none yet. */
    private static JobConf task(ClusterSecret secret, boolean withCredentials) throws Exception {
        Job job = Job.getInstance(new Configuration());
        ClusterJobConf.setCluster(job.getConfiguration(), job.getCredentials(), SPEC, secret);
        JobConf task = new JobConf(job.getConfiguration());
        task.setCredentials(withCredentials ? job.getCredentials() : new Credentials());
        return task;
    }

    @Test
    void aTaskFindsTheSecretInItsCredentials() throws Exception {
        ClusterSecret secret = ClusterSecret.generate();
        JobConf task = task(secret, true);
        assertArrayEquals(secret.key(), ClusterJobConf.secret(new JobContextImpl(task, new JobID("t", 1))).key());
    }

    @Test
    void aLocalTaskStartedBeforeItsCredentialsFindsTheSecretItsJvmSubmitted() throws Exception {
        ClusterSecret secret = ClusterSecret.generate();
        // what the local job runner's task sees when it copies the job before being given its credentials
        JobConf early = task(secret, false);
        assertArrayEquals(secret.key(), ClusterJobConf.secret(new JobContextImpl(early, new JobID("t", 2))).key());
        // the configuration is written to job files: it names the secret by fingerprint only
        String hex = HexFormat.of().formatHex(secret.key());
        for (Map.Entry<String, String> e : early) {
            assertFalse(e.getValue().toLowerCase(Locale.ROOT).contains(hex), e.getKey() + " holds the secret");
        }
        assertTrue(early.get(ClusterJobConf.SECRET_SHA256).matches("[0-9a-f]{64}"));
    }

    @Test
    void aJobNeverPointedAtAClusterSaysSo() throws Exception {
        JobConf bare = new JobConf(new Configuration());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ClusterJobConf.secret(new JobContextImpl(bare, new JobID("t", 3))));
        assertTrue(e.getMessage().contains("no cluster secret"), e.getMessage());
    }
}
