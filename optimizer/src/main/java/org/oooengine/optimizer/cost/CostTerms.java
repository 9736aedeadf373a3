package org.oooengine.optimizer.cost;

/**
 * An estimate in seconds, split by what prices each part: the seconds each CPU figure of the
 * calibration prices (a part grows in proportion to its figure), a MapReduce job's start-ups and
 * scans, the devices' seconds, and the rest — dispatch, the dependent chain — in {@code fixed}. Runs of a plan set beside its
 * terms are what {@code ooo calibrate --from-history} refits those figures from.
 *
 * <p>An index-join pipeline's cores (rows, the CPU of cold reads, requests) and its devices add up
 * in order; out of order they overlap and the busier of the two counts. A MapReduce job's shuffled
 * and written rows, start-ups and scans add to either.
 *
 * @param fixed        seconds no figure here prices
 * @param disk         the devices' seconds of an index-join pipeline
 * @param overlapped   whether the pipeline's devices and cores overlap (out of order)
 * @param warmRows     rows probed on cached pages ({@link Calibration.IndexJoin#warmRowMicros})
 * @param coldReads    the cores' part of cold reads ({@link Calibration.IndexJoin#readCpuMicros})
 * @param requests     remote requests ({@link Calibration.IndexJoin#requestMicros})
 * @param shuffledRows rows a MapReduce job shuffles ({@link Calibration.MapReduce#shuffleRowMicros})
 * @param outputRows   rows a MapReduce job writes ({@link Calibration.MapReduce#outputRowMicros})
 * @param startups     MapReduce jobs' start-ups ({@link Calibration.MapReduce#startupSeconds} and
 *                     {@link Calibration.MapReduce#stageStartupSeconds}); 0 in runs recorded before
 *                     they were told apart, whose {@code fixed} holds them
 * @param scans        MapReduce mappers' scans ({@link Calibration.MapReduce#scanMibPerSecond}); as {@code startups}
 */
public record CostTerms(double fixed, double disk, boolean overlapped, double warmRows, double coldReads,
                        double requests, double shuffledRows, double outputRows, double startups, double scans) {

    /** Terms of no MapReduce job. */
    public CostTerms(double fixed, double disk, boolean overlapped, double warmRows, double coldReads,
                     double requests, double shuffledRows, double outputRows) {
        this(fixed, disk, overlapped, warmRows, coldReads, requests, shuffledRows, outputRows, 0, 0);
    }

    public static CostTerms fixed(double seconds) {
        return new CostTerms(seconds, 0, false, 0, 0, 0, 0, 0);
    }

    /** A MapReduce stage's terms. */
    public static CostTerms job(double startup, double scan, double shuffledRows, double outputRows) {
        return new CostTerms(0, 0, false, 0, 0, 0, shuffledRows, outputRows, startup, scan);
    }

    /** The pipeline's cores: rows, cold reads' CPU and requests. */
    public double cores() {
        return warmRows + coldReads + requests;
    }

    public double seconds() {
        return fixed + (overlapped ? Math.max(disk, cores()) : disk + cores()) + shuffledRows + outputRows
                + startups + scans;
    }

    /** These terms and a MapReduce job's after them. */
    public CostTerms plusJob(double moreFixed, double moreStartups, double moreShuffledRows, double moreOutputRows) {
        return new CostTerms(fixed + moreFixed, disk, overlapped, warmRows, coldReads, requests,
                shuffledRows + moreShuffledRows, outputRows + moreOutputRows, startups + moreStartups, scans);
    }
}
