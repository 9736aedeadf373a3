package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void aLineShowsCountShareRateTimeAndWhatIsLeft() {
        String line = Progress.line("lineitem", "rows", 250, 1000, 0, 2_000_000_000L, false);
        assertTrue(line.contains("250 / 1,000 rows"), line);
        assertTrue(line.contains("125 rows/s"), line);
        assertTrue(line.contains(" 25.0%"), line);
        assertTrue(line.contains("2.0 s"), line);
        assertTrue(line.contains("ETA 6.0 s"), line);
        String last = Progress.line("lineitem", "rows", 1000, 1000, 0, 8_000_000_000L, true);
        assertTrue(last.contains("1,000 rows") && last.contains("100.0%") && !last.contains("ETA"), last);
        String timed = Progress.line("TPC-C", null, 0, 0, 10_000_000_000L, 2_500_000_000L, false);
        assertTrue(timed.contains(" 25.0%") && timed.contains("ETA 7.5 s"), timed);
        String unknown = Progress.line("starting", null, 0, 0, 0, 90_000_000_000L, false);
        assertTrue(unknown.contains("1m30s") && !unknown.contains("%"), unknown);
    }

    @Test
    void drawnOnATerminalWithCarriageReturns() {
        StringWriter out = new StringWriter();
        try (Progress p = new Progress(new PrintWriter(out), true, false)) {
            p.start("joins", 4, "steps");
            p.advance();
            p.note("a phase begins");
        }
        assertTrue(out.toString().contains("\r  joins"), out.toString());
        assertTrue(out.toString().contains("a phase begins\n"), out.toString());
        assertTrue(out.toString().contains("100.0%"), out.toString());
    }

    @Test
    void offWhenNotATerminalExceptNotesAndSilentWhenQuiet() {
        StringWriter plain = new StringWriter();
        try (Progress p = new Progress(new PrintWriter(plain), false, false)) {
            p.startTimed("run", Duration.ofSeconds(1));
            p.note("note");
        }
        assertEquals("note\n", plain.toString());
        StringWriter quiet = new StringWriter();
        try (Progress p = new Progress(new PrintWriter(quiet), true, true)) {
            p.start("joins", 4, "steps");
            p.advance();
            p.note("note");
        }
        assertEquals("", quiet.toString());
    }

    @Test
    void quietIsTakenFromAnyLevelOfTheCommandLine() {
        picocli.CommandLine cmd = OooCli.commandLine();
        cmd.parseArgs("cluster", "status", "--cluster", "x", "--quiet");
        assertTrue(((OooCli) cmd.getCommand()).quiet);
        picocli.CommandLine again = OooCli.commandLine();
        again.parseArgs("--quiet", "cluster", "status", "--cluster", "x");
        assertTrue(((OooCli) again.getCommand()).quiet);
        assertFalse(((OooCli) OooCli.commandLine().getCommand()).quiet);
    }
}
