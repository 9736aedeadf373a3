package org.oooengine.hive.engine;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.oooengine.core.cluster.FileOutput;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Runs an analyzed query plan of a statement that changes tables (an INSERT's SELECT, the rows an
 * UPDATE changes): {@link #apply} brings its rows here; {@link #writtenOnNodes} has the nodes
 * write them into files themselves, where the plan ends on the nodes.
 */
@FunctionalInterface
interface PlanRows extends Function<RelNode, List<Object[]>> {
    /**
     * The records of the files the nodes wrote of {@code plan}'s rows as {@code output} says
     * ({@link FileOutput#RECORD_COLUMNS}); empty, having run nothing, where its rows meet here.
     */
    default Optional<List<Object[]>> writtenOnNodes(RelNode plan, FileOutput output) {
        return Optional.empty();
    }
}
