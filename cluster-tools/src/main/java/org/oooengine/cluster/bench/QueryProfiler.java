package org.oooengine.cluster.bench;

/** What records a query's timed runs (a CPU profile): started before the first, stopped after the last. */
public interface QueryProfiler {
    QueryProfiler NONE = new QueryProfiler() {
        @Override
        public void start(String query) {
        }

        @Override
        public void stop(String query) {
        }
    };

    void start(String query);

    void stop(String query);
}
