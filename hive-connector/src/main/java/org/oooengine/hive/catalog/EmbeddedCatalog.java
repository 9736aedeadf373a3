package org.oooengine.hive.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.oooengine.core.store.JsonFiles;
import org.oooengine.core.sql.SqlException;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The default catalog: databases and the tables created through SQL, kept in one JSON file
 * beside the cluster's description and rewritten atomically on every change. Tables the nodes
 * hold that no SQL statement created (e.g. TPC-H from {@code ooo load}) appear in database
 * {@code default}, as the {@link ClusterCatalog} shows them.
 */
public final class EmbeddedCatalog implements Catalog {
    public static final String FILE_NAME = "catalog.json";
    static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The file's content; {@code views} absent from files written before views were kept. */
    record State(int formatVersion, Map<String, String> databases, List<CatalogTable> tables, List<CatalogView> views) {
    }

    private final Path file;
    private final ClusterCatalog loaded;
    private final Map<String, String> databases = new LinkedHashMap<>();
    private final Map<String, CatalogTable> tables = new LinkedHashMap<>();
    private final Map<String, CatalogView> views = new LinkedHashMap<>();

    /** @param file where the catalog lives; null keeps it in memory only */
    public EmbeddedCatalog(Path file, ClusterCatalog loaded) {
        this.file = file;
        this.loaded = loaded;
        databases.put(ClusterCatalog.DEFAULT_DATABASE, "Default database");
        if (file != null && Files.isRegularFile(file)) {
            State s = read(file);
            databases.putAll(s.databases());
            s.tables().forEach(t -> tables.put(key(t.database(), t.name()), t));
            if (s.views() != null) {
                s.views().forEach(v -> views.put(key(v.database(), v.name()), v));
            }
        }
    }

    private static State read(Path file) {
        try {
            State s = JSON.readValue(file.toFile(), State.class);
            if (s.formatVersion() != FORMAT_VERSION) {
                throw new IllegalStateException(file + " has catalog format " + s.formatVersion() + "; this engine reads "
                        + FORMAT_VERSION);
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the catalog " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized List<String> databases() {
        return databases.keySet().stream().sorted().toList();
    }

    // The nodes are asked outside the lock: a node slow to answer holds up no lookup of a table created through SQL.
    @Override
    public List<TableInfo> tables(String database) {
        List<TableInfo> onNodes = ClusterCatalog.DEFAULT_DATABASE.equals(database) ? loaded.tables(database) : List.of();
        synchronized (this) {
            List<TableInfo> out = new ArrayList<>();
            tables.values().stream().filter(t -> t.database().equals(database)).forEach(t -> out.add(t.info()));
            onNodes.stream().filter(this::onlyLoaded).forEach(out::add);
            out.sort(Comparator.comparing(TableInfo::name));
            return out;
        }
    }

    @Override
    public Optional<TableInfo> table(String database, String name) {
        Optional<CatalogTable> t = entry(database, name);
        if (t.isPresent()) {
            return Optional.of(t.get().info());
        }
        Optional<TableInfo> onNodes = loaded.table(database, name);
        synchronized (this) {
            return onNodes.filter(this::onlyLoaded);
        }
    }

    /** A table on the nodes that no SQL statement created: not the storage of an entry, nor in another database. */
    private boolean onlyLoaded(TableInfo t) {
        Set<String> claimed = tables.values().stream().map(CatalogTable::storage).collect(Collectors.toSet());
        return !claimed.contains(t.storage()) && !t.storage().contains(".");
    }

    /** The catalog's entry of a table created through SQL; empty for tables it only sees on the nodes. */
    public synchronized Optional<CatalogTable> entry(String database, String name) {
        return Optional.ofNullable(tables.get(key(database, name)));
    }

    @Override
    public TableConstraints constraints(String database, String name) {
        return entry(database, name).map(CatalogTable::constraints).orElse(TableConstraints.NONE);
    }

    @Override
    public synchronized Optional<CatalogView> view(String database, String name) {
        return Optional.ofNullable(views.get(key(database, name)));
    }

    @Override
    public synchronized List<CatalogView> views(String database) {
        return views.values().stream().filter(v -> v.database().equals(database))
                .sorted(Comparator.comparing(CatalogView::name)).toList();
    }

    /** Records a view, new or replacing one of its name. */
    public synchronized void putView(CatalogView v) {
        if (!databases.containsKey(v.database())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + v.database());
        }
        views.put(key(v.database(), v.name()), v);
        save();
    }

    public synchronized void removeView(String database, String name) {
        if (views.remove(key(database, name)) != null) {
            save();
        }
    }

    public synchronized void createDatabase(String name, String comment) {
        if (databases.containsKey(name)) {
            throw new SqlException(SqlException.ALREADY_EXISTS, "database already exists: " + name);
        }
        databases.put(name, comment == null ? "" : comment);
        save();
    }

    public synchronized void dropDatabase(String name) {
        if (ClusterCatalog.DEFAULT_DATABASE.equals(name)) {
            throw new SqlException(SqlException.GENERAL, "database default cannot be dropped");
        }
        databases.remove(name);
        save();
    }

    /** Records a table (new, or an entry that changed, e.g. its next row id). */
    public synchronized void put(CatalogTable t) {
        if (!databases.containsKey(t.database())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + t.database());
        }
        tables.put(key(t.database(), t.name()), t);
        save();
    }

    @Override
    public synchronized void recordStatistics(String database, String name, Map<String, String> statistics) {
        CatalogTable t = tables.get(key(database, name));
        if (t == null) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "table not found: " + database + "." + name);
        }
        Map<String, String> properties = new LinkedHashMap<>(t.properties());
        properties.putAll(statistics);
        put(t.withProperties(properties, t.comment()));
    }

    /** Every table created through SQL, in every database. */
    public synchronized List<CatalogTable> entries() {
        return List.copyOf(tables.values());
    }

    /** Whether a table created through SQL keeps its rows under {@code storage} on the nodes. */
    public synchronized boolean storageTaken(String storage) {
        return tables.values().stream().anyMatch(t -> t.storage().equals(storage));
    }

    /** Records {@code renamed} in place of {@code old}, in one change of the file. */
    public synchronized void renameTable(CatalogTable old, CatalogTable renamed) {
        if (!databases.containsKey(renamed.database())) {
            throw new SqlException(SqlException.UNKNOWN_TABLE, "database does not exist: " + renamed.database());
        }
        tables.remove(key(old.database(), old.name()));
        tables.put(key(renamed.database(), renamed.name()), renamed);
        save();
    }

    public synchronized void remove(String database, String name) {
        if (tables.remove(key(database, name)) != null) {
            save();
        }
    }

    private void save() {
        if (file != null) {
            JsonFiles.writeAtomically(file, new State(FORMAT_VERSION, Map.copyOf(databases), List.copyOf(tables.values()),
                    List.copyOf(views.values())));
        }
    }

    private static String key(String database, String name) {
        return database + "." + name;
    }
}
