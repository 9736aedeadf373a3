package org.oooengine.mapreduce;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A file system whose creates make no missing directory: a file whose directory is gone fails
 * with {@link java.io.FileNotFoundException} instead. A node writes a statement's files into its
 * staging directory, which the coordinator deletes when the statement ends; a run still writing
 * then (a hedged run that lost, a node cut off from its coordinator) must not bring it back.
 * Checking that the directory exists before creating would leave the instant between the two.
 */
final class InExistingDirectories extends FilterFileSystem {
    InExistingDirectories(FileSystem fs) {
        super(fs);
    }

    /** Every create of {@link FileSystem}'s own ends here; the formats' writers call those. */
    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        return fs.createNonRecursive(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }
}
