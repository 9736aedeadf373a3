package org.oooengine.it;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.oooengine.core.storage.Directories;

/**
 * Gives a {@code MiniHadoop} parameter the one HDFS and YARN of this test JVM: started by the first
 * class that asks (about half a minute on two cores), stopped when every class has run. The test
 * classes keep their files apart by path and count YARN applications as differences.
 */
final class SharedMiniHadoop implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedMiniHadoop.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MiniHadoop.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // the root context's store closes what it holds (MiniHadoop is AutoCloseable) after the last class
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Started.class, k -> start(), Started.class).hadoop;
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
