package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the command line as {@code main} does, capturing what it prints. */
record Cli(int exitCode, String out, String err) {
    static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = OooCli.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Cli(code, out.toString(), err.toString());
    }

    /**
     * A port from which {@code count} consecutive ports are free now, for a cluster's members (its
     * nodes take the base port and those after it). Below the kernel's range of ports for outgoing
     * connections, so that none of those takes one meanwhile.
     */
    static int freePorts(int count) throws java.io.IOException {
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 20_000 + random.nextInt(12_000 - count);
            if (java.util.stream.IntStream.range(base, base + count).allMatch(Cli::free)) {
                return base;
            }
        }
        throw new java.io.IOException("no " + count + " consecutive free ports found");
    }

    private static boolean free(int port) {
        try (java.net.ServerSocket s = new java.net.ServerSocket()) {
            s.bind(new java.net.InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
