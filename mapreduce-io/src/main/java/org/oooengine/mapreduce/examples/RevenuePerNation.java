package org.oooengine.mapreduce.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.types.DataType;
import org.oooengine.mapreduce.ClusterJobConf;
import org.oooengine.mapreduce.JobProgress;
import org.oooengine.mapreduce.JoinJobs;
import org.oooengine.mapreduce.OooJoinInputFormat;
import org.oooengine.mapreduce.RowWritable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * An example user job: revenue per nation, {@code sum(l_extendedprice * (1 - l_discount))}, over
 * the orders whose total price lies in a range. Its mapper receives orders ⋈ lineitem ⋈ customer
 * ⋈ nation records and its reducer sums per nation. The records come either straight from the
 * cluster's out-of-order join ({@code --input ooo}: {@link OooJoinInputFormat}) or from a PSMJ
 * chain run first ({@code --input psmj}), so the same mapper and reducer compare the two.
 * Output: text lines {@code nation<TAB>revenue}, nations in name order.
 *
 * <pre>
 * hadoop jar ... org.oooengine.mapreduce.examples.RevenuePerNation --cluster /data/c4 \
 *     --low 100000 --high 110000 --out /tmp/revenue [--input ooo|psmj]
 * </pre>
 */
public final class RevenuePerNation extends Configured implements Tool {
    /** TPC-H's money columns, o_totalprice, l_extendedprice and l_discount alike. */
    private static final DataType PRICE = DataType.decimal(15, 2);
    /** Revenue travels as a long of 1/10,000 units: prices and discounts have two decimals each, so it is exact. */
    static final int REVENUE_SCALE = 2 * 2;
    private static final long ONE = 100; // 1.00 as a DECIMAL(15,2)

    /** Where the joined records come from. */
    public enum Input { OOO, PSMJ }

    @Command(name = "revenue-per-nation", mixinStandardHelpOptions = true,
            description = "Revenue per nation for the orders whose o_totalprice lies in [low, high], as a MapReduce job.")
    static final class Options implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "the cluster holding TPC-H")
        Path cluster;

        @Option(names = "--low", required = true, paramLabel = "<price>", description = "lowest o_totalprice")
        BigDecimal low;

        @Option(names = "--high", required = true, paramLabel = "<price>", description = "highest o_totalprice")
        BigDecimal high;

        @Option(names = "--out", required = true, paramLabel = "<path>", description = "output directory (local path or hdfs://)")
        String out;

        @Option(names = "--input", defaultValue = "ooo", paramLabel = "ooo|psmj",
                description = "join out of order in the input format, or by a PSMJ chain first (default: ${DEFAULT-VALUE})")
        Input input;

        @Option(names = "--reducers", defaultValue = "1", paramLabel = "N", description = "reduce tasks (default: ${DEFAULT-VALUE})")
        int reducers;

        Configuration conf;
        JobProgress progress = JobProgress.NONE;
        Result result;

        @Override
        public Integer call() throws Exception {
            if (low.compareTo(high) > 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--low " + low + " is above --high " + high);
            }
            if (reducers < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--reducers must be at least 1, got " + reducers);
            }
            result = run(conf, cluster, priceRange(low, high), input, reducers, new org.apache.hadoop.fs.Path(out), progress);
            List<String> lines = lines(conf, result.output());
            lines.forEach(spec.commandLine().getOut()::println);
            spec.commandLine().getOut().flush();
            spec.commandLine().getErr().printf(Locale.ROOT, "revenue per nation: %d nations in %.2f s (%s input), written to %s%n",
                    lines.size(), result.seconds(), input.name().toLowerCase(Locale.ROOT), result.output());
            return 0;
        }
    }

    /** A finished run: job wall seconds (joins included) and where the result is. */
    public record Result(double seconds, org.apache.hadoop.fs.Path output) {
    }

    /** The range {@code low <= o_totalprice <= high} in the engine's values (DECIMAL(15,2) as scaled longs). */
    public static ColumnRange priceRange(BigDecimal low, BigDecimal high) {
        return new ColumnRange("o_totalprice", PRICE.parseValue(low.toPlainString()), PRICE.parseValue(high.toPlainString()));
    }

    /** The join the mapper consumes: orders in range, their lineitems, their customer, its nation. */
    public static JoinSpec join(ColumnRange priceRange) {
        return new JoinSpec("orders", priceRange, List.of(
                new JoinSpec.Probe("orders.o_orderkey", "lineitem", "l_orderkey"),
                new JoinSpec.Probe("orders.o_custkey", "customer", "c_custkey"),
                new JoinSpec.Probe("customer.c_nationkey", "nation", "n_nationkey")),
                List.of("nation.n_name", "lineitem.l_extendedprice", "lineitem.l_discount"));
    }

    @Override
    public int run(String[] args) {
        return commandLine(getConf()).execute(args);
    }

    /** The job's command line over {@code conf}: usage errors exit 2, failures print one error line and exit 1. */
    public static CommandLine commandLine(Configuration conf) {
        return commandLine(conf, JobProgress.NONE);
    }

    /** {@link #commandLine(Configuration)}, telling {@code progress} how far the job got. */
    public static CommandLine commandLine(Configuration conf, JobProgress progress) {
        Options options = new Options();
        options.conf = conf;
        options.progress = progress;
        return new CommandLine(options).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((e, cl, parsed) -> {
                    cl.getErr().println("error: " + e.getMessage());
                    return 1;
                });
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new Configuration(), new RevenuePerNation(), args));
    }

    /** Runs the job (and for {@link Input#PSMJ} the join chain before it) and waits for it. */
    public static Result run(Configuration conf, Path clusterDir, ColumnRange priceRange, Input input, int reducers,
                             org.apache.hadoop.fs.Path output) throws IOException, InterruptedException {
        return run(conf, clusterDir, priceRange, input, reducers, output, JobProgress.NONE);
    }

    /** {@link #run(Configuration, Path, ColumnRange, Input, int, org.apache.hadoop.fs.Path)}, telling {@code progress} how far the job got. */
    public static Result run(Configuration conf, Path clusterDir, ColumnRange priceRange, Input input, int reducers,
                             org.apache.hadoop.fs.Path output, JobProgress progress) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        JoinSpec spec = join(priceRange);
        Job job = Job.getInstance(conf, "revenue per nation (" + input.name().toLowerCase(Locale.ROOT) + " input)");
        job.setJarByClass(RevenuePerNation.class);
        ClusterJobConf.setCluster(job, clusterDir);
        org.apache.hadoop.fs.Path joined = null;
        if (input == Input.OOO) {
            OooJoinInputFormat.setJoin(job, spec);
            job.setInputFormatClass(OooJoinInputFormat.class);
        } else {
            joined = new org.apache.hadoop.fs.Path(output.getParent(), output.getName() + ".psmj");
            JoinJobs.psmj(conf, ClusterSpec.read(clusterDir), ClusterSpec.readSecret(clusterDir), spec, reducers, joined);
            job.setInputFormatClass(SequenceFileInputFormat.class);
            FileInputFormat.setInputPaths(job, joined);
        }
        job.setMapperClass(RevenueMapper.class);
        job.setCombinerClass(LongSumReducer.class);
        job.setReducerClass(NationTotalReducer.class);
        job.setNumReduceTasks(reducers);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(LongWritable.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(Text.class);
        FileOutputFormat.setOutputPath(job, output);
        try {
            if (!JobProgress.await(job, progress)) {
                throw new IOException("job '" + job.getJobName() + "' failed: " + job.getStatus().getFailureInfo());
            }
        } catch (ClassNotFoundException e) {
            throw new IOException("job '" + job.getJobName() + "' could not load a class: " + e.getMessage(), e);
        } finally {
            if (joined != null) {
                joined.getFileSystem(conf).delete(joined, true);
            }
        }
        return new Result((System.nanoTime() - t0) / 1e9, output);
    }

    /** The result lines ({@code nation<TAB>revenue}) of a finished run, in reducer and then key order. */
    public static List<String> lines(Configuration conf, org.apache.hadoop.fs.Path output) throws IOException {
        FileSystem fs = output.getFileSystem(conf);
        FileStatus[] parts = fs.listStatus(output, p -> p.getName().startsWith("part-"));
        Arrays.sort(parts);
        List<String> out = new ArrayList<>();
        for (FileStatus part : parts) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
                r.lines().forEach(out::add);
            }
        }
        return out;
    }

    /** (n_name, l_extendedprice, l_discount) to (nation, revenue in 1/10,000). */
    public static final class RevenueMapper extends Mapper<NullWritable, RowWritable, Text, LongWritable> {
        private final Text nation = new Text();
        private final LongWritable revenue = new LongWritable();

        @Override
        protected void map(NullWritable key, RowWritable row, Context context) throws IOException, InterruptedException {
            long price = (Long) row.get(1);
            long discount = (Long) row.get(2);
            nation.set((String) row.get(0));
            revenue.set(Math.multiplyExact(price, ONE - discount));
            context.write(nation, revenue);
        }
    }

    /** Sums a nation's revenue and writes it as a decimal. */
    public static final class NationTotalReducer extends Reducer<Text, LongWritable, Text, Text> {
        private final Text total = new Text();

        @Override
        protected void reduce(Text nation, Iterable<LongWritable> values, Context context)
                throws IOException, InterruptedException {
            long sum = 0;
            for (LongWritable v : values) {
                sum = Math.addExact(sum, v.get());
            }
            total.set(BigDecimal.valueOf(sum, REVENUE_SCALE).toPlainString());
            context.write(nation, total);
        }
    }
}
