package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.junit.jupiter.api.Test;

/** Which failures of Hadoop's client calls are a caller's interrupt rather than a fault. */
class JoinJobsInterruptionTest {

    @Test
    void anInterruptAnywhereInTheCauseChainIsACancel() {
        assertTrue(JoinJobs.isInterruption(new InterruptedException()));
        assertTrue(JoinJobs.isInterruption(new IOException("rpc", new InterruptedIOException("wait"))));
        assertTrue(JoinJobs.isInterruption(new RuntimeException(new IOException(new InterruptedException()))));
    }

    @Test
    void hadoopsFlattenedShellInterruptIsACancel() {
        // the shape RawLocalFileSystem gives an interrupted 'ls' for file permissions: no cause, only text
        RuntimeException flattened = new RuntimeException("Error while running command to get file permissions : "
                + "java.io.InterruptedIOException: java.lang.InterruptedException\n\tat org.apache.hadoop.util.Shell");
        assertTrue(JoinJobs.isInterruption(flattened));
    }

    @Test
    void otherFailuresAreNot() {
        assertFalse(JoinJobs.isInterruption(new IOException("No space left on device")));
        assertFalse(JoinJobs.isInterruption(new RuntimeException("Error while running command to get file permissions : "
                + "ExitCodeException exitCode=2: ls: cannot access")));
    }
}
