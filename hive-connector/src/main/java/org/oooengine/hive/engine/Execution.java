package org.oooengine.hive.engine;

import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.analyze.QueryAnalyzer;
import org.oooengine.hive.sql.exec.Executor;
import org.oooengine.hive.sql.exec.IndexJoinRunner;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.hive.sql.plan.JoinChooser;
import org.oooengine.hive.sql.plan.RelNode;

/**
 * How one statement runs: where its tables are read, how its join chains are chosen and run,
 * and which jobs EXPLAIN names next to each operator (empty in daemon mode).
 */
record Execution(TableReader reader, IndexJoinRunner joinRunner, JoinChooser joinChooser, JobNames jobNames) {

    /** What an operator runs as jobs, as EXPLAIN appends it to the operator's line; empty for none. */
    interface JobNames {
        JobNames NONE = node -> "";

        String of(RelNode node);
    }

    QueryAnalyzer analyzer(Catalog catalog, String database) {
        return new QueryAnalyzer(catalog, database, joinChooser);
    }

    Executor executor(Cancellation cancel) {
        return new Executor(reader, joinRunner, cancel);
    }
}
