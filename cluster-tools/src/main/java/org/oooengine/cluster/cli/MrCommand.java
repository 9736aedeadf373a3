package org.oooengine.cluster.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.oooengine.mapreduce.JoinJobs;
import org.oooengine.mapreduce.examples.RevenuePerNation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code ooo mr}: MapReduce jobs over the cluster, on Hadoop's local job runner. */
@Command(name = "mr", mixinStandardHelpOptions = true, description = "Run MapReduce jobs whose input is the cluster.",
        subcommands = {MrCommand.Run.class})
final class MrCommand {
    /**
     * The jobs {@code ooo mr run} knows, by name, as their command lines over a Hadoop configuration;
     * each is also a Hadoop {@code Tool}, runnable with {@code hadoop jar}.
     */
    static final Map<String, Function<Configuration, CommandLine>> JOBS = new LinkedHashMap<>();

    static {
        JOBS.put("revenue-per-nation", RevenuePerNation::commandLine);
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Run a MapReduce job on Hadoop's local job runner (or the framework the Hadoop "
                    + "configuration on the class path names); the arguments after the job's name are the job's own.",
                    "Jobs: revenue-per-nation --cluster <dir> --low <price> --high <price> --out <path> "
                            + "[--input ooo|psmj] [--reducers N]"})
    static final class Run implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<job>", description = "the job to run: ${COMPLETION-CANDIDATES}",
                completionCandidates = JobNames.class)
        String job;

        @Unmatched
        List<String> jobArgs = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            Function<Configuration, CommandLine> jobCommand = JOBS.get(job);
            if (jobCommand == null) {
                throw new ParameterException(spec.commandLine(), "unknown job '" + job + "'; jobs: " + JOBS.keySet());
            }
            Configuration conf = JoinJobs.localRunner(new Configuration(), Runtime.getRuntime().availableProcessors());
            // ToolRunner takes Hadoop's generic options (-D key=value, -conf file) as 'hadoop jar' does.
            return ToolRunner.run(conf, new JobTool(jobCommand, spec.commandLine()), jobArgs.toArray(String[]::new));
        }
    }

    /** A job's command line as a Hadoop Tool, printing where this command prints. */
    private static final class JobTool extends Configured implements Tool {
        private final Function<Configuration, CommandLine> jobCommand;
        private final CommandLine parent;

        JobTool(Function<Configuration, CommandLine> jobCommand, CommandLine parent) {
            this.jobCommand = jobCommand;
            this.parent = parent;
        }

        @Override
        public int run(String[] args) {
            return jobCommand.apply(getConf()).setOut(parent.getOut()).setErr(parent.getErr()).execute(args);
        }
    }

    static final class JobNames extends ArrayList<String> {
        JobNames() {
            super(JOBS.keySet());
        }
    }
}
