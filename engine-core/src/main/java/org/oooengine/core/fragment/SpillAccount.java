package org.oooengine.core.fragment;

/**
 * Whose limits a spill file's bytes are held to: a query's ({@link QueryMemory}), or a node's spill
 * space alone for rows no query has claimed yet ({@link SpillSpace}: an exchange's inbox).
 */
interface SpillAccount {
    /** Takes {@code bytes} of disk before they are written; past a cap, throws {@link SpillLimitExceededException} naming {@code what}. */
    void takeDisk(String what, long bytes);

    /** Gives back what a deleted spill file took. */
    void giveDisk(long bytes);
}
