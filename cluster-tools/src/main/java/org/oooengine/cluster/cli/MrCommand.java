package org.oooengine.cluster.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.oooengine.mapreduce.JobProgress;
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
    static final Map<String, BiFunction<Configuration, JobProgress, CommandLine>> JOBS = new LinkedHashMap<>();

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
            BiFunction<Configuration, JobProgress, CommandLine> jobCommand = JOBS.get(job);
            if (jobCommand == null) {
                throw new ParameterException(spec.commandLine(), "unknown job '" + job + "'; jobs: " + JOBS.keySet());
            }
            Configuration conf = JoinJobs.localRunner(new Configuration(), Runtime.getRuntime().availableProcessors());
            // ToolRunner takes Hadoop's generic options (-D key=value, -conf file) as 'hadoop jar' does.
            try (Progress progress = Progress.of(spec)) {
                return ToolRunner.run(conf, new JobTool(jobCommand, spec.commandLine(), progress(progress)),
                        jobArgs.toArray(String[]::new));
            }
        }

        /** A job's map and reduce progress as one line: reduce is the second half when the job has one. */
        static JobProgress progress(Progress progress) {
            return (name, map, reduce) -> {
                if (!name.equals(progress.task())) {
                    progress.start(name, 1000, null);
                }
                progress.update((long) (500 * (map + reduce)));
            };
        }
    }

    /** A job's command line as a Hadoop Tool, printing where this command prints. */
    private static final class JobTool extends Configured implements Tool {
        private final BiFunction<Configuration, JobProgress, CommandLine> jobCommand;
        private final CommandLine parent;
        private final JobProgress progress;

        JobTool(BiFunction<Configuration, JobProgress, CommandLine> jobCommand, CommandLine parent, JobProgress progress) {
            this.jobCommand = jobCommand;
            this.parent = parent;
            this.progress = progress;
        }

        @Override
        public int run(String[] args) {
            return jobCommand.apply(getConf(), progress).setOut(parent.getOut()).setErr(parent.getErr()).execute(args);
        }
    }

    static final class JobNames extends ArrayList<String> {
        JobNames() {
            super(JOBS.keySet());
        }
    }
}
