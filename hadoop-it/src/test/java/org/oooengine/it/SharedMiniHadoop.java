package org.oooengine.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.oooengine.core.storage.Directories;
import org.oooengine.hive.metastore.InProcessMetastore;

/**
 * Gives a {@code MiniHadoop} parameter the one HDFS and YARN of this test JVM: started by the first
 * class that asks (about half a minute on two cores), stopped when every class has run. The test
 * classes keep their files apart by path and count YARN applications as differences. An
 * {@code InProcessMetastore} parameter gets the one metastore of this JVM (Hive's object store
 * keeps its database connection in static state: a second one would not start), whose tables are
 * on that HDFS; the classes keep databases of their own in it.
 */
final class SharedMiniHadoop implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedMiniHadoop.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MiniHadoop.class
                || parameter.getParameter().getType() == InProcessMetastore.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // the root context's store closes what it holds (MiniHadoop is AutoCloseable) after the last class
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        Started hadoop = store.getOrComputeIfAbsent(Started.class, k -> start(), Started.class);
        if (parameter.getParameter().getType() == MiniHadoop.class) {
            return hadoop.hadoop;
        }
        return store.getOrComputeIfAbsent(Metastore.class, k -> metastore(hadoop), Metastore.class).metastore;
    }

    private static Metastore metastore(Started hadoop) {
        try {
            // like one in production, it checks and creates table directories on HDFS
            return new Metastore(new InProcessMetastore(hadoop.dir.resolve("hms"),
                    Map.of("fs.defaultFS", hadoop.hadoop.hdfsUri())));
        } catch (Exception e) {
            throw new ParameterResolutionException("the metastore did not start", e);
        }
    }

    /** The metastore, stopped after the last class (its files go with Hadoop's directory). */
    private record Metastore(InProcessMetastore metastore) implements AutoCloseable {
        @Override
        public void close() {
            metastore.close();
        }
    }

    private static Started start() {
        try {
            Path dir = Files.createTempDirectory("ooo-mini-hadoop");
            return new Started(new MiniHadoop("ooo-it", dir.resolve("hdfs")), dir);
        } catch (Exception e) {
            throw new ParameterResolutionException("HDFS and YARN did not start", e);
        }
    }

    /** The running Hadoop and its directory, removed once it has stopped. */
    private record Started(MiniHadoop hadoop, Path dir) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            try {
                hadoop.close();
            } finally {
                Directories.deleteRecursively(dir);
            }
        }
    }
}
