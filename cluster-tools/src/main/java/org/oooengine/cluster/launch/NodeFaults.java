package org.oooengine.cluster.launch;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Faults put on a local cluster's node processes: killed outright (SIGKILL; its supervisor starts it
 * again), stopped (SIGSTOP) for a while and let go on (SIGCONT), as a machine that stalls does, or
 * restarted (stopped with SIGTERM and started again under a new supervisor, as an upgrade does).
 */
public final class NodeFaults {
    /** How long a node may take to be up again after a fault before it counts as lost. */
    public static final Duration UP_AGAIN_WITHIN = Duration.ofSeconds(120);

    /** What happens to a node. */
    public enum Kind { KILL, STOP, RESTART }

    private final LocalCluster cluster;

    public NodeFaults(LocalCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Stops {@code node} (SIGTERM) and starts it again under a new supervisor, whose count of
     * restarts in a row starts at 0 (a supervisor gives up on a node it restarted five times in ten
     * minutes); returns once the node answers.
     */
    public void restart(String node) throws Exception {
        cluster.restart(node, command -> command);
    }

    /** SIGKILL to {@code node}'s process: its supervisor starts it again. */
    public void kill(String node) {
        running(node).destroyForcibly();
    }

    /** SIGSTOP to {@code node}'s process: it holds every connection open and answers nothing until {@link #resume}. */
    public void stop(String node) {
        signal(running(node).pid(), "STOP");
    }

    /** SIGCONT to {@code node}'s process, if it runs. */
    public void resume(String node) {
        if (new PidFile(cluster.dir(), node).read() instanceof PidFile.Up up) {
            signal(up.process().pid(), "CONT");
        }
    }

    /** Waits until {@code node} answers again. */
    public void awaitUp(String node) throws InterruptedException {
        long deadline = System.nanoTime() + UP_AGAIN_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (cluster.status().stream().anyMatch(s -> s.node().equals(node) && s.state().equals("up"))) {
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("node " + node + " was not up again " + UP_AGAIN_WITHIN.toSeconds()
                + " s after its fault");
    }

    private ProcessHandle running(String node) {
        if (!(new PidFile(cluster.dir(), node).read() instanceof PidFile.Up up)) {
            throw new IllegalStateException("node " + node + " is not running");
        }
        return up.process();
    }

    private static void signal(long pid, String signal) {
        try {
            Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + signal + " " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted signalling " + pid, e);
        }
    }
}
