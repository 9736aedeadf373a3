package org.oooengine.cluster.bench.chbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One phase of a CH-benCHmark run: the shares of OLTP and OLAP in the workload, in percent (the
 * seed's 50:50, 70:30, 30:70). Of the most terminals and query clients a run may use, a phase runs
 * its shares (rounded up, at least one of a kind whose share is above 0).
 */
public record ChPhase(int oltpShare, int olapShare) {
    public ChPhase {
        if (oltpShare < 0 || olapShare < 0 || oltpShare + olapShare != 100) {
            throw new IllegalArgumentException("a phase is OLTP:OLAP in percent adding up to 100, not "
                    + oltpShare + ":" + olapShare);
        }
    }

    /** Phases written {@code 50:50,70:30,30:70}. */
    public static List<ChPhase> parse(String text) {
        List<ChPhase> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] shares = part.strip().split(":");
            try {
                if (shares.length != 2) {
                    throw new NumberFormatException();
                }
                out.add(new ChPhase(Integer.parseInt(shares[0].strip()), Integer.parseInt(shares[1].strip())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part.strip() + "' is not a phase OLTP:OLAP such as 70:30");
            }
        }
        return out;
    }

    public int terminals(int most) {
        return share(most, oltpShare);
    }

    public int queryClients(int most) {
        return share(most, olapShare);
    }

    private static int share(int most, int percent) {
        return percent == 0 ? 0 : Math.max(1, (most * percent + 99) / 100);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d:%d", oltpShare, olapShare);
    }
}
