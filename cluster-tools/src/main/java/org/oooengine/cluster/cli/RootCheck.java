package org.oooengine.cluster.cli;

import picocli.CommandLine.Option;

/**
 * {@code --allow-root} of the commands that run cluster members ({@code ooo node}, {@code ooo server},
 * {@code ooo cluster start}). Members refuse to run as root unless told to: the cluster's files
 * would be root's, and a flaw reachable from the network (the SQL endpoint, the node port) would be
 * a flaw in a root process.
 */
final class RootCheck {
    /** Set to 1 (or true) to allow root without the flag, e.g. in scripts and containers. */
    static final String ENV = "OOO_ALLOW_ROOT";

    @Option(names = "--allow-root",
            description = "run even as root (also: " + ENV + "=1 in the environment); refused without it, since the "
                    + "cluster's files would be root's and the network-facing process would run as root")
    boolean allowRoot;

    /** Root is allowed here, by the flag or the environment; the members this command starts get the flag too. */
    boolean allowed() {
        String env = System.getenv(ENV);
        return allowRoot || "1".equals(env) || "true".equalsIgnoreCase(env);
    }

    /** Stops the command unless it runs as another user than root, or root is allowed. */
    void check(String command, String what) {
        if (runningAsRoot() && !allowed()) {
            throw new IllegalArgumentException("refusing to run " + what + " as root: the cluster's files would be root's, "
                    + "and the network-facing process would run with every privilege of the machine. Run '" + command
                    + "' as an unprivileged user (e.g. sudo -u ooo), or pass --allow-root (" + ENV
                    + "=1 in scripts) to run as root anyway");
        }
    }

    static boolean runningAsRoot() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        } catch (LinkageError | RuntimeException e) {
            // Not a Unix JVM (or its module left out of the runtime): go by the user's name.
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
