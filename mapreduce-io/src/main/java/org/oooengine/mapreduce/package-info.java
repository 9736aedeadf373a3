/**
 * Hadoop InputFormats over OoO Engine clusters ({@link org.oooengine.mapreduce.OooJoinInputFormat},
 * {@link org.oooengine.mapreduce.StoreScanInputFormat}) and the parallel sort-merge join as a
 * MapReduce job ({@link org.oooengine.mapreduce.PsmjJob}).
 */
package org.oooengine.mapreduce;
