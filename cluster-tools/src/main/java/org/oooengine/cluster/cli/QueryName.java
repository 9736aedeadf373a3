package org.oooengine.cluster.cli;

/** The joins the benchmarks run (see {@code JoinQueries}). */
enum QueryName {
    /** orders ⋈ lineitem on orderkey, o_totalprice in a range. */
    OL,
    /** part ⋈ lineitem on partkey, p_retailprice in a range. */
    PL
}
