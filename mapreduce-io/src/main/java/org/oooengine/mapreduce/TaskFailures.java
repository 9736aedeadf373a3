package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;

/**
 * Why a job's tasks failed, for the client waiting for it. On YARN the framework keeps each
 * failed attempt's diagnostics. Hadoop's local job runner only logs a task's exception, so the
 * engine's record readers note theirs here — local tasks run in the client's JVM — and the
 * client takes the note when the job fails.
 */
final class TaskFailures {
    private static final int EVENTS_PER_CALL = 100;
    /** By job id as text: tasks see the old API's JobID class, the client the new one's, and they never equal. */
    private static final Map<String, String> NOTED = new ConcurrentHashMap<>();

    private TaskFailures() {
    }

    /** Keeps the first failure noted for the task's job. */
    static void note(TaskAttemptContext task, Throwable failure) {
        String what = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        NOTED.putIfAbsent(task.getJobID().toString(), task.getTaskAttemptID() + ": " + what);
    }

    /**
     * Takes what is known of why {@code job} failed — a noted failure, else the first failed
     * attempt's diagnostics, else the job's failure information — or null when nothing is.
     */
    static String take(Job job) throws IOException, InterruptedException {
        String noted = NOTED.remove(job.getJobID().toString());
        if (noted != null) {
            return noted;
        }
        String diagnostics = firstFailedAttempt(job);
        if (diagnostics != null) {
            return diagnostics;
        }
        String info = job.getStatus().getFailureInfo();
        return info == null || info.isBlank() || info.equals("NA") ? null : info;
    }

    /** Drops what tasks of a job that is over noted (a killed job's readers may note the interruption). */
    static void forget(Job job) {
        NOTED.remove(job.getJobID().toString());
    }

    private static String firstFailedAttempt(Job job) throws IOException, InterruptedException {
        for (int from = 0; ; from += EVENTS_PER_CALL) {
            TaskCompletionEvent[] events = job.getTaskCompletionEvents(from, EVENTS_PER_CALL);
            if (events.length == 0) {
                return null;
            }
            for (TaskCompletionEvent e : events) {
                if (e.getStatus() == TaskCompletionEvent.Status.FAILED
                        || e.getStatus() == TaskCompletionEvent.Status.TIPFAILED) {
                    String[] diagnostics = job.getTaskDiagnostics(e.getTaskAttemptId());
                    if (diagnostics != null && diagnostics.length > 0) {
                        // the first line names the exception; the stack trace follows
                        return e.getTaskAttemptId() + ": " + diagnostics[0].lines().findFirst().orElse("");
                    }
                }
            }
        }
    }
}
