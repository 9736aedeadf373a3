package org.oooengine.mapreduce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;
import org.oooengine.core.settings.JobKeys;

/**
 * Tables' column names and types, copied from the cluster into a job's configuration by the
 * client, so that tasks reading files (text exports, earlier stages' output) know them without
 * asking a node; for a table held only in files, the client names its types itself.
 */
public final class TableSchemas {
    private static final String COLUMNS = JobKeys.TABLE_COLUMNS.name();
    private static final String TYPES = JobKeys.TABLE_TYPES.name();

    private TableSchemas() {
    }

    /** Records the schemas of {@code tables} as the job's cluster knows them; the cluster must be set on the job. */
    public static void record(Job job, Collection<String> tables) {
        Configuration conf = job.getConfiguration();
        try (ClusterSession session = ClusterJobConf.open(job, "job-client")) {
            for (String t : tables) {
                List<String> names = new ArrayList<>();
                List<String> types = new ArrayList<>();
                for (StoreManifest.ColumnMeta c : session.table(t).meta().columns()) {
                    names.add(c.name());
                    types.add(DataType.parse(c.type()).toString());
                }
                conf.setStrings(COLUMNS + t, names.toArray(String[]::new));
                conf.set(TYPES + t, String.join(";", types)); // ';': DECIMAL(p,s) holds a comma
            }
        }
    }

    /** Records the column types of a table the cluster does not hold (one read from files only). */
    public static void setTypes(Configuration conf, String table, List<DataType> types) {
        conf.set(TYPES + table, String.join(";", types.stream().map(DataType::toString).toList()));
    }

    public static List<String> columns(Configuration conf, String table) {
        String[] c = conf.getStrings(COLUMNS + table);
        if (c == null) {
            throw new IllegalStateException("the job does not list the columns of " + table);
        }
        return Arrays.asList(c);
    }

    public static List<DataType> types(Configuration conf, String table) {
        String listed = conf.get(TYPES + table);
        if (listed == null) {
            throw new IllegalStateException("the job does not list the column types of " + table);
        }
        return Arrays.stream(listed.split(";")).map(DataType::parse).toList();
    }
}
