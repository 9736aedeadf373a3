package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.oooengine.core.tpch.TpchLoader;

/**
 * One progress line per table on stderr. On a terminal the line is redrawn in place; otherwise
 * (logs, CI) a line is printed every few seconds, so the output stays readable there.
 */
final class LoadProgress implements TpchLoader.Progress {
    private static final long REDRAW_NANOS = 100_000_000L;
    private static final long LOG_LINE_NANOS = 2_000_000_000L;

    private final PrintWriter err;
    private final boolean terminal;
    private String table;
    private long tableStart;
    private long lastPrint;
    private long done;
    private long expected;
    private int lastWidth;

    LoadProgress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    @Override
    public synchronized void update(String table, long rowsDone, long rowsExpected) {
        long now = System.nanoTime();
        if (!table.equals(this.table)) {
            endTable(now);
            this.table = table;
            tableStart = now;
            lastPrint = now;
            if (terminal) {
                print(now, false);
            }
        }
        done = rowsDone;
        expected = rowsExpected;
        if (now - lastPrint >= (terminal ? REDRAW_NANOS : LOG_LINE_NANOS)) {
            print(now, false);
        }
    }

    /** Completes the last table's line; a table ends when the next one starts or the load returns. */
    synchronized void finish() {
        endTable(System.nanoTime());
    }

    /** Ends a half-drawn line so that an error message starts on a line of its own. */
    synchronized void abandon() {
        if (terminal && table != null) {
            err.println();
            err.flush();
        }
        table = null;
    }

    private void endTable(long now) {
        if (table != null) {
            print(now, true);
            table = null;
        }
    }

    private void print(long now, boolean last) {
        double seconds = Math.max(1e-9, (now - tableStart) / 1e9);
        // The expected lineitem count is approximate, so never show more than 100% before the end.
        double percent = last ? 100 : Math.min(99.9, expected > 0 ? 100.0 * done / expected : 0);
        String rows = last ? String.format(Locale.ROOT, "%,d rows", done)
                : String.format(Locale.ROOT, "%,d / %,d rows", done, expected);
        String line = String.format(Locale.ROOT, "  %-9s %-26s %5.1f%%  %,10.0f rows/s  %6.1f s",
                table, rows, percent, done / seconds, seconds);
        if (terminal) {
            err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
            lastWidth = line.length();
            if (last) {
                err.println();
                lastWidth = 0;
            }
        } else {
            err.println(line);
        }
        err.flush();
        lastPrint = now;
    }
}
