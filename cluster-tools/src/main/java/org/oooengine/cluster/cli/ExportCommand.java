package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.mapreduce.ClusterJobConf;
import org.oooengine.mapreduce.JobProgress;
import org.oooengine.mapreduce.JoinJobs;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.mapreduce.TableExport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo export}: a cluster's tables as plain files other engines read. */
@Command(name = "export", mixinStandardHelpOptions = true, description = "Write a cluster's tables as plain files.",
        subcommands = ExportCommand.Tpch.class)
final class ExportCommand {
    @Command(name = "tpch", mixinStandardHelpOptions = true,
            description = {"Write the TPC-H tables of a running cluster as files, one directory per table "
                    + "(<out>/<table>/part-m-NNNNN, one file per partition): Hive's default text format (fields "
                    + "separated by Ctrl-A, NULL as \\N) or ORC.",
                    "Runs as a MapReduce job (local job runner unless the Hadoop configuration names another), "
                            + "one map task per partition. The output may be a local path or an hdfs:// URI."})
    static final class Tpch implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "a running, loaded cluster")
        Path cluster;

        @Option(names = "--out", required = true, paramLabel = "<path>", description = "output directory; must not exist")
        String out;

        @Option(names = "--format", defaultValue = "text", paramLabel = "text|orc",
                description = "file format (default: ${DEFAULT-VALUE})")
        String format;

        @Option(names = "--tables", split = ",", paramLabel = "<t1,t2>", description = "tables to write (default: all eight)")
        List<String> tables;

        @Override
        public Integer call() throws Exception {
            FileFormat fileFormat;
            try {
                fileFormat = FileFormat.parse(format);
                if (fileFormat == FileFormat.PARQUET) {
                    throw new IllegalArgumentException("--format parquet is not written yet (text or orc)");
                }
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            List<String> all = TpchSchema.tables().stream().map(t -> t.getTableName()).toList();
            List<String> chosen = tables == null ? all : tables;
            for (String t : chosen) {
                if (!all.contains(t)) {
                    throw new ParameterException(spec.commandLine(), "unknown TPC-H table '" + t + "'; tables: " + all);
                }
            }
            int nodes = ClusterSpec.read(cluster).nodes().size();
            Job job = Job.getInstance(JoinJobs.localRunner(new Configuration(), nodes));
            ClusterJobConf.setCluster(job, cluster);
            org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(out);
            TableExport.configure(job, chosen, fileFormat, output);
            long t0 = System.nanoTime();
            boolean succeeded;
            try (Progress progress = Progress.of(spec)) {
                progress.start("exporting", 1000, null);
                // Map-only: one map task per partition.
                succeeded = JobProgress.await(job, (name, map, reduce) -> progress.update((long) (1000 * map)));
            }
            if (!succeeded) {
                throw new IllegalStateException("export failed: " + job.getStatus().getFailureInfo());
            }
            PrintWriter o = spec.commandLine().getOut();
            for (String t : chosen) {
                o.printf(Locale.ROOT, "%-9s %,12d rows  %s%n", t,
                        job.getCounters().findCounter(TableExport.COUNTERS, t).getValue(), new org.apache.hadoop.fs.Path(output, t));
            }
            o.printf(Locale.ROOT, "exported in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }
}
