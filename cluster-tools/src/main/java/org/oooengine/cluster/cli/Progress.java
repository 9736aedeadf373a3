package org.oooengine.cluster.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.oooengine.core.tpch.TpchLoader;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The progress of a long command on stderr: one line, redrawn in place, with what runs, how far it
 * got (rows, steps, or time of a run of known length), the rate, the time so far and an estimate of
 * the time left. Drawn only when stderr is a terminal and the command was not given
 * {@code --quiet}; {@link #note} lines, what a command says of its phases, show either way unless
 * quiet.
 *
 * <p>A command runs one task after another: {@link #start} (a count, or 0 when the end is not
 * known), {@link #startTimed} (a run of known length), then {@link #update} or {@link #advance}, and
 * {@link #done} or the next start. While a task runs the line is redrawn every half second, so the
 * time moves on even when the count does not.
 */
final class Progress implements TpchLoader.Progress, AutoCloseable {
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter err;
    private final boolean drawn;
    private final boolean quiet;
    private ScheduledExecutorService ticker;
    private String task;
    private String unit;
    private long total;
    private long done;
    private long startNanos;
    private long timedNanos;
    private long lastDraw;
    private int lastWidth;

    Progress(PrintWriter err, boolean drawn, boolean quiet) {
        this.err = err;
        this.drawn = drawn && !quiet;
        this.quiet = quiet;
    }

    /** The progress of the command {@code spec} runs: drawn on a terminal, nothing with {@code --quiet}. */
    static Progress of(CommandSpec spec) {
        boolean quiet = spec.root().userObject() instanceof OooCli cli && cli.quiet;
        return new Progress(spec.commandLine().getErr(), stderrIsTerminal(), quiet);
    }

    /** Whether stderr goes to a terminal: where Linux tells, by its file; otherwise whether there is a console. */
    static boolean stderrIsTerminal() {
        if (System.console() == null) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return true;
        }
    }

    /**
     * Starts a task of {@code total} units of work (0: an unknown number), ending the one before.
     * Without a unit the line shows only the share done (of {@code total}, when it is not 0).
     */
    synchronized Progress start(String task, long total, String unit) {
        endTask(true);
        this.task = task;
        this.total = Math.max(0, total);
        this.unit = unit;
        this.done = 0;
        this.timedNanos = 0;
        this.startNanos = System.nanoTime();
        tick();
        draw(startNanos, false);
        return this;
    }

    /** Starts a task that runs for {@code length}, such as a benchmark's measured seconds. */
    synchronized Progress startTimed(String task, Duration length) {
        start(task, 0, null);
        timedNanos = Math.max(1, length.toNanos());
        return this;
    }

    /** The current task has done this much of its work. */
    synchronized void update(long done) {
        this.done = done;
        long now = System.nanoTime();
        if (now - lastDraw >= REDRAW_NANOS) {
            draw(now, false);
        }
    }

    /** One more unit of the current task is done. */
    synchronized void advance() {
        update(done + 1);
    }

    /** As {@link #update(long)}, with a new total (an estimate that got better). */
    synchronized void update(long done, long total) {
        this.total = Math.max(0, total);
        update(done);
    }

    /** A table of a TPC-H load: each table is a task of its rows. */
    @Override
    public synchronized void update(String table, long rowsDone, long rowsExpected) {
        if (!table.equals(task)) {
            start(table, rowsExpected, "rows");
        }
        update(rowsDone, rowsExpected);
    }

    /** The task running, or null. */
    synchronized String task() {
        return task;
    }

    /** Ends the current task with its final figures. */
    synchronized void done() {
        endTask(true);
    }

    /** Ends a half-drawn line, so that an error message starts on a line of its own. */
    synchronized void abandon() {
        endTask(false);
        close();
    }

    /** A line of its own on stderr (what the command does next), unless quiet; the progress line stays below it. */
    synchronized void note(String line) {
        if (quiet) {
            return;
        }
        clearLine();
        err.println(line);
        err.flush();
        if (task != null) {
            draw(System.nanoTime(), false);
        }
    }

    @Override
    public synchronized void close() {
        endTask(true);
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
    }

    private void tick() {
        if (drawn && ticker == null) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "ooo-progress");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(this::redraw, 500, 500, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void redraw() {
        if (task != null) {
            draw(System.nanoTime(), false);
        }
    }

    private void endTask(boolean finished) {
        if (task == null) {
            return;
        }
        if (finished) {
            draw(System.nanoTime(), true);
        } else if (drawn && lastWidth > 0) {
            err.println();
            err.flush();
            lastWidth = 0;
        }
        task = null;
    }

    private void clearLine() {
        if (drawn && lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            lastWidth = 0;
        }
    }

    private void draw(long now, boolean last) {
        lastDraw = now;
        if (!drawn) {
            return;
        }
        String line = "  " + line(task, unit, done, total, timedNanos, now - startNanos, last);
        err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
        lastWidth = line.length();
        if (last) {
            err.println();
            lastWidth = 0;
        }
        err.flush();
    }

    /** The progress line of a task; package-private for its test. */
    static String line(String task, String unit, long done, long total, long timedNanos, long elapsedNanos, boolean last) {
        double seconds = Math.max(1e-9, elapsedNanos / 1e9);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-12s", task));
        double fraction = -1;
        if (timedNanos > 0) {
            fraction = last ? 1 : Math.min(1, elapsedNanos / (double) timedNanos);
        } else if (unit != null) {
            s.append(last || total == 0 ? String.format(Locale.ROOT, " %,d %s", done, unit)
                    : String.format(Locale.ROOT, " %,d / %,d %s", done, total, unit));
            if (total > 0) {
                // An expected count may be an estimate: never 100% before the end.
                fraction = last ? 1 : Math.min(0.999, done / (double) total);
            }
            if (!unit.equals("steps") && done > 0) {
                s.append(String.format(Locale.ROOT, "  %,.0f %s/s", done / seconds, unit));
            }
        } else if (total > 0) {
            fraction = last ? 1 : Math.min(0.999, done / (double) total);
        }
        if (fraction >= 0) {
            s.append(String.format(Locale.ROOT, "  %5.1f%%", 100 * fraction));
        }
        s.append(String.format(Locale.ROOT, "  %s", time(seconds)));
        if (!last && fraction > 0.01 && fraction < 1) {
            s.append("  ETA ").append(time(seconds * (1 - fraction) / fraction));
        }
        return s.toString();
    }

    private static String time(double seconds) {
        long s = Math.round(seconds);
        return seconds < 60 ? String.format(Locale.ROOT, "%.1f s", seconds)
                : s < 3600 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60)
                : String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60);
    }
}
