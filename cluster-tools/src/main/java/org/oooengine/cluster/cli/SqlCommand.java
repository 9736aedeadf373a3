package org.oooengine.cluster.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.oooengine.cluster.launch.LocalCluster;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ooo sql}: sqlline over the real Hive JDBC driver, both in their own class loader
 * ({@link HiveJdbc}), so what works here works from any HiveServer2 client.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"An SQL shell (sqlline over the Hive JDBC driver) on a running coordinator: interactive, "
                + "or one statement with -e, or a script with -f.",
                "With -e or -f it prints the result and exits with 0, or prints the error and exits with 1."})
final class SqlCommand implements Callable<Integer> {
    static final String DEFAULT_URL = HiveJdbc.url("127.0.0.1", ServerCommand.DEFAULT_PORT, false);
    /**
     * What sqlline says on every connection through the Hive driver, which claims a default
     * isolation level that it then calls unsupported.
     */
    private static final Pattern NOISE = Pattern.compile("Transaction isolation level \\w+ is not supported\\.");
    private static final String JLINE_DUMB = "org.jline.terminal.dumb";
    /** Characters per table row when printing to a file or pipe (sqlline's own fallback is no width at all). */
    private static final int NON_INTERACTIVE_WIDTH = 4000;

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    Target target;

    static final class Target {
        @Option(names = "--url", paramLabel = "<jdbc-url>",
                description = "JDBC URL of the endpoint (default: jdbc:hive2://127.0.0.1:10000/default;auth=noSasl)")
        String url;

        @Option(names = "--cluster", paramLabel = "<cluster-dir>",
                description = "connect to the coordinator 'ooo cluster start' runs for this cluster")
        Path cluster;
    }

    @Option(names = {"-u", "--user"}, paramLabel = "<user>", description = "user name (default: your login name)")
    String user;

    @Option(names = {"-p", "--password"}, paramLabel = "<password>", description = "password (default: none)")
    String password;

    @Option(names = {"-w", "--password-file"}, paramLabel = "<file>",
            description = "read the password from the first line of this file (as beeline -w), so it is not on the command line")
    Path passwordFile;

    @ArgGroup(exclusive = true)
    Script script;

    static final class Script {
        @Option(names = "-e", paramLabel = "<sql>", description = "run these statements (separated by ;) and exit")
        String statements;

        @Option(names = "-f", paramLabel = "<file>", description = "run the statements of this file and exit")
        Path file;
    }

    @Override
    public Integer call() throws Exception {
        if (user != null && user.startsWith("jdbc:")) {
            throw new ParameterException(spec.commandLine(), "-u is the user name; give the URL with --url");
        }
        if (script != null && script.file != null && !Files.isReadable(script.file)) {
            throw new ParameterException(spec.commandLine(), "-f " + script.file + " is not a readable file");
        }
        if (passwordFile != null) {
            if (password != null) {
                throw new ParameterException(spec.commandLine(), "give the password with -p or -w, not both");
            }
            if (!Files.isRegularFile(passwordFile) || !Files.isReadable(passwordFile)) {
                throw new ParameterException(spec.commandLine(), "-w " + passwordFile + " is not a readable file");
            }
            password = Files.readAllLines(passwordFile, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
        }
        List<String> args = new ArrayList<>(List.of("-d", HiveJdbc.DRIVER_CLASS, "-u", url(),
                // Always both, so sqlline never stops to prompt for them.
                "-n", user != null ? user : System.getProperty("user.name", "ooo"),
                "-p", password != null ? password : "",
                "--verbose=false"));
        boolean interactive = script == null;
        if (!interactive) {
            // No terminal to take the width from: sqlline would cut every column down to nothing.
            args.add("--maxWidth=" + NON_INTERACTIVE_WIDTH);
            // Only the results and errors: no banner, no row counts, so the output can be piped on.
            args.add("--silent=true");
            args.addAll(script.file != null ? List.of("-f", script.file.toString()) : List.of("-e", script.statements));
        }
        return run(args.toArray(String[]::new));
    }

    private String url() {
        if (target == null) {
            return DEFAULT_URL;
        }
        if (target.url != null) {
            return target.url;
        }
        return new LocalCluster(target.cluster).coordinatorUrl().orElseThrow(() -> new IllegalArgumentException(
                "no coordinator runs for the cluster in " + target.cluster + "; start it with: ooo cluster start --cluster "
                        + target.cluster));
    }

    /** Runs sqlline in the isolated loader, its output into this command's writers. */
    private int run(String[] args) throws Exception {
        boolean interactive = script == null;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Without a terminal (-e, -f) ask JLine for a dumb one up front, rather than have it warn that it
        // could not make a real one.
        String dumb = interactive ? null : System.setProperty(JLINE_DUMB, "true");
        Object status;
        try {
            status = HiveJdbc.withLoader(() -> {
                Class<?> sqlLineClass = Class.forName("sqlline.SqlLine", true, HiveJdbc.loader());
                // sqlline ignores --verbose=false (and prints each error's stack trace) until its first start
                // completes, which -e never does; mark it complete so errors are one line.
                Field initComplete = sqlLineClass.getDeclaredField("initComplete");
                initComplete.setAccessible(true);
                initComplete.setBoolean(null, true);
                Object sqlLine = sqlLineClass.getDeclaredConstructor().newInstance();
                sqlLineClass.getMethod("setOutputStream", OutputStream.class).invoke(sqlLine, new WriterOutputStream(out));
                sqlLineClass.getMethod("setErrorStream", OutputStream.class).invoke(sqlLine, new WriterOutputStream(err));
                try {
                    // Input from the terminal; history is saved for interactive sessions only.
                    return sqlLineClass.getMethod("begin", String[].class, InputStream.class, boolean.class)
                            .invoke(sqlLine, args, null, interactive);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            });
        } finally {
            if (!interactive) {
                restore(JLINE_DUMB, dumb);
            }
            out.flush();
            err.flush();
        }
        // sqlline.SqlLine.Status: OK, ARGS or OTHER.
        return "OK".equals(String.valueOf(status)) ? 0 : 1;
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    /**
     * Bytes from sqlline's print streams, decoded as UTF-8 into one of picocli's writers line by
     * line, less the lines that are noise for every statement (see {@link #NOISE}).
     */
    static final class WriterOutputStream extends OutputStream {
        private final PrintWriter writer;
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        private final ByteBuffer bytes = ByteBuffer.allocate(8192);
        private final CharBuffer chars = CharBuffer.allocate(8192);
        private final StringBuilder line = new StringBuilder();

        WriterOutputStream(PrintWriter writer) {
            this.writer = writer;
        }

        @Override
        public synchronized void write(int b) {
            if (!bytes.hasRemaining()) {
                decode();
            }
            bytes.put((byte) b);
            if (b == '\n') {
                decode();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        /** Passes on a partial line too: an interactive prompt has no line end. */
        @Override
        public synchronized void flush() {
            decode();
            writer.append(line);
            line.setLength(0);
            writer.flush();
        }

        /** Decodes what is complete (a character split across writes waits) and passes on whole lines. */
        private void decode() {
            bytes.flip();
            decoder.decode(bytes, chars, false);
            bytes.compact();
            chars.flip();
            line.append(chars);
            chars.clear();
            int end;
            while ((end = line.indexOf("\n")) >= 0) {
                String text = line.substring(0, end + 1);
                line.delete(0, end + 1);
                if (!NOISE.matcher(text).lookingAt()) {
                    writer.append(text);
                }
            }
        }
    }
}
