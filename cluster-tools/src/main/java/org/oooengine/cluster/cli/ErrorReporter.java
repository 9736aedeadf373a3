package org.oooengine.cluster.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.storage.StorageException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failure into one {@code error: ...} line on stderr and exit code 1. Engine messages are
 * written for users, so they are shown as they are; the stack trace is logged at DEBUG.
 */
final class ErrorReporter implements IExecutionExceptionHandler {
    private static final Logger LOG = LogManager.getLogger(ErrorReporter.class);

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
        LOG.debug("'{}' failed", cmd.getCommandSpec().qualifiedName(), ex);
        cmd.getErr().println("error: " + describe(unwrap(ex)));
        cmd.getErr().flush();
        return cmd.getCommandSpec().exitCodeOnExecutionException();
    }

    /** Asynchronous operators wrap the failure that matters. */
    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String describe(Throwable t) {
        if (t instanceof UncheckedIOException u) {
            // Wrapped without a message of its own, the text already names the cause.
            return u.getMessage().contains(String.valueOf(u.getCause().getMessage()))
                    ? u.getMessage() : u.getMessage() + ": " + describeIo(u.getCause());
        }
        if (t instanceof IOException io) {
            return describeIo(io);
        }
        if (t instanceof StorageException || t instanceof IllegalArgumentException || t instanceof ClusterException
                || t instanceof RemoteException) {
            return t.getMessage();
        }
        return "unexpected " + t + " (set OOO_LOG_LEVEL=debug for the stack trace)";
    }

    /** The JDK names only the file for these two; say what went wrong. */
    private static String describeIo(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory: " + e.getMessage();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + e.getMessage();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
