package org.oooengine.cluster.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ooo beeline}: Apache beeline. The {@code ooo} script runs it itself, before any build, on
 * the jars in cluster-tools/target/beeline; this command stands for it in help and runs the same
 * when the class is started some other way.
 */
@Command(name = "beeline", mixinStandardHelpOptions = true,
        description = {"Apache beeline (the Hive shell) on its own jars, e.g. "
                + "ooo beeline -u 'jdbc:hive2://127.0.0.1:10000/default;auth=noSasl' -e 'show tables'.",
                "The arguments are beeline's own (see ooo beeline --help); its heap is OOO_BEELINE_HEAP (default 1g)."})
final class BeelineCommand implements Callable<Integer> {
    static final String MAIN = "org.apache.hive.beeline.BeeLine";

    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path jars = jars();
        if (!Files.isDirectory(jars)) {
            throw new IllegalArgumentException("beeline's jars are not in " + jars + "; run ./ooo beeline, which fetches them");
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + System.getenv().getOrDefault("OOO_BEELINE_HEAP", "1g"), "-cp", jars + "/*", MAIN));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }

    /** cluster-tools/target/beeline, beside the jar (or classes directory) this class came from. */
    static Path jars() throws Exception {
        Path code = Path.of(BeelineCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return code.getParent().resolve("beeline");
    }
}
