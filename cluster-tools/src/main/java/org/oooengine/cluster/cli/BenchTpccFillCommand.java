package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
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

    @Option(names = "--dir", required = true, paramLabel = "<dir>", description = "directory for the database's files")
    Path dir;

    @Option(names = "--warehouses", defaultValue = "1", paramLabel = "W", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--transactions", defaultValue = "10000", paramLabel = "N",
            description = "transactions of the standard mix (default: ${DEFAULT-VALUE})")
    long transactions;

    @Option(names = "--policy", required = true, paramLabel = "half|rightmost|prefix", description = "leaf split policy")
    String policy;

    @Option(names = "--buffer-pool-mb", defaultValue = "16", paramLabel = "M",
            description = "buffer pool every tree reads through, MiB (default: ${DEFAULT-VALUE})")
    int bufferPoolMb;

    @Option(names = "--flush-every", defaultValue = "100", paramLabel = "K",
            description = "transactions between flushes of the written pages (default: ${DEFAULT-VALUE})")
    int flushEvery;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        SplitPolicy split;
        try {
            split = SplitPolicy.named(policy);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (warehouses < 1 || transactions < 1 || bufferPoolMb < 1 || flushEvery < 1) {
            throw new ParameterException(spec.commandLine(),
                    "--warehouses, --transactions, --buffer-pool-mb and --flush-every must be positive");
        }
        PrintWriter err = spec.commandLine().getErr();
        err.printf("TPC-C, %d warehouse(s), %,d transactions, split policy %s, %d MiB buffer pool%n", warehouses,
                transactions, split.name().toLowerCase(Locale.ROOT), bufferPoolMb);
        err.flush();
        TpccFill.Result r = TpccFill.run(dir, warehouses, transactions, split, bufferPoolMb, flushEvery, n -> {
            err.printf("  %,d transactions%n", n);
            err.flush();
        });
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> report = new java.util.LinkedHashMap<>();
            report.put("policy", r.policy());
            report.put("warehouses", r.warehouses());
            report.put("transactions", r.transactions());
            report.put("order_fill", r.orderFill());
            report.put("order_fill_loaded", r.orderFillLoaded());
            report.put("order_pages", r.orderPages());
            report.put("order_pages_loaded", r.orderPagesLoaded());
            report.put("new_order_fill", r.newOrderFill());
            report.put("order_line_fill", r.orderLineFill());
            report.put("deliveries", r.deliveries());
            report.put("delivery_page_reads", r.deliveryPageReads());
            report.put("delivery_pool_misses", r.deliveryPoolMisses());
            report.put("tpm", r.tpm());
            report.put("seconds", r.seconds());
            report.put("order_fill_histogram", r.fillHistogram());
            out.println(Json.line(report));
        } else {
            out.printf(Locale.ROOT, "policy %s: order leaves %.1f%% full (%.1f%% loaded), %,d pages (%,d loaded); new_order "
                            + "%.1f%%, order_line %.1f%%; Delivery read %,d pages (%,d pool misses) in %,d deliveries; "
                            + "%.0f new orders/min%n", r.policy(), 100 * r.orderFill(), 100 * r.orderFillLoaded(),
                    r.orderPages(), r.orderPagesLoaded(), 100 * r.newOrderFill(), 100 * r.orderLineFill(),
                    r.deliveryPageReads(), r.deliveryPoolMisses(), r.deliveries(), r.tpm());
        }
        return 0;
    }
}
