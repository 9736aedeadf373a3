package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.tpcc.TpccFill;
import org.oooengine.core.storage.SplitPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench tpcc-fill}: seed 001's B+tree fill experiment under one split policy. */
@Command(name = "tpcc-fill", mixinStandardHelpOptions = true,
        description = {"Run TPC-C's transactions in place on one node's B+tree tables under a split policy and report "
                + "how full the order table's leaves end against their bulk load, and what Delivery reads.",
                "The database is loaded once per warehouse count into <dir>/loaded-<W> and copied to <dir>/run-<policy> "
                        + "for each run: every policy runs the same transactions on the same data."})
final class BenchTpccFillCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--scratch", "--dir"}, required = true, paramLabel = "<dir>", description = "scratch directory for the database's files")
    Path dir;

    @Option(names = "--warehouses", defaultValue = "1", paramLabel = "W", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--transactions", defaultValue = "10000", paramLabel = "N",
            description = "transactions of the standard mix (default: ${DEFAULT-VALUE})")
    long transactions;

    @Option(names = "--policy", required = true, paramLabel = "half|rightmost|prefix|rate", description = "leaf split policy")
    String policy;

    @Option(names = {"--buffer-pool", "--buffer-pool-mb"}, defaultValue = "16m", paramLabel = "SIZE", converter = Units.MiB.class,
            description = "buffer pool every tree reads through, whole MiB; a plain number is MiB (default: ${DEFAULT-VALUE})")
    long bufferPool;

    @Option(names = "--flush-every", defaultValue = "100", paramLabel = "K",
            description = "transactions between flushes of the written pages (default: ${DEFAULT-VALUE})")
    int flushEvery;

    @Option(names = "--samples", defaultValue = "10", paramLabel = "S",
            description = "times the order tables' fill is measured during the run (default: ${DEFAULT-VALUE})")
    int samples;

    @Option(names = "--reorganize", description = "after the run, let the deterioration monitor reorganize the order "
            + "tables' deteriorated key ranges while transactions go on, and report what it cost")
    boolean reorganize;

    @Option(names = "--reorganize-step-leaves", defaultValue = "64", paramLabel = "L",
            description = "leaves a reorganization step may take on (default: ${DEFAULT-VALUE})")
    int stepLeaves;

    @Option(names = "--reorganize-every", defaultValue = "10", paramLabel = "T",
            description = "transactions between reorganization steps (default: ${DEFAULT-VALUE})")
    int stepEvery;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    private static void putFill(Map<String, Object> report, String table, TpccFill.TableFill f) {
        report.put(table + "_fill", f.fill());
        report.put(table + "_fill_loaded", f.fillLoaded());
        report.put(table + "_pages", f.leaves());
        report.put(table + "_pages_loaded", f.leavesLoaded());
        report.put(table + "_fill_histogram", f.histogram());
    }

    @Override
    public Integer call() throws Exception {
        SplitPolicy split;
        try {
            split = SplitPolicy.named(policy);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        int bufferPoolMb = (int) Math.min(Integer.MAX_VALUE, bufferPool >> 20);
        if (warehouses < 1 || transactions < 1 || bufferPoolMb < 1 || flushEvery < 1 || samples < 1 || stepEvery < 1) {
            throw new ParameterException(spec.commandLine(), "--warehouses, --transactions, --buffer-pool (1m at least), "
                    + "--flush-every, --samples and --reorganize-every must be positive");
        }
        if (stepLeaves < 2) {
            throw new ParameterException(spec.commandLine(), "--reorganize-step-leaves must be at least 2");
        }
        TpccFill.ReorganizeOptions reorganizing = reorganize ? new TpccFill.ReorganizeOptions(stepLeaves, stepEvery) : null;
        TpccFill.Result r;
        try (Progress progress = Progress.of(spec)) {
            progress.note(String.format("TPC-C, %d warehouse(s), %,d transactions, split policy %s, %d MiB buffer pool",
                    warehouses, transactions, split.name().toLowerCase(Locale.ROOT), bufferPoolMb));
            progress.start("TPC-C", transactions, "transactions");
            r = TpccFill.run(dir, warehouses, transactions, split, bufferPoolMb, flushEvery, samples, reorganizing,
                    progress::update);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("policy", r.policy());
            report.put("warehouses", r.warehouses());
            report.put("transactions", r.transactions());
            report.put("buffer_pool_mb", bufferPoolMb);
            putFill(report, "order", r.orders());
            putFill(report, "new_order", r.newOrder());
            putFill(report, "order_line", r.orderLine());
            putFill(report, "orders_by_customer", r.ordersByCustomer());
            report.put("splits", r.splits());
            report.put("deliveries", r.deliveries());
            report.put("delivery_page_visits", r.deliveryPageVisits());
            report.put("delivery_page_reads", r.deliveryPageReads());
            report.put("delivery_pool_misses", r.deliveryPoolMisses());
            report.put("tpm", r.tpm());
            report.put("seconds", r.seconds());
            List<Map<String, Object>> overTime = new ArrayList<>();
            for (TpccFill.Sample sample : r.fillOverTime()) {
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("transactions", sample.transactions());
                point.put("order_fill", sample.orderFill());
                point.put("new_order_fill", sample.newOrderFill());
                point.put("order_line_fill", sample.orderLineFill());
                overTime.add(point);
            }
            report.put("fill_over_time", overTime);
            if (r.reorganization() != null) {
                TpccFill.Reorganization g = r.reorganization();
                Map<String, Object> reorg = new LinkedHashMap<>();
                reorg.put("transactions", g.transactions());
                reorg.put("seconds", g.seconds());
                reorg.put("tpm", g.tpm());
                reorg.put("steps", g.steps());
                reorg.put("leaves", g.leaves());
                reorg.put("entries_moved", g.entriesMoved());
                reorg.put("leaves_freed", g.leavesFreed());
                reorg.put("step_seconds", g.stepSeconds());
                putFill(reorg, "order", g.orders());
                putFill(reorg, "new_order", g.newOrder());
                putFill(reorg, "order_line", g.orderLine());
                report.put("reorganization", reorg);
            }
            out.println(Json.line(report));
        } else {
            for (String[] t : new String[][] {{"orders", "o"}, {"new_order", "n"}, {"order_line", "l"}}) {
                TpccFill.TableFill f = t[1].equals("o") ? r.orders() : t[1].equals("n") ? r.newOrder() : r.orderLine();
                out.printf(Locale.ROOT, "%-10s leaves %.1f%% full, %.1f%% of loaded (%.1f%%); %,d pages (%,d loaded)%n", t[0],
                        100 * f.fill(), 100 * f.ofLoaded(), 100 * f.fillLoaded(), f.leaves(), f.leavesLoaded());
            }
            if (r.reorganization() != null) {
                TpccFill.Reorganization g = r.reorganization();
                out.printf(Locale.ROOT, "reorganized in %,d steps (%.1f s of %.1f s, %,d transactions meanwhile at %.0f new "
                                + "orders/min): orders %.1f%%, new_order %.1f%%, order_line %.1f%% full%n", g.steps(),
                        g.stepSeconds(), g.seconds(), g.transactions(), g.tpm(), 100 * g.orders().fill(),
                        100 * g.newOrder().fill(), 100 * g.orderLine().fill());
            }
            out.printf(Locale.ROOT, "Delivery: %,d deliveries visited %,d pages and read %,d of the order tables' from disk "
                            + "(%,d pool misses in all); %.0f new orders/min%n", r.deliveries(), r.deliveryPageVisits(),
                    r.deliveryPageReads(), r.deliveryPoolMisses(), r.tpm());
        }
        return 0;
    }
}
