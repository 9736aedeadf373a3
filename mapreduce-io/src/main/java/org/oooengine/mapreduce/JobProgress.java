package org.oooengine.mapreduce;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;

/** Where a caller that waits for a job hears how far it got: map and reduce progress, each from 0 to 1. */
@FunctionalInterface
public interface JobProgress {
    JobProgress NONE = (job, map, reduce) -> { };

    void update(String job, float map, float reduce);

    /**
     * Submits {@code job} and waits for it as {@link Job#waitForCompletion} does, telling
     * {@code progress} how far it got twice a second.
     *
     * @return whether it succeeded
     */
    static boolean await(Job job, JobProgress progress) throws IOException, InterruptedException, ClassNotFoundException {
        job.submit();
        while (!job.isComplete()) {
            progress.update(job.getJobName(), job.mapProgress(), job.reduceProgress());
            Thread.sleep(500);
        }
        progress.update(job.getJobName(), job.mapProgress(), job.reduceProgress());
        return job.isSuccessful();
    }
}
