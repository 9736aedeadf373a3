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

    /** A port from which {@code count} consecutive ports are free now, for a cluster's members. */
    static int freePorts(int count) throws java.io.IOException {
        return org.oooengine.core.net.FreePorts.consecutive(count);
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
