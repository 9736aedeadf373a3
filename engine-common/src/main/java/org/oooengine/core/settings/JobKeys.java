package org.oooengine.core.settings;

import static org.oooengine.core.settings.Scope.JOB;

import java.util.List;

/**
 * The keys the engine writes into the configuration of its MapReduce jobs, for their input
 * formats and tasks. Keys ending in a dot are families: the name of a table follows.
 */
public final class JobKeys {
    private static final Declarations DECLARED = new Declarations();

    public static final Setting<String> CLUSTER_SPEC = key("ooo.cluster.spec",
            "The cluster the job reads (its cluster.json), so tasks on any host can join it.");
    public static final Setting<String> CLUSTER_SECRET = key("ooo.cluster.secret",
            "The cluster's secret: a key of the job's credentials, never of its configuration.");
    public static final Setting<String> CLUSTER_SECRET_SHA256 = key("ooo.cluster.secret.sha256",
            "The SHA-256 of the cluster's secret, for a task of the local job runner that started before its credentials.");
    public static final Setting<Long> CLUSTER_TIMEOUT_MS = DECLARED.add(Setting.count("ooo.cluster.timeout.ms").scope(JOB)
            .unit("milliseconds").defaultValue(60_000L)
            .doc("How long a task waits for a node's answer, or a stream's next chunk, before failing."));
    public static final Setting<String> SCAN_TABLES = key("ooo.scan.tables", "The tables a scan job reads from the nodes.");
    public static final Setting<String> FILES_TABLES = key("ooo.files.tables", "The file tables a job reads.");
    public static final Setting<String> TABLE_FILES = key("ooo.table.files.", "A file table's files.");
    public static final Setting<String> TABLE_FORMAT = key("ooo.table.format.", "A file table's format.");
    public static final Setting<String> TABLE_COLUMNS = key("ooo.table.columns.", "A file table's column names.");
    public static final Setting<String> TABLE_TYPES = key("ooo.table.types.", "A file table's column types.");
    public static final Setting<String> TABLE_PARTITION_TYPES = key("ooo.table.partition.types.",
            "A partitioned file table's partition column types.");
    public static final Setting<String> TABLE_PARTITION_VALUE = key("ooo.table.partition.value.",
            "A partition's values of its partition columns.");
    public static final Setting<String> TABLE_TEXT_DELIMITER_CODE = key("ooo.table.text.delimiter.code.",
            "A text table's field delimiter, as a character code.");
    public static final Setting<String> TABLE_TEXT_NULL_QUOTED = key("ooo.table.text.null.quoted.",
            "A text table's text for NULL, quoted.");
    public static final Setting<String> JOIN_SPEC = key("ooo.join.spec", "The join chain an index-join job runs.");
    public static final Setting<String> JOIN_MODE = key("ooo.join.mode", "How an index-join job's fragments run (OOO or in order).");
    public static final Setting<Long> JOIN_BUDGET = DECLARED.add(Setting.count("ooo.join.budget").scope(JOB)
            .range(1, Integer.MAX_VALUE).defaultValue(128L)
            .doc("The requests an out-of-order index-join task keeps in flight."));
    public static final Setting<String> PSMJ_STAGE = key("ooo.psmj.stage", "Which stage of a PSMJ plan a job runs.");
    public static final Setting<String> PSMJ_STAGE_TABLES = key("ooo.psmj.stage.tables", "The tables a PSMJ stage job reads.");

    private JobKeys() {
    }

    /** Every key declared here, in the order of the documentation. */
    public static List<Setting<?>> all() {
        return DECLARED.all();
    }

    private static Setting<String> key(String name, String doc) {
        return DECLARED.add(Setting.text(name).scope(JOB).doc(doc));
    }
}
