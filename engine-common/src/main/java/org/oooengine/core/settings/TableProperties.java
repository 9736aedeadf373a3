package org.oooengine.core.settings;

import static org.oooengine.core.settings.Scope.TABLE;

import java.util.List;

/** The engine's table properties: given in {@code TBLPROPERTIES}, or set by the engine on the tables it lists. */
public final class TableProperties {
    private static final Declarations DECLARED = new Declarations();

    public static final Setting<List<String>> PRIMARY_KEY = DECLARED.add(Setting.list("ooo.primary.key").scope(TABLE)
            .doc("The primary key's columns, comma-separated, instead of a PRIMARY KEY clause."));
    public static final Setting<List<String>> INDEXES = DECLARED.add(Setting.list("ooo.indexes").scope(TABLE)
            .doc("Columns that get a secondary index, comma-separated."));
    public static final Setting<String> LOAD_FORMAT = DECLARED.add(Setting.choice("ooo.load.format", "text", "orc")
            .scope(TABLE).defaultValue("text")
            .doc("How LOAD DATA reads files for the table (its `STORED AS`); its rows themselves live on the nodes."));
    public static final Setting<String> SPLIT_POLICY = DECLARED.add(Setting.choice("ooo.split.policy",
            "half", "rightmost", "prefix", "rate")
            .scope(TABLE).defaultValue("prefix")
            .doc("Where the leaves of the table's B+trees split when rows are written in place."));
    public static final Setting<Boolean> HTAP_COPIES = DECLARED.add(Setting.flag("ooo.htap.copies").scope(TABLE)
            .defaultValue(false)
            .doc("Transactional tables only: each node also keeps two analytical copies of its rows, fed by the "
                    + "table's log (HTAP); a session with `ooo.htap.reads=copies` reads them. Set it in CREATE TABLE "
                    + "or with ALTER TABLE ... SET TBLPROPERTIES; unsetting it drops the copies."));
    public static final Setting<Long> REPLICATION = DECLARED.add(Setting.count("ooo.replication").scope(TABLE)
            .range(1, 64).unit("copies").defaultText("the cluster's")
            .doc("How many nodes keep each partition of the table: the cluster's replication (`ooo cluster start "
                    + "--replication N` on a new cluster). A table in the nodes' stores may keep from 1 to the number "
                    + "of nodes instead (as `ooo load --replication N` loads), a transactional table 1; the engine "
                    + "records a transactional table's value at CREATE TABLE, and it stays for the table's life."));
    public static final Setting<String> FILE_FORMAT = DECLARED.add(Setting.choice("ooo.file.format", "text", "orc", "parquet")
            .scope(TABLE)
            .doc("Set by the engine: the format of a table held in files rather than on the nodes; its presence "
                    + "marks such a table."));
    public static final Setting<String> HMS_UNSUPPORTED = DECLARED.add(Setting.text("ooo.hms.unsupported").scope(TABLE)
            .doc("Set by the engine on a metastore table it cannot query: why."));
    public static final Setting<List<String>> FILE_PARTITION_KEYS = DECLARED.add(Setting.list("ooo.file.partition.keys")
            .scope(TABLE)
            .doc("Set by the engine on a partitioned table held in files (external or metastore): its partition "
                    + "keys, comma-separated, the table's last columns."));
    public static final Setting<String> STATISTICS = DECLARED.add(Setting.text("ooo.stats.").scope(TABLE)
            .doc("Set by `ANALYZE TABLE ... COMPUTE STATISTICS` on a table held in files: `ooo.stats.rows` and "
                    + "`ooo.stats.bytes`, its rows and its files' bytes when they were counted; with `FOR COLUMNS`, "
                    + "`ooo.stats.<column>.distinct` and `ooo.stats.<column>.nulls`. The planner takes a column's "
                    + "distinct values from them, and a text table's rows scaled by the bytes its files hold now."));

    private TableProperties() {
    }

    /** Every property declared here, in the order of the documentation. */
    public static List<Setting<?>> all() {
        return DECLARED.all();
    }
}
