package org.oooengine.hive.engine;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.settings.CoordinatorSettings;

/**
 * The files LOAD DATA may read. On the coordinator's own file system — {@code LOCAL} paths,
 * {@code file:} URIs, and paths without a scheme when the default file system is the local one —
 * only files under the directories the operator allows ({@link #ALLOWED_DIRS_SETTING}, none by
 * default), judged by their real paths with every symlink and {@code ..} resolved, for each file
 * of a directory too; never a file of the cluster directory or of a node's data directory, even
 * inside an allowed directory. The coordinator runs with access to the cluster's secret and
 * store, and often as a privileged user: a path a SQL user writes must not reach them.
 *
 * <p>Other file systems ({@link #FILE_SYSTEMS_SETTING}, HDFS by default) are read as the
 * coordinator's Hadoop identity, wherever it may read.
 */
final class LoadableFiles {
    private static final Logger LOG = LogManager.getLogger(LoadableFiles.class);
    static final String ALLOWED_DIRS_SETTING = CoordinatorSettings.LOAD_ALLOWED_DIRS.name();
    static final String FILE_SYSTEMS_SETTING = CoordinatorSettings.LOAD_FILE_SYSTEMS.name();

    /** An allowed directory as configured (normalized) and as it really is. */
    private record Allowed(Path configured, Path real) {
    }

    private final List<Allowed> allowed;
    /** Real paths LOAD DATA never reads: the cluster directory and the nodes' data directories. */
    private final List<Path> forbidden;
    private final Set<String> fileSystems;

    private LoadableFiles(List<Allowed> allowed, List<Path> forbidden, Set<String> fileSystems) {
        this.allowed = allowed;
        this.forbidden = forbidden;
        this.fileSystems = fileSystems;
    }

    /**
     * From the coordinator's settings; refuses an allowed directory that is relative or not a
     * directory. {@code clusterDir} may be null for an engine that was not opened on it.
     */
    static LoadableFiles fromSettings(Map<String, String> settings, Path clusterDir, ClusterSpec spec) {
        List<Allowed> allowed = new ArrayList<>();
        for (String dir : CoordinatorSettings.LOAD_ALLOWED_DIRS.get(settings)) {
            Path configured = Path.of(dir);
            if (!configured.isAbsolute() || !Files.isDirectory(configured)) {
                throw new IllegalArgumentException(ALLOWED_DIRS_SETTING + ": " + dir + " is not "
                        + (configured.isAbsolute() ? "a directory" : "an absolute path"));
            }
            allowed.add(new Allowed(configured.normalize(), realPathOf(configured)));
        }
        List<Path> forbidden = new ArrayList<>();
        for (ClusterSpec.NodeSpec node : spec.nodes()) {
            Path data = Path.of(node.dataDir());
            if (data.isAbsolute() || clusterDir != null) {
                forbidden.add(bestRealPath(clusterDir == null ? data : clusterDir.resolve(data)));
            }
        }
        if (clusterDir != null) {
            forbidden.add(bestRealPath(clusterDir));
        }
        Set<String> fileSystems = new LinkedHashSet<>();
        for (String scheme : CoordinatorSettings.LOAD_FILE_SYSTEMS.get(settings)) {
            String s = scheme.toLowerCase(Locale.ROOT);
            if (s.equals("file")) {
                throw new IllegalArgumentException(FILE_SYSTEMS_SETTING + " lists the other file systems; files on the "
                        + "coordinator are read only under " + ALLOWED_DIRS_SETTING);
            }
            fileSystems.add(s);
        }
        LoadableFiles files = new LoadableFiles(List.copyOf(allowed), List.copyOf(forbidden), fileSystems);
        LOG.info("LOAD DATA reads {}, and any path on {}", allowed.isEmpty()
                ? "no file on the coordinator (" + ALLOWED_DIRS_SETTING + " names no directory)"
                : "files on the coordinator under " + allowed.stream().map(a -> a.configured().toString()).toList(),
                fileSystems);
        return files;
    }

    private static Path realPathOf(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException(ALLOWED_DIRS_SETTING + ": cannot resolve " + dir + ": " + e.getMessage(),
                    e);
        }
    }

    /** The real path of a directory that may not exist yet (a node's data directory before its first load). */
    private static Path bestRealPath(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            return absolute;
        }
    }

    /**
     * The files to read for {@code LOAD DATA [LOCAL] INPATH 'path'}: on the coordinator, each data
     * file as a {@code file:} URI of its real path (a directory's in name order, subdirectories
     * too, names starting with {@code _} or {@code .} skipped); on another file system the path
     * itself. Throws an {@link AccessDeniedException} for a path it may not read.
     */
    List<String> locations(String path, boolean local, Configuration conf) {
        String statement = (local ? "LOAD DATA LOCAL INPATH '" : "LOAD DATA INPATH '") + path + "'";
        URI uri = uriOf(statement, path);
        String scheme = uri.getScheme() != null ? uri.getScheme().toLowerCase(Locale.ROOT)
                : local ? "file" : String.valueOf(FileSystem.getDefaultUri(conf).getScheme()).toLowerCase(Locale.ROOT);
        if (local && !scheme.equals("file")) {
            throw new AccessDeniedException(statement + ": LOCAL names a file on the coordinator; "
                    + "for a file on " + scheme + " leave LOCAL out");
        }
        if (!scheme.equals("file")) {
            requireFileSystem(statement, scheme);
            return List.of(path);
        }
        if (uri.getPath() == null || !uri.getPath().startsWith("/")) {
            throw new AccessDeniedException(statement + ": a file on the coordinator needs an absolute "
                    + "path, e.g. " + (allowed.isEmpty() ? Path.of("/data/incoming") : allowed.get(0).configured())
                    .resolve("items.csv"));
        }
        return localFiles(statement, Path.of(uri.getPath()));
    }

    private static URI uriOf(String statement, String path) {
        try {
            URI uri = new URI(path);
            // A bare path may hold characters a URI may not; it is a path all the same.
            return uri.getScheme() == null ? new URI(null, null, path, null) : uri;
        } catch (URISyntaxException e) {
            try {
                return new URI(null, null, path, null);
            } catch (URISyntaxException again) {
                throw new SqlException(SqlException.SYNTAX, statement + ": not a path: " + e.getMessage());
            }
        }
    }

    private List<String> localFiles(String statement, Path path) {
        Path real = allowedReal(statement, path);
        if (!Files.isDirectory(real)) {
            return List.of(fileLocation(real));
        }
        List<String> files = new ArrayList<>();
        addDataFiles(statement, real, files, new HashSet<>());
        return files;
    }

    /**
     * Where the files of an external table at {@code location} are, for the catalog to keep: on the
     * coordinator's file system the real path of an existing directory under an allowed one; on
     * another file system that is allowed, the location qualified. Throws an
     * {@link AccessDeniedException} for a location SQL may not read.
     */
    String tableLocation(String statement, String location, Configuration conf) {
        URI uri = uriOf(statement, location);
        String scheme = uri.getScheme() != null ? uri.getScheme().toLowerCase(Locale.ROOT)
                : String.valueOf(FileSystem.getDefaultUri(conf).getScheme()).toLowerCase(Locale.ROOT);
        if (!scheme.equals("file")) {
            requireFileSystem(statement, scheme);
            org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
            try {
                return path.getFileSystem(conf).makeQualified(path).toString();
            } catch (IOException e) {
                throw new SqlException(SqlException.GENERAL, statement + ": no file system for " + location + ": "
                        + e.getMessage(), e);
            }
        }
        if (uri.getPath() == null || !uri.getPath().startsWith("/")) {
            throw new AccessDeniedException(statement + ": a location on the coordinator needs an absolute path");
        }
        Path real = allowedReal(statement, Path.of(uri.getPath()));
        if (!Files.isDirectory(real)) {
            throw new SqlException(SqlException.GENERAL, statement + ": " + describe(Path.of(uri.getPath()), real)
                    + " is not a directory");
        }
        return fileLocation(real);
    }

    /**
     * As {@link #tableLocation}, for a table whose files a statement is about to write (CREATE
     * TABLE ... LOCATION ... AS SELECT): a directory that does not exist yet is made, once its
     * parent is found to be one SQL may read; on the coordinator's file system only as the last
     * name of its path, so that no link leads it elsewhere.
     */
    String newTableLocation(String statement, String location, Configuration conf) {
        URI uri = uriOf(statement, location);
        String scheme = uri.getScheme() != null ? uri.getScheme().toLowerCase(Locale.ROOT)
                : String.valueOf(FileSystem.getDefaultUri(conf).getScheme()).toLowerCase(Locale.ROOT);
        try {
            if (scheme.equals("file") && uri.getPath() != null && uri.getPath().startsWith("/")) {
                Path path = Path.of(uri.getPath()).normalize();
                if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS) && path.getParent() != null) {
                    String parent = tableLocation(statement, path.getParent().toString(), conf);
                    Files.createDirectory(Path.of(URI.create(parent)).resolve(path.getFileName()));
                }
            } else if (!scheme.equals("file")) {
                requireFileSystem(statement, scheme);
                org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
                path.getFileSystem(conf).mkdirs(path);
            }
        } catch (IOException e) {
            throw new SqlException(SqlException.GENERAL, statement + ": cannot make " + location + ": " + e.getMessage(), e);
        }
        return tableLocation(statement, location, conf);
    }

    private void requireFileSystem(String statement, String scheme) {
        if (!fileSystems.contains(scheme)) {
            throw new AccessDeniedException(statement + ": file system " + scheme + " is not one SQL reads ("
                    + FILE_SYSTEMS_SETTING + ": " + String.join(", ", fileSystems) + "); the operator adds it there");
        }
    }

    /** The real path of {@code path} on the coordinator, which must be under an allowed directory. */
    private Path allowedReal(String statement, Path path) {
        if (allowed.isEmpty()) {
            throw new AccessDeniedException(statement + ": reading files on the coordinator is off. "
                    + "The operator allows directories with " + ALLOWED_DIRS_SETTING + " (comma separated) in "
                    + "<cluster-dir>/" + ClusterSqlEngine.SETTINGS_FILE + " or with ooo server --conf "
                    + ALLOWED_DIRS_SETTING + "=/data/incoming");
        }
        // Judged first as written, so that a path outside is refused without telling whether it exists.
        Path normalized = path.normalize();
        if (allowed.stream().noneMatch(a -> normalized.startsWith(a.configured()) || normalized.startsWith(a.real()))) {
            throw outside(statement, null);
        }
        return readable(statement, path);
    }

    private void addDataFiles(String statement, Path dir, List<String> out, Set<Path> visited) {
        if (!visited.add(dir)) {
            return; // a symlink back to a directory already read
        }
        List<Path> children;
        try (Stream<Path> list = Files.list(dir)) {
            children = list.filter(p -> !p.getFileName().toString().startsWith("_")
                    && !p.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new SqlException(SqlException.DATA, statement + ": cannot list " + dir + ": "
                    + e.getMessage(), e);
        }
        for (Path child : children) {
            Path real = readable(statement, child);
            if (Files.isDirectory(real)) {
                addDataFiles(statement, real, out, visited);
            } else {
                out.add(fileLocation(real));
            }
        }
    }

    /** The real path of {@code path}, a regular file or directory where LOAD DATA may read. */
    private Path readable(String statement, Path path) {
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException e) {
            throw new SqlException(SqlException.DATA, statement + ": no file or directory " + path);
        } catch (IOException e) {
            throw new SqlException(SqlException.DATA, statement + ": cannot read " + path + ": "
                    + e.getMessage(), e);
        }
        for (Path no : forbidden) {
            if (real.startsWith(no)) {
                throw new AccessDeniedException(statement + ": " + describe(path, real)
                        + " is in the cluster's own files (" + no + "), which SQL never reads");
            }
        }
        if (allowed.stream().noneMatch(a -> real.startsWith(a.real()))) {
            throw outside(statement, describe(path, real));
        }
        if (!Files.isDirectory(real) && !Files.isRegularFile(real)) {
            throw new AccessDeniedException(statement + ": " + describe(path, real)
                    + " is not a regular file");
        }
        return real;
    }

    /**
     * Refuses a file of table {@code table} that SQL may not read, as LOAD DATA would refuse it: on
     * the coordinator's own file system, one whose real path is outside the allowed directories or
     * in the cluster's own files; on another, one whose file system is not among those listed. A
     * table's files are judged each time a statement lists them: a symlink added after CREATE
     * TABLE is caught too.
     */
    void checkTableFile(String table, org.apache.hadoop.fs.Path file) {
        String scheme = file.toUri().getScheme() == null ? "file" : file.toUri().getScheme().toLowerCase(Locale.ROOT);
        String reader = "table " + table;
        if (!scheme.equals("file")) {
            requireFileSystem(reader, scheme);
            return;
        }
        if (allowed.isEmpty()) {
            throw new AccessDeniedException(reader + ": its files are on the coordinator's file system, which SQL "
                    + "reads only under " + ALLOWED_DIRS_SETTING + ", and that names no directory");
        }
        readable(reader, Path.of(file.toUri().getPath()));
    }

    /** A Hadoop location of a local file (Hadoop's Path quotes what a URI may not hold itself). */
    private static String fileLocation(Path real) {
        return "file:" + real;
    }

    private static String describe(Path path, Path real) {
        return path.equals(real) ? path.toString() : path + " (really " + real + ")";
    }

    private AccessDeniedException outside(String statement, String what) {
        return new AccessDeniedException(statement + ": " + (what == null ? "the path" : what)
                + " is not under a directory SQL may read files from (" + ALLOWED_DIRS_SETTING + ": "
                + String.join(", ", allowed.stream().map(a -> a.configured().toString()).toList()) + ")");
    }
}
