package org.oooengine.core.settings;

/** Where a setting is given, and so for whom it holds. */
public enum Scope {
    /** A session's {@code SET key=value} (or the JDBC URL's settings): that session's statements. */
    SESSION("Session settings", "Set per session with `SET key=value`, or in the JDBC URL (`...;?key=value`)."),
    /**
     * The operator's, for every session: {@code <cluster-dir>/coordinator.properties} or
     * {@code ooo server --conf key=value}. A session setting that is also the coordinator's is a cap:
     * the operator's value is the most a session may set and what a session that sets nothing gets.
     */
    COORDINATOR("Coordinator settings", "The operator's, for every session: `<cluster-dir>/coordinator.properties` "
            + "(Java properties) or `ooo server --conf key=value`. A misspelt or malformed one is refused at start."),
    /** A table's property ({@code TBLPROPERTIES}), given at CREATE TABLE or set by the engine on the tables it lists. */
    TABLE("Table properties", "Given in `CREATE TABLE ... TBLPROPERTIES ('key'='value')`, or set by the engine on the "
            + "tables it lists."),
    /** A key the engine writes into the configuration of the MapReduce jobs it submits, for their tasks. */
    JOB("MapReduce job keys", "Written by the engine into the configuration of the MapReduce jobs it submits, "
            + "for their tasks to read; not for people to set.");

    private final String title;
    private final String description;

    Scope(String title, String description) {
        this.title = title;
        this.description = description;
    }

    /** The heading of this scope's section in docs/configuration.md. */
    public String title() {
        return title;
    }

    /** Where settings of this scope are given, as docs/configuration.md says it. */
    public String description() {
        return description;
    }
}
