/** Hadoop InputFormats, RecordReaders and MapReduce jobs over OoO Engine stores (arrives with the MapReduce work). */
package org.oooengine.mapreduce;
