package org.oooengine.core.settings;

import static org.oooengine.core.settings.Scope.COORDINATOR;
import static org.oooengine.core.settings.Scope.SESSION;

import java.util.List;

/**
 * The settings a session may {@code SET}: how its statements run and what they may hold. The
 * limits among them are also coordinator settings, the operator's caps.
 */
public final class SessionSettings {
    private static final Declarations DECLARED = new Declarations();
    /** What the coordinator's value of a session limit is. */
    private static final String CAP = " The operator's value (a coordinator setting) is the most a session may set and "
            + "what a session that sets nothing gets.";

    public static final Setting<String> EXECUTION_MODE = DECLARED.add(Setting.choice("ooo.execution.mode", "daemon", "mapreduce")
            .scope(SESSION).defaultValue("daemon")
            .doc("Where statements run. `daemon`: scans and index joins on the node daemons, the rest on the "
                    + "coordinator. `mapreduce`: scans and join chains as MapReduce jobs, the rest on the coordinator "
                    + "over their output."));
    public static final Setting<String> JOIN_METHOD = DECLARED.add(Setting.choice("ooo.join.method", "auto", "index", "hash", "psmj")
            .scope(SESSION).defaultValue("auto")
            .doc("How a chain of inner joins driven by an indexed range runs. `auto`: the optimizer chooses from the "
                    + "calibrated cost models (without a calibration, the index join when the range selects at most 5% "
                    + "of the driving table). `index`: always the index join. `hash`: never; tables are scanned and "
                    + "hash-joined (daemon mode only). `psmj`: PSMJ jobs, one per join (mapreduce mode only). A value "
                    + "the current mode cannot run is refused when set."));
    public static final Setting<Long> JOIN_BROADCAST_MAX_BYTES = DECLARED.add(Setting.size("ooo.join.broadcast-max-bytes")
            .scope(SESSION).defaultValue(8L << 20)
            .doc("The most a join side is estimated to send to every node for the join to run there (the rows its "
                    + "filters are taken to keep times the stored bytes of the columns read of them); 0: never broadcast."));
    public static final Setting<Long> JOIN_BUILD_MAX_BYTES = DECLARED.add(Setting.size("ooo.join.build-max-bytes")
            .scope(SESSION).defaultValue(Long.MAX_VALUE).defaultText("no bound")
            .doc("The most a hash table a node builds from its own partition or from rows shuffled to it may take, "
                    + "per node, as estimated; beyond it such a join runs on the coordinator; 0: all do. By default no "
                    + "bound, since a node's hash join spills what does not fit in its memory."));
    public static final Setting<String> HTAP_READS = DECLARED.add(Setting.choice("ooo.htap.reads", "transactional", "copies")
            .scope(SESSION).defaultValue("transactional")
            .doc("Where queries read transactional tables that have analytical copies (`ooo.htap.copies`). "
                    + "`transactional`: the table itself, in a transaction of the query's own (serializable; "
                    + "a query may conflict with writers). `copies`: each node's analytical copy as of its last "
                    + "switch (at most about a second old by default; whole transactions, never conflicting; each "
                    + "node's copy switches on its own). Statements that write read the table itself whatever this says."));
    public static final Setting<String> FILES_SCHEDULING = DECLARED.add(Setting.choice("ooo.files.scheduling", "stealing",
                    "local", "shared")
            .scope(SESSION).defaultValue("stealing")
            .doc("How the nodes share out the splits of a table held in files (seed 003's patterns). `stealing`: each "
                    + "node reads the splits assigned to it (those whose blocks its host holds first), then takes "
                    + "splits not yet started from the nodes still reading; `local`: each only its own; `shared`: all "
                    + "take the next split in the scan's order from one queue. A scan whose nodes each read a slice "
                    + "of a key's values, or whose splits a join routes rows to, reads each split where it is "
                    + "assigned whatever this says."));
    public static final Setting<Boolean> FILES_CACHE = DECLARED.add(Setting.flag("ooo.files.cache")
            .scope(SESSION).defaultValue(true)
            .doc("Whether the nodes read the splits of tables held in files from their caches of them where they keep "
                    + "the columns read (transcoded into the engine's columnar format, while the file is unchanged), and "
                    + "keep what they read from the files there (`ooo node --file-cache`). `false`: every split from its "
                    + "file, nothing kept: what reading the files costs."));
    public static final Setting<String> FILES_SKEW = DECLARED.add(Setting.text("ooo.files.skew")
            .scope(SESSION).defaultValue("")
            .doc("For measurement: nodes given more of a scan's splits than the others when they are assigned, as "
                    + "`node=factor` pairs, comma separated (e.g. `n1=2`: n1 gets twice the bytes of each other node)."));
    public static final Setting<Boolean> AGGREGATE_MERGE_ON_NODES = DECLARED.add(Setting.flag("ooo.aggregate.merge-on-nodes")
            .scope(SESSION).defaultValue(true)
            .doc("Whether a GROUP BY with keys merges its groups on the nodes (shuffled by key) or on the coordinator."));
    public static final Setting<Boolean> AGGREGATE_CASCADE_GROUPING_SETS = DECLARED.add(
            Setting.flag("ooo.aggregate.cascade-grouping-sets").scope(SESSION).defaultValue(true)
            .doc("Whether the nodes group ROLLUP and other grouping sets that nest set by set: the finest set "
                    + "from the rows, each coarser one from the groups of the set before, rather than every copy of "
                    + "every row."));
    public static final Setting<Long> AGGREGATE_PARTIAL_SKIP_PERCENT = DECLARED.add(Setting.count("ooo.aggregate.partial-skip-percent")
            .scope(SESSION).unit("percent").range(0, 100).defaultValue(90L)
            .doc("When a node's partial GROUP BY has made more groups than this percentage of the first 100,000 rows "
                    + "it grouped, it stops grouping and sends each further row on as a group of its own: grouping that "
                    + "barely reduces the rows only costs time before they are merged. EXPLAIN ANALYZE shows the rows "
                    + "sent on so. 100: never. A node dropping a DISTINCT's repeats early stops looking past the same "
                    + "share of new rows."));
    public static final Setting<Long> QUERY_MAX_MEMORY_PER_NODE = DECLARED.add(Setting.size("ooo.query.max-memory-per-node")
            .scope(SESSION, COORDINATOR).defaultValue(0L)
            .defaultText("0: the operator's cap, else each node's own (`ooo node --query-max-memory`, half its heap)")
            .doc("What a statement's operators may hold on each node as they run, measured as they go. At most the "
                    + "operator's cap and each node's own; 0: the default." + CAP));
    public static final Setting<Long> QUERY_MAX_MEMORY = DECLARED.add(Setting.size("ooo.query.max-memory")
            .scope(SESSION, COORDINATOR).defaultValue(0L)
            .defaultText("0: the operator's cap, else a quarter of the coordinator's heap")
            .doc("What a statement's operators may hold on the coordinator as they run; 0: the default." + CAP));
    public static final Setting<Long> SPILL_MAX_BYTES = DECLARED.add(Setting.size("ooo.spill.max-bytes")
            .scope(SESSION, COORDINATOR).defaultValue(0L)
            .defaultText("0: the operator's cap, else 16g")
            .doc("What a statement's operators may have in spill files at a time on each node and on the "
                    + "coordinator; past it the statement fails with SQLSTATE 53100. 0: the default." + CAP));
    public static final Setting<Long> TRANSACTION_ATTEMPTS = DECLARED.add(Setting.count("ooo.transaction.attempts")
            .scope(SESSION, COORDINATOR).unit("attempts").range(1, 100).defaultValue(5L)
            .defaultText("5, or the operator's cap if lower")
            .doc("How many times in all a statement on transactional tables runs while it keeps conflicting with "
                    + "concurrent ones before it fails with SQLSTATE 40001. `1` hands every conflict to the client at "
                    + "once, for applications that retry themselves." + CAP));

    /** The most reducers a session may ask for: Hive's own default bound ({@code hive.exec.reducers.max}). */
    public static final int MAX_REDUCES = 1009;
    public static final Setting<Long> MAPREDUCE_JOB_REDUCES = DECLARED.add(Setting.count("mapreduce.job.reduces")
            .scope(SESSION, COORDINATOR).unit("reducers").range(0, MAX_REDUCES).defaultText("Hadoop's, or the coordinator's")
            .doc("In mapreduce mode, the reducers of the session's jobs that have any. At most " + MAX_REDUCES
                    + ", Hive's own bound: each reducer is a task with its buffers."));
    public static final Setting<Boolean> MAPREDUCE_UBERTASK = DECLARED.add(hadoopFlag("mapreduce.job.ubertask.enable",
            "In mapreduce mode, whether a small job runs its tasks in the job's own JVM."));
    public static final Setting<Boolean> MAPREDUCE_MAP_SPECULATIVE = DECLARED.add(hadoopFlag("mapreduce.map.speculative",
            "In mapreduce mode, whether slow map tasks run a second attempt."));
    public static final Setting<Boolean> MAPREDUCE_REDUCE_SPECULATIVE = DECLARED.add(hadoopFlag("mapreduce.reduce.speculative",
            "In mapreduce mode, whether slow reduce tasks run a second attempt."));
    public static final Setting<Boolean> MAPREDUCE_MAP_OUTPUT_COMPRESS = DECLARED.add(hadoopFlag("mapreduce.map.output.compress",
            "In mapreduce mode, whether map output is compressed before the shuffle."));
    public static final Setting<Long> MAPREDUCE_SPLIT_MINSIZE = DECLARED.add(Setting.size("mapreduce.input.fileinputformat.split.minsize")
            .scope(SESSION, COORDINATOR).defaultText("Hadoop's, or the coordinator's")
            .doc("In mapreduce mode, the least a split of a file table's files holds. Every other Hadoop setting "
                    + "(`mapreduce.*`, `mapred.*`, `yarn.*`, `fs.*`, `dfs.*`, `hadoop.*`) is a coordinator setting, "
                    + "and `SET` of one is refused."));

    private SessionSettings() {
    }

    /** Every setting declared here, in the order of the documentation. */
    public static List<Setting<?>> all() {
        return DECLARED.all();
    }

    private static Setting.Builder<Boolean> hadoopFlag(String name, String doc) {
        return Setting.flag(name).scope(SESSION, COORDINATOR).defaultText("Hadoop's, or the coordinator's").doc(doc);
    }
}
