package org.oooengine.cluster.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.oooengine.core.cluster.GcWatchdog;
import picocli.CommandLine;

/** The exit codes of every {@code ooo} command, as {@code --help} lists them and docs/user-guide.md explains them. */
final class ExitCodes {
    static final int OK = CommandLine.ExitCode.OK;
    /** An error (one {@code error: ...} line on stderr), or a check the command makes failed. */
    static final int FAILURE = CommandLine.ExitCode.SOFTWARE;
    /** The command line is wrong: an unknown or missing flag, a bad value; usage goes to stderr. */
    static final int USAGE = CommandLine.ExitCode.USAGE;
    /** The JVM ran out of memory (-XX:+ExitOnOutOfMemoryError) or spent it all collecting garbage. */
    static final int OUT_OF_MEMORY = GcWatchdog.EXIT_CODE;

    private ExitCodes() {
    }

    /** Code to meaning, in the order help shows them. */
    static Map<String, String> described() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put(String.valueOf(OK), "success");
        codes.put(String.valueOf(FAILURE), "failure: an error, or a check the command makes failed (rows that "
                + "differ, a node down, a consistency condition)");
        codes.put(String.valueOf(USAGE), "usage error: unknown or missing flag, bad value");
        codes.put(String.valueOf(OUT_OF_MEMORY), "out of memory");
        codes.put("128+N", "killed by signal N (130: Ctrl-C, 143: SIGTERM)");
        return codes;
    }
}
