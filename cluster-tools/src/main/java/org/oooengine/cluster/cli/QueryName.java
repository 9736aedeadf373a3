package org.oooengine.cluster.cli;

/** The joins the benchmarks run (see {@code JoinQueries}). */
enum QueryName {
    /** orders ⋈ lineitem on orderkey, o_totalprice in a range. */
    OL,
    /** part ⋈ lineitem on partkey, p_retailprice in a range. */
    PL,
    /** Q3': customer ⋈ orders ⋈ lineitem, c_acctbal in a range (cluster only: the single-node joins take two tables). */
    Q3,
    /**
     * Q8': part ⋈ lineitem ⋈ orders ⋈ customer ⋈ nation ⋈ region with supplier ⋈ nation,
     * p_retailprice in a range (cluster only).
     */
    Q8;

    /** The two-table joins every mode runs, single node included. */
    static final java.util.List<QueryName> TWO_TABLE = java.util.List.of(OL, PL);
}
