package org.oooengine.core.fragment;

import java.util.Iterator;
import java.util.List;

/**
 * Rows read in order, one at a time or a run at a time: a run is handed out as pieces of the lists
 * the rows were kept in, so a chunk of columns reaches its reader as one.
 */
public interface RowRuns extends Iterator<Object[]> {
    /** Up to {@code max} further rows, as consecutive pieces of the lists they were kept in; none at the end. */
    List<List<Object[]>> take(int max);
}
