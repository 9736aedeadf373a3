package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.HtapConfig;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.htap.Freshness;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo cluster htap}: each node's HTAP mode, core-role slots and copies' freshness; sets the mode. */
@Command(name = "htap", mixinStandardHelpOptions = true,
        description = {"Show each node's HTAP mode, its core roles' slots, HTAL's last decision and the analytical "
                + "copies' freshness and lag by table; with --mode, run every node in that mode from now on (kept "
                + "across restarts)."})
final class ClusterHtapCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--cluster", "--dir"}, required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
    Path dir;

    @Option(names = "--mode", paramLabel = "copies|static|htal|no-shipping",
            description = "copies: roles unbounded, copies switching by freshness and at least every second (the "
                    + "default); static: fixed role slots, copies switching every --switch-every; htal: HTAL's balancer "
                    + "moving the slots, copies switching when less than beta fresh; no-shipping: copies never fed")
    String mode;

    @Mixin
    HtapModeOptions settings;

    @Option(names = "--json", description = "print one JSON object per node")
    boolean json;

    @Override
    public Integer call() {
        HtapConfig.Mode chosen = null;
        try {
            if (mode != null) {
                chosen = named(mode);
            } else {
                HtapModeOptions.given(spec.commandLine(), HtapModeOptions.FLAGS).ifPresent(flag -> {
                    throw new IllegalArgumentException(flag + " sets a mode's settings: give --mode with it");
                });
            }
            settings.config(HtapConfig.Mode.COPIES, HtapConfig.DEFAULT.switchEvery()); // checks the flags first
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try (ClusterSession session = ClusterSession.open(dir, "htap", NodeDaemon.DEFAULT_TIMEOUT)) {
            if (chosen != null) {
                TransactionalTables.htapMode(session.peers(), settings.config(chosen, HtapConfig.DEFAULT.switchEvery()));
            }
            print(TransactionalTables.copyStatus(session.peers()));
        }
        return ExitCodes.OK;
    }

    private void print(List<TransactionalTables.CopyStatus> nodes) {
        PrintWriter out = spec.commandLine().getOut();
        for (TransactionalTables.CopyStatus s : nodes) {
            HtapConfig c = s.htap().config();
            if (json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("node", s.node());
                o.put("mode", spelled(c.mode()));
                o.put("slots", slots(s));
                o.put("cores_shared", s.htap().coresShared());
                o.put("switch_every_s", c.switchEvery().toMillis() / 1000.0);
                o.put("trees_only", c.treesOnly());
                o.put("htal", c.parameters());
                o.put("decisions", s.htap().decisions());
                o.put("moves", s.htap().moves());
                o.put("last_decision", s.htap().lastDecision());
                o.put("switches", s.switches());
                o.put("owed_commits", s.owedCommits());
                o.put("delta_keys", s.deltaKeys());
                o.put("tables", s.tables());
                out.println(Json.line(o));
                continue;
            }
            out.printf(Locale.ROOT, "node %s: %s, %s, %d switches, %d commits owed to the applying copy, %d keys in the "
                            + "read copy's delta", s.node(), spelled(c.mode()), c.mode() == HtapConfig.Mode.COPIES
                            ? "roles unbounded" : String.format(Locale.ROOT, "slots %s of %.2f cores", slots(s), s.htap().coresShared()),
                    s.switches(), s.owedCommits(), s.deltaKeys());
            if (c.treesOnly()) {
                out.print(", queries read the trees only");
            }
            if (c.mode() == HtapConfig.Mode.HTAL) {
                out.printf(Locale.ROOT, ", %d decisions, %d moves; last: %s", s.htap().decisions(), s.htap().moves(),
                        s.htap().lastDecision());
            }
            out.println();
            for (Freshness f : s.tables()) {
                out.printf(Locale.ROOT, "  %-24s %12d rows %10d stale  freshness %.6f  lag %.3f s%n", f.table(), f.rows(),
                        f.staleRows(), f.rate(), f.lagSeconds());
            }
        }
        out.flush();
    }

    /** Each role's slots now, by the names --slots takes; none in the default mode, where roles are unbounded. */
    private static Map<String, Integer> slots(TransactionalTables.CopyStatus s) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (s.htap().mode() != HtapConfig.Mode.COPIES) {
            for (CoreRoles.Role role : CoreRoles.Role.values()) {
                out.put(role.name().toLowerCase(Locale.ROOT).replace('_', '-'), s.htap().slots().get(role));
            }
        }
        return out;
    }

    private static String spelled(HtapConfig.Mode m) {
        return m.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static HtapConfig.Mode named(String text) {
        for (HtapConfig.Mode m : HtapConfig.Mode.values()) {
            if (spelled(m).equals(text)) {
                return m;
            }
        }
        throw new IllegalArgumentException("--mode is one of copies, static, htal, no-shipping, not '" + text + "'");
    }
}
