package org.oooengine.hive.engine;

import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.cluster.RuntimeLimits;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.analyze.QueryAnalyzer;
import org.oooengine.hive.sql.exec.Executor;
import org.oooengine.hive.sql.exec.IndexJoinRunner;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.optimizer.rel.FilterPushdown;
import org.oooengine.optimizer.rel.IndexJoinChoice;
import org.oooengine.optimizer.rel.JoinChooser;
import org.oooengine.optimizer.rel.PipelinePlanner;
import org.oooengine.optimizer.rel.PlanPrinter;
import org.oooengine.optimizer.rel.TableLayouts;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.rel.SingleDistinctToGroupBy;

/**
 * How one statement runs: where its tables are read, how its join chains are chosen and run,
 * and which jobs EXPLAIN names next to each operator (empty in daemon mode); {@code nodes}: what the
 * nodes hold, for the work that runs there (daemon mode); {@link TableLayouts#NONE} runs every
 * operator where the rows arrive (MapReduce mode's scan jobs); {@code limits}: how much the nodes
 * may hold of a join's side; {@code runtime}: what a statement may hold and spill where it runs;
 * {@code coordinatorSpill}: the disk the spill files of all the coordinator's statements may take.
 */
record Execution(TableReader reader, IndexJoinRunner joinRunner, JoinChooser joinChooser, OperatorNotes notes,
                 TableLayouts nodes, PipelinePlanner.Limits limits, RuntimeLimits runtime, SpillSpace coordinatorSpill) {

    /**
     * What EXPLAIN appends to an operator's line (empty for nothing): the jobs it runs in MapReduce
     * mode, the partitions, files and splits a scan of a table held in files reads, and how the
     * nodes share them out: as the session says, or each where it is assigned when
     * {@code readWhereAssigned} (the plan has each node read a slice of a key, or a join route by ranges).
     */
    interface OperatorNotes {
        OperatorNotes NONE = (node, readWhereAssigned) -> "";

        String of(RelNode node, boolean readWhereAssigned);
    }

    /**
     * The plan of a query as it runs: the analyzer's, made physical — a GROUP BY of one DISTINCT
     * argument made two plain ones, conditions on views and derived tables carried into them, the join
     * chains the index join could run decided, and the work
     * that can run on the nodes moved there.
     */
    RelNode plan(Catalog catalog, String database, ASTNode query) {
        return placed(new QueryAnalyzer(catalog, database).query(query));
    }

    /** A query's plan as {@link #plan} makes it, with what EXPLAIN needs to print it. */
    record Explained(RelNode plan, PlanPrinter.Context context) {
    }

    /** The plan of {@code query} and, for EXPLAIN, the tables' row counts and the scans it was placed from. */
    Explained explained(Catalog catalog, String database, ASTNode query) {
        RelNode pushed = FilterPushdown.apply(new QueryAnalyzer(catalog, database).query(query));
        RelNode plan = placedPushed(pushed);
        return new Explained(plan, PlanPrinter.Context.of(pushed, nodes).with(Executor.sharedSubplans(plan)));
    }

    /** Runs a plan the analyzer made (e.g. an INSERT's SELECT), placed as {@link #plan} places it. */
    List<Object[]> run(RelNode logical, Cancellation cancel) {
        return executor(cancel).runToList(placed(logical));
    }

    /**
     * Where the placed plan ends in one pipeline of the nodes, has them write its rows into files
     * as {@code output} says and returns the records of the files; else empty, having run nothing.
     */
    java.util.Optional<List<Object[]>> writeOnNodes(RelNode logical, org.oooengine.core.cluster.FileOutput output,
                                                    Cancellation cancel) {
        return executor(cancel).writeOnNodes(placed(logical), output);
    }

    private RelNode placed(RelNode logical) {
        return placedPushed(FilterPushdown.apply(logical)); // conditions on views and derived tables carried into them
    }

    private RelNode placedPushed(RelNode pushed) {
        RelNode chosen = IndexJoinChoice.apply(SingleDistinctToGroupBy.apply(pushed), joinChooser);
        return nodes == TableLayouts.NONE ? chosen : PipelinePlanner.plan(chosen, nodes, limits);
    }

    /** The same, its tables read by {@code tables}. */
    Execution reading(TableReader tables) {
        return new Execution(tables, joinRunner, joinChooser, notes, nodes, limits, runtime, coordinatorSpill);
    }

    Executor executor(Cancellation cancel) {
        return new Executor(reader, joinRunner, cancel, runtime.coordinatorMemory(coordinatorSpill), runtime.nodeLimits());
    }
}
